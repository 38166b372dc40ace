#pragma once
// One table per variant family: each row holds a variant's enum value, its name (as the
// CLI, the registry and the bench write it), one line on what it does, and the facts the
// family's dispatch needs of it (`domain`). The family's to_string, *_from_name (whose
// error lists the choices), all_*() and the registry's Operation::variants all read it,
// so a variant is named in one place.
#include <cstddef>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"

namespace gpufilter::ops {

struct NoDomain {};

template <class Enum, class Domain = NoDomain>
struct VariantRow {
  Enum value;
  const char* name;
  const char* help;
  Domain domain{};
};

// The row of `value`, or nullptr (an enum value without a row is a bug).
template <class Row, std::size_t N>
const Row* row_of(const Row (&table)[N], decltype(Row::value) value) {
  for (const Row& row : table)
    if (row.value == value) return &row;
  return nullptr;
}

template <class Row, std::size_t N>
const char* name_of(const Row (&table)[N], decltype(Row::value) value) {
  const Row* row = row_of(table, value);
  return row ? row->name : "unknown";
}

// "a, b or c"
template <class Row, std::size_t N>
std::string choices_of(const Row (&table)[N]) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) text += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
  return text;
}

// Throws Error(InvalidArgument) "<what>: unknown variant 'x'; use a, b or c" for a name
// without a row.
template <class Row, std::size_t N>
decltype(Row::value) value_of(const Row (&table)[N], const std::string& name, const char* what) {
  for (const Row& row : table)
    if (name == row.name) return row.value;
  throw Error(ErrorCode::InvalidArgument,
              std::string(what) + ": unknown variant '" + name + "'; use " + choices_of(table));
}

template <class Row, std::size_t N>
std::vector<decltype(Row::value)> values_of(const Row (&table)[N]) {
  std::vector<decltype(Row::value)> values;
  for (const Row& row : table) values.push_back(row.value);
  return values;
}

// The names of the rows `keep(row)` accepts, in table order.
template <class Row, std::size_t N, class Keep>
std::vector<std::string> names_of(const Row (&table)[N], Keep keep) {
  std::vector<std::string> names;
  for (const Row& row : table)
    if (keep(row)) names.emplace_back(row.name);
  return names;
}

template <class Row, std::size_t N>
std::vector<std::string> names_of(const Row (&table)[N]) {
  return names_of(table, [](const Row&) { return true; });
}

}  // namespace gpufilter::ops
