#pragma once
// Texts generated from the registry: the general help, the op table, the version.
#include <cstddef>
#include <string>
#include <vector>

#include "gpufilter/pixel_format.hpp"

namespace gpufilter::cli {

// `common_options` is the rendered help of the options every op shares.
std::string general_help(const std::string& common_options);
std::string operation_table();
std::string version_text();
// "u8x{1,3,4} f32x1": a short spelling of a list of pixel formats.
std::string describe_formats(const std::vector<PixelFormat>& formats);
// Shortest text that reads back as the same double: 0.1 -> "0.1", 10.0 -> "10".
std::string format_number(double value);
// The terminal width the help texts and `gpufilter list` are wrapped to.
constexpr std::size_t kHelpWidth = 100;
// Word-wraps `text` to lines of at most `width` characters, later lines indented by `indent`.
std::string wrapped(const std::string& text, std::size_t width, std::size_t indent);

}  // namespace gpufilter::cli
