#include "suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <utility>

namespace gpufilter::cli {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// two neighbouring characters ("bulr" -> "blur" is one edit, as a typist makes it).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

}  // namespace

std::vector<std::string> closest_names(const std::string& given, const std::vector<std::string>& known) {
  const std::string typed = lower(given);
  // One edit for short names, a third of the length for long ones: "sigmma" finds
  // "sigma", but "gray" does not suggest "flip".
  const std::size_t allowed = std::max<std::size_t>(1, typed.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> close;
  for (const std::string& name : known) {
    const std::string candidate = lower(name);
    std::size_t distance = edit_distance(typed, candidate);
    if (distance > allowed && typed.size() >= 3 && candidate.starts_with(typed)) distance = allowed;
    if (distance <= allowed && name != given) close.emplace_back(distance, name);
  }
  std::stable_sort(close.begin(), close.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (const auto& [distance, name] : close) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::string did_you_mean(const std::string& given, const std::vector<std::string>& known, const std::string& prefix) {
  std::vector<std::string> names = closest_names(given, known);
  if (names.empty()) return "";
  // Three at most: a longer list is no suggestion.
  if (names.size() > 3) names.resize(3);
  std::string text = "; did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += "'" + prefix + names[i] + "'";
  }
  return text + "?";
}

}  // namespace gpufilter::cli
