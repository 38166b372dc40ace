// The histogram reference: the bin formula of statistics.hpp, evaluated in double for
// every sample, sharing nothing with the kernels.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"

namespace gpufilter::reference {
namespace {

template <class T>
void count(const ImageView& src, double* counts, const HistogramParams& params) {
  const int channels = src.format.channels;
  const double scale = static_cast<double>(params.bins) / (params.hi - params.lo);
  std::vector<std::uint64_t> tally(static_cast<std::size_t>(params.bins) * channels, 0);
  for (int y = 0; y < src.height; ++y) {
    const T* row = src.row<const T>(y);
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < channels; ++c) {
        const double v = static_cast<double>(row[static_cast<std::size_t>(x) * channels + c]);
        if (!(v >= params.lo && v <= params.hi)) continue;
        const double offset = v - params.lo;
        const double scaled = offset * scale;
        long long bin = static_cast<long long>(std::floor(scaled));
        if (bin > params.bins - 1) bin = params.bins - 1;
        ++tally[static_cast<std::size_t>(bin) * channels + c];
      }
  }
  for (std::size_t i = 0; i < tally.size(); ++i) counts[i] = static_cast<double>(tally[i]);
}

}  // namespace

void histogram(const ImageView& src, double* counts, const HistogramParams& params) {
  validate_view(src, "histogram");
  check_histogram_params(params);
  switch (src.format.type) {
    case ChannelType::U8: count<std::uint8_t>(src, counts, params); return;
    case ChannelType::U16: count<std::uint16_t>(src, counts, params); return;
    case ChannelType::F32: count<float>(src, counts, params); return;
  }
  throw Error(ErrorCode::UnsupportedFormat, "histogram: unsupported format " + src.format.name());
}

}  // namespace gpufilter::reference
