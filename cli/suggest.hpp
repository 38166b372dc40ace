#pragma once
// "Did you mean ...?" for a mistyped op or option: the known names closest to what was
// typed, by edit distance, as git and cargo suggest them.
#include <string>
#include <vector>

namespace gpufilter::cli {

// The names of `known` within a few edits of `given` (a swap of two neighbours counts as
// one edit; the allowance grows with the name's length), closest first, or names that
// start with `given` when it is at least three characters; empty when none is close.
std::vector<std::string> closest_names(const std::string& given, const std::vector<std::string>& known);

// "; did you mean 'blur'?" or "; did you mean 'box' or 'blur'?" with each name written as
// `prefix` + name ("--" for options); empty when no name is close.
std::string did_you_mean(const std::string& given, const std::vector<std::string>& known,
                         const std::string& prefix = "");

}  // namespace gpufilter::cli
