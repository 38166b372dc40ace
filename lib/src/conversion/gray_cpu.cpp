// Each task converts a band of rows; a row is one plain loop over its pixels, built twice
// (AVX2 with FMA, and the baseline) and picked at run time.
#include "conversion/gray_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <opencv2/core.hpp>

#include "gpufilter/reference.hpp"
#include "common/overlap_copy.hpp"
#include "common/vector_build.hpp"

namespace gpufilter::cpu {
namespace {

// One row of C-channel pixels to gray, summed in A. Integers round half to even and
// saturate, as the reference's write_channel does.
template <int C, class T, class A>
GPUFILTER_VECTOR_CLONES void gray_row(const T* __restrict in, int width, A wr, A wg, A wb, A max, T* __restrict out) {
  for (int x = 0; x < width; ++x) {
    const T* p = in + static_cast<std::ptrdiff_t>(x) * C;
    const A y = wr * static_cast<A>(p[0]) + wg * static_cast<A>(p[1]) + wb * static_cast<A>(p[2]);
    if constexpr (std::is_floating_point_v<T>) {
      (void)max;
      out[x] = static_cast<T>(y);
    } else {
      out[x] = static_cast<T>(std::nearbyint(std::min(std::max(y, A(0)), max)));
    }
  }
}

template <class T, class A>
void run(const ImageView& src, const ImageView& dst, GrayWeights weights) {
  const bool bt601 = weights == GrayWeights::Bt601;
  const A wr = static_cast<A>(bt601 ? 0.299 : 0.2126), wg = static_cast<A>(bt601 ? 0.587 : 0.7152),
          wb = static_cast<A>(bt601 ? 0.114 : 0.0722);
  const A max = static_cast<A>(src.format.max_value());
  const int channels = src.format.channels, width = src.width, height = src.height;
  // A few bands per thread.
  const int threads = std::max(1, cv::getNumThreads());
  const int bands = std::max(1, std::min(height, 4 * threads));
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    const int y0 = static_cast<int>(static_cast<long long>(height) * range.start / bands);
    const int y1 = static_cast<int>(static_cast<long long>(height) * range.end / bands);
    for (int y = y0; y < y1; ++y) {
      if (channels == 3)
        gray_row<3>(src.row<const T>(y), width, wr, wg, wb, max, dst.row<T>(y));
      else
        gray_row<4>(src.row<const T>(y), width, wr, wg, wb, max, dst.row<T>(y));
    }
  });
}

}  // namespace

void gray(const ImageView& src, const ImageView& dst, GrayWeights weights) {
  validate_view(src, "gray");
  validate_view(dst, "gray");
  const PixelFormat expected{src.format.type, 1};
  if ((src.format.channels != 3 && src.format.channels != 4) || dst.width != src.width ||
      dst.height != src.height || dst.format != expected) {
    reference::gray(src, dst, weights);  // throws its error
    return;
  }
  if (reference::may_overlap(src, dst)) {
    const reference::PackedCopy copy(src);  // rows of dst are written over rows still to be read
    cpu::gray(copy.view(), dst, weights);
    return;
  }
  // Float images are summed in double: their contract is 1e-6 absolute, beyond float's
  // rounding for values much above 1.
  switch (src.format.type) {
    case ChannelType::U8: run<std::uint8_t, float>(src, dst, weights); break;
    case ChannelType::U16: run<std::uint16_t, float>(src, dst, weights); break;
    case ChannelType::F32: run<float, double>(src, dst, weights); break;
  }
}

}  // namespace gpufilter::cpu
