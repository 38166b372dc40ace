#pragma once
/// @file
/// How filters read pixels outside the image ("ghost elements").
#include <array>
#include <string>
#include <vector>

namespace gpufilter {

/// What a pixel outside the image reads, shown for a row `abcdefgh` (left | image | right).
enum class BorderMode {
  Constant,    ///< `iiii|abcdefgh|iiii`  with i = Border::value
  Replicate,   ///< `aaaa|abcdefgh|hhhh`
  Reflect,     ///< `dcba|abcdefgh|hgfe`
  Reflect101,  ///< `edcb|abcdefgh|gfed`
  Wrap,        ///< `efgh|abcdefgh|abcd`
};

/// A border mode with its constant value: what a filter reads outside the image.
struct Border {
  BorderMode mode = BorderMode::Reflect101;  ///< reflect101 unless the caller says otherwise
  /// Per-channel value used by BorderMode::Constant, in the image's own units
  /// (0..255 for u8, 0..65535 for u16, any float for f32).
  std::array<double, 4> value{0.0, 0.0, 0.0, 0.0};
};

/// "constant", "replicate", ...; to_string() and all_border_modes() do not throw.
const char* to_string(BorderMode mode);
/// Parses "constant", "replicate", "reflect", "reflect101", "wrap"; throws
/// Error(InvalidArgument) naming the choices otherwise.
BorderMode parse_border_mode(const std::string& text);
/// Every border mode, in the order above.
const std::vector<BorderMode>& all_border_modes();

}  // namespace gpufilter
