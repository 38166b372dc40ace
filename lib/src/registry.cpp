#include "gpufilter/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <variant>

#include "gpufilter/error.hpp"
#include "common/operations.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {
namespace {

std::string format_number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// The shortest text that reads back as `value` (as the CLI prints numbers).
std::string shortest_text(double value) {
  char buffer[64];
  const auto [end, status] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return status == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::Number: return "a number";
    case ParamKind::Choice: return "a choice";
    case ParamKind::Text: return "text";
    case ParamKind::Numbers: return "a list of numbers";
    case ParamKind::Flag: return "a flag";
  }
  return "a value";
}

// The value's alternative that the kind holds.
bool holds_kind(const ParamValue& value, ParamKind kind) {
  switch (kind) {
    case ParamKind::Number:
    case ParamKind::Flag: return std::holds_alternative<double>(value);
    case ParamKind::Choice:
    case ParamKind::Text: return std::holds_alternative<std::string>(value);
    case ParamKind::Numbers: return std::holds_alternative<std::vector<double>>(value);
  }
  return false;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

}  // namespace

// ---- values ------------------------------------------------------------------------

namespace {
template <class T>
const T& typed(const ParamValues& values, const std::string& name, const char* what) {
  const auto it = values.find(name);
  if (it == values.end()) throw_invalid("parameter '" + name + "' is not set");
  const T* value = std::get_if<T>(&it->second);
  if (!value) throw_invalid("parameter '" + name + "' is not " + what);
  return *value;
}
}  // namespace

double ParamValues::number(const std::string& name) const { return typed<double>(*this, name, "a number"); }
double ParamValues::number_or(const std::string& name, double fallback) const {
  return has(name) ? number(name) : fallback;
}
const std::string& ParamValues::text(const std::string& name) const {
  return typed<std::string>(*this, name, "text");
}
const std::vector<double>& ParamValues::numbers(const std::string& name) const {
  return typed<std::vector<double>>(*this, name, "a list of numbers");
}

// ---- specs -------------------------------------------------------------------------

std::string ParamSpec::accepted() const {
  switch (kind) {
    case ParamKind::Number:
    case ParamKind::Numbers: return "[" + format_number(min) + ".." + format_number(max) + "]";
    case ParamKind::Choice: return join(choices, "|");
    case ParamKind::Text:
    case ParamKind::Flag: return "";
  }
  return "";
}

ParamSpec number_param(std::string name, std::string help, double min, double max, std::optional<double> default_value,
                       bool integer, std::string default_text) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.help = std::move(help);
  spec.kind = ParamKind::Number;
  spec.integer = integer;
  spec.min = min;
  spec.max = max;
  if (default_value) spec.default_value = *default_value;
  spec.default_text = std::move(default_text);
  spec.metavar = integer ? "N" : "X";
  return spec;
}

ParamSpec choice_param(std::string name, std::string help, std::vector<std::string> choices, std::string default_value) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.help = std::move(help);
  spec.kind = ParamKind::Choice;
  spec.metavar = join(choices, "|");
  spec.choices = std::move(choices);
  spec.default_text = default_value;
  spec.default_value = std::move(default_value);
  return spec;
}

ParamSpec text_param(std::string name, std::string help, std::string metavar, std::string default_text) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.help = std::move(help);
  spec.kind = ParamKind::Text;
  spec.metavar = std::move(metavar);
  spec.default_text = std::move(default_text);
  return spec;
}

ParamSpec numbers_param(std::string name, std::string help, int min_items, int max_items, double min, double max,
                        bool integer, std::string metavar, std::string default_text) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.help = std::move(help);
  spec.kind = ParamKind::Numbers;
  spec.min_items = min_items;
  spec.max_items = max_items;
  spec.min = min;
  spec.max = max;
  spec.integer = integer;
  spec.metavar = std::move(metavar);
  spec.default_text = std::move(default_text);
  return spec;
}

ParamSpec flag_param(std::string name, std::string help) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.help = std::move(help);
  spec.kind = ParamKind::Flag;
  spec.min = 0.0;
  spec.max = 1.0;
  spec.integer = true;
  spec.default_value = 0.0;
  return spec;
}

// ---- operations --------------------------------------------------------------------

namespace {

// The factories the op files registered, in whatever order their files were loaded, each
// as one that makes a list (a single op's factory makes a list of one).
std::vector<std::function<std::vector<Operation>()>>& registered_factories() {
  static std::vector<std::function<std::vector<Operation>()>> factories;
  return factories;
}

// The GPU sides the kernel-launching files bound: by op name, or (an empty name) for
// every op of a family the binder recognises.
std::vector<std::pair<std::string, ops::GpuBinder>>& registered_gpu_binders() {
  static std::vector<std::pair<std::string, ops::GpuBinder>> binders;
  return binders;
}

}  // namespace

namespace ops {
OperationRegistration::OperationRegistration(OperationFactory make) {
  registered_factories().emplace_back([make] { return std::vector<Operation>{make()}; });
}
OperationRegistration::OperationRegistration(OperationFamilyFactory make) { registered_factories().emplace_back(make); }
GpuBinding::GpuBinding(const char* op, GpuBinder bind) { registered_gpu_binders().emplace_back(op, bind); }
GpuBinding::GpuBinding(GpuBinder bind_family) { registered_gpu_binders().emplace_back("", bind_family); }
}  // namespace ops

const char* to_string(OperationGroup group) {
  switch (group) {
    case OperationGroup::Filters: return "Filters";
    case OperationGroup::Geometry: return "Geometry";
    case OperationGroup::Statistics: return "Statistics and tone";
    case OperationGroup::Pixels: return "Pixel values";
    case OperationGroup::Formats: return "Copies and formats";
  }
  return "Other";
}

const std::vector<Operation>& operations() {
  // Registration happens while the library loads, before any call can reach here.
  static const std::vector<Operation> all = [] {
    std::vector<Operation> list;
    for (const auto& make : registered_factories())
      for (Operation& op : make()) list.push_back(std::move(op));
    // A binding whose op is gone is the library's fault: every call says so.
    for (const auto& [name, bind] : registered_gpu_binders()) {
      if (name.empty()) {
        for (Operation& op : list) bind(op);
        continue;
      }
      const auto op = std::find_if(list.begin(), list.end(), [&](const Operation& o) { return o.name == name; });
      if (op == list.end()) throw std::logic_error("gpufilter: a GPU side is bound to '" + name + "', which no op has");
      bind(*op);
    }
    // The load order of the op files is the linker's: the list's order is the groups'.
    std::sort(list.begin(), list.end(), [](const Operation& a, const Operation& b) {
      return a.group != b.group ? a.group < b.group : a.name < b.name;
    });
    return list;
  }();
  return all;
}

const Operation* find_operation(const std::string& name) {
  for (const Operation& op : operations())
    if (op.name == name) return &op;
  return nullptr;
}

void Operation::run_on_cpu(const ImageView& src, const ImageView& dst, const ParamValues& values,
                           const Border& border) const {
  if (run_cpu) run_cpu(src, dst, values, border);
  else run_reference(src, dst, values, border);
}

void Operation::run_data_on_cpu(const ImageView& src, double* result, const ParamValues& values) const {
  if (run_cpu_data) run_cpu_data(src, result, values);
  else run_reference_data(src, result, values);
}

bool Operation::supports(PixelFormat format) const {
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

ImageShape Operation::output_shape_for(const ImageShape& input, const ParamValues& values) const {
  return output_shape ? output_shape(input, values) : input;
}

bool Operation::has_variant(const std::string& variant) const {
  return std::find(variants.begin(), variants.end(), variant) != variants.end();
}

Tolerance Operation::tolerance_for(PixelFormat format, const std::string& variant, const ParamValues& values) const {
  if (variant == default_variant && fast_tolerance && values.has("accuracy") && values.text("accuracy") == "fast")
    return fast_tolerance(format);
  const auto own = variant_tolerance.find(variant);
  Tolerance result = own != variant_tolerance.end() ? own->second(format) : tolerance(format);
  if (colours_divided_by_alpha && format.channels == 4 && !values.empty())
    result.colours_by_alpha = colours_divided_by_alpha(format, resolve(values));
  return result;
}

std::string ParamSpec::describe() const {
  std::string text = help;
  const std::string values = kind == ParamKind::Choice ? "" : accepted();
  if (!values.empty()) text += " " + values;
  if (!default_text.empty()) {
    text += " (default: " + default_text + ")";
  } else if (default_value && kind == ParamKind::Number) {
    text += " (default: " + shortest_text(std::get<double>(*default_value)) + ")";
  }
  return text;
}

const ParamValues& Operation::test_params_for(const std::string& variant) const {
  const auto own = variant_test_params.find(variant);
  return own != variant_test_params.end() ? own->second : test_params;
}

std::string Operation::applied_variant_for(PixelFormat format, const ParamValues& values,
                                           const std::string& variant) const {
  return applied_variant ? applied_variant(format, values, variant) : variant;
}

const ParamSpec* Operation::find_param(const std::string& param) const {
  for (const ParamSpec& spec : params)
    if (spec.name == param) return &spec;
  return nullptr;
}

namespace {

void check_number(const Operation& op, const ParamSpec& spec, double value) {
  if (!std::isfinite(value) || value < spec.min || value > spec.max) {
    std::ostringstream message;
    message << op.name << ": " << spec.name << " must be in [" << spec.min << ", " << spec.max << "], got " << value;
    throw_invalid(message.str());
  }
  if (spec.integer && value != std::floor(value))
    throw_invalid(op.name + ": " + spec.name + " must be a whole number, got " + format_number(value));
}

void check_value(const Operation& op, const ParamSpec& spec, const ParamValue& value) {
  if (!holds_kind(value, spec.kind))
    throw_invalid(op.name + ": " + spec.name + " takes " + kind_name(spec.kind));
  switch (spec.kind) {
    case ParamKind::Number:
    case ParamKind::Flag: check_number(op, spec, std::get<double>(value)); break;
    case ParamKind::Choice: {
      const std::string& choice = std::get<std::string>(value);
      if (std::find(spec.choices.begin(), spec.choices.end(), choice) == spec.choices.end())
        throw_invalid(op.name + ": unknown " + spec.name + " '" + choice + "'; use one of " + join(spec.choices, ", "));
      break;
    }
    case ParamKind::Text: break;  // the op parses it
    case ParamKind::Numbers: {
      const auto& items = std::get<std::vector<double>>(value);
      const int count = static_cast<int>(items.size());
      if (count < spec.min_items || count > spec.max_items)
        throw_invalid(op.name + ": " + spec.name + " takes " + spec.metavar + " (" + std::to_string(spec.min_items) +
                      (spec.max_items > spec.min_items ? " to " + std::to_string(spec.max_items) : "") +
                      " numbers), got " + std::to_string(count));
      for (double item : items) check_number(op, spec, item);
      break;
    }
  }
}


// `given` with each percentage ("50%" for a Numbers parameter that has `percent_sets`)
// moved to the parameter it sets, as a fraction.
ParamValues with_percentages_mapped(const Operation& op, const ParamValues& given) {
  ParamValues mapped = given;
  for (const ParamSpec& spec : op.params) {
    const auto it = given.find(spec.name);
    if (spec.percent_sets.empty() || it == given.end() || !std::holds_alternative<std::string>(it->second)) continue;
    const std::string& text = std::get<std::string>(it->second);
    if (text.empty() || text.back() != '%') continue;
    const ParamValue percent = spec.parse(text.substr(0, text.size() - 1));
    if (given.has(spec.percent_sets))
      throw_invalid(op.name + ": " + spec.name + " " + text + " sets " + spec.percent_sets + "; give one of them");
    const auto& items = std::get<std::vector<double>>(percent);
    if (items.size() != 1) throw_invalid(op.name + ": " + spec.name + " takes one percentage, got '" + text + "'");
    mapped.erase(spec.name);
    mapped[spec.percent_sets] = items[0] / 100.0;
  }
  return mapped;
}

}  // namespace

ParamValues Operation::resolve(const ParamValues& original) const {
  for (const auto& entry : original)
    if (!find_param(entry.first)) throw_invalid(name + ": unknown parameter '" + entry.first + "'");
  const ParamValues given = with_percentages_mapped(*this, original);
  ParamValues resolved;
  for (const ParamSpec& spec : params) {
    const auto it = given.find(spec.name);
    if (it == given.end()) {
      if (spec.default_value) resolved[spec.name] = *spec.default_value;
      continue;
    }
    check_value(*this, spec, it->second);
    resolved[spec.name] = it->second;
  }
  if (check) check(resolved);
  return resolved;
}

}  // namespace gpufilter
