#pragma once
// How filters read pixels outside the image ("ghost elements").
#include <array>
#include <string>
#include <vector>

namespace gpufilter {

enum class BorderMode {
  Constant,    // iiii|abcdefgh|iiii  with i = Border::value
  Replicate,   // aaaa|abcdefgh|hhhh
  Reflect,     // dcba|abcdefgh|hgfe
  Reflect101,  // edcb|abcdefgh|gfed
  Wrap,        // efgh|abcdefgh|abcd
};

struct Border {
  BorderMode mode = BorderMode::Reflect101;
  // Per-channel value used by BorderMode::Constant, in the image's own units
  // (0..255 for u8, 0..65535 for u16, any float for f32).
  std::array<double, 4> value{0.0, 0.0, 0.0, 0.0};
};

// to_string() and all_border_modes() do not throw.
const char* to_string(BorderMode mode);
// Parses "constant", "replicate", "reflect", "reflect101", "wrap"; throws
// Error(InvalidArgument) naming the choices otherwise.
BorderMode parse_border_mode(const std::string& text);
const std::vector<BorderMode>& all_border_modes();

}  // namespace gpufilter
