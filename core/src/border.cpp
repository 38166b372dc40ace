#include "gpufilter/border.hpp"

#include "gpufilter/error.hpp"

namespace gpufilter {

const char* to_string(BorderMode mode) {
  switch (mode) {
    case BorderMode::Constant: return "constant";
    case BorderMode::Replicate: return "replicate";
    case BorderMode::Reflect: return "reflect";
    case BorderMode::Reflect101: return "reflect101";
    case BorderMode::Wrap: return "wrap";
  }
  return "?";
}

const std::vector<BorderMode>& all_border_modes() {
  static const std::vector<BorderMode> modes = {BorderMode::Constant, BorderMode::Replicate,
                                                BorderMode::Reflect, BorderMode::Reflect101,
                                                BorderMode::Wrap};
  return modes;
}

BorderMode parse_border_mode(const std::string& text) {
  for (BorderMode mode : all_border_modes())
    if (text == to_string(mode)) return mode;
  throw Error(ErrorCode::InvalidArgument,
              "unknown border mode '" + text +
                  "' (expected constant, replicate, reflect, reflect101 or wrap)");
}

}  // namespace gpufilter
