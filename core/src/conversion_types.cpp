#include "gpufilter/conversion_types.hpp"

#include <cctype>
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter {
namespace {

[[noreturn]] void invalid_order(const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); }

}  // namespace

ChannelOrder ChannelOrder::parse(const std::string& letters, int channels) {
  if (channels != 3 && channels != 4) invalid_order("swap_channels: the image needs 3 or 4 channels");
  ChannelOrder order;
  order.channels = channels;
  if (letters.empty()) {
    order.from[0] = 2, order.from[2] = 0;  // red and blue swapped
    return order;
  }
  const std::string names = channels == 4 ? "rgba" : "rgb";
  const int count = static_cast<int>(letters.size());
  if (count != channels && !(channels == 4 && count == 3))
    invalid_order("swap_channels: the order '" + letters + "' must name the " + std::to_string(channels) +
            " channels of the image (" + names + (channels == 4 ? ", or rgb with alpha kept last" : "") + ")");
  unsigned seen = 0;
  for (int i = 0; i < count; ++i) {
    const auto at = names.find(static_cast<char>(std::tolower(static_cast<unsigned char>(letters[i]))));
    if (at == std::string::npos || (count == 3 && at == 3))
      invalid_order("swap_channels: '" + letters + "' holds '" + std::string(1, letters[i]) + "'; use letters from " +
              (count == 3 ? std::string("rgb") : names));
    if (seen & (1u << at)) invalid_order("swap_channels: '" + letters + "' names '" + letters[i] + "' twice");
    seen |= 1u << at;
    order.from[i] = static_cast<int>(at);
  }
  return order;
}

}  // namespace gpufilter
