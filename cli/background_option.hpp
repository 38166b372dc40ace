#pragma once
// --background: the colour under an image whose alpha OUT cannot hold (flatten_alpha.hpp).
#include <string>

#include "gpufilter/io/flatten_alpha.hpp"

namespace gpufilter::cli {

// Reads "white", "black", "gray", "#RRGGBB" or "R,G,B" (0..255); throws CliError(Usage).
io::Background parse_background(const std::string& text);

}  // namespace gpufilter::cli
