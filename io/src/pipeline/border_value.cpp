#include "pipeline/border_value.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::io {
namespace {

// Shortest text that reads back as the same double: 0.1 -> "0.1", 10.0 -> "10".
std::string format_number(double value) {
  char buffer[64];
  const auto [end, status] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return status == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

struct ChannelRange {
  const char* name;
  double max;
};

ChannelRange range_of(ChannelType type) {
  return type == ChannelType::U8 ? ChannelRange{"8-bit", 255.0} : ChannelRange{"16-bit", 65535.0};
}

void check_value(double value, PixelFormat format, const std::filesystem::path& input) {
  if (format.type == ChannelType::F32) return;  // finite already, and a float holds it
  const ChannelRange range = range_of(format.type);
  const std::string channels = "'" + input.string() + "' has " + range.name + " channels, which hold whole numbers 0.." +
                               format_number(range.max);
  if (value != std::floor(value)) {
    throw IoError(Fault::Request, "--border-value " + format_number(value) + " is not a whole number; " + channels);
  }
  if (value < 0.0 || value > range.max) {
    throw IoError(Fault::Request, "--border-value " + format_number(value) + " is out of range; " + channels);
  }
}

}  // namespace

Border border_for_input(const RunRequest& request, PixelFormat format, ChannelLayout layout,
                        const std::filesystem::path& input) {
  Border border = request.border;
  const std::vector<double>& given = request.border_values;
  for (double value : given) check_value(value, format, input);
  if (layout == ChannelLayout::GrayAlpha && !given.empty()) {
    if (given.size() > 2) {
      throw IoError(Fault::Request, "'" + input.string() + "' is gray+alpha, so --border-value takes the gray, or "
                                      "the gray and the alpha, not " + std::to_string(given.size()) + " numbers");
    }
    // Decoded as BGRA: the gray goes to B, G and R.
    const double alpha = given.size() == 2 ? given[1] : given[0];
    border.value = {given[0], given[0], given[0], alpha};
  }
  return border;
}

}  // namespace gpufilter::io
