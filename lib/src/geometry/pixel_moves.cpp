#include "geometry/pixel_moves.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace gpufilter::cpu {
namespace {

template <std::size_t N>
struct Pixel {
  unsigned char bytes[N];
};

// Output rows go in bands of kTile to the cores; within a band, kTile x kTile tiles, so
// the kTile source rows (or columns) a tile reads stay in the cache. For output row y the
// source column is fixed (y, or W-1-y counter-clockwise) and the source row runs with x,
// up or (clockwise) down.
template <std::size_t N>
void turn(const cv::Mat& in, cv::Mat& out, QuarterTurn how) {
  using P = Pixel<N>;
  constexpr int kTile = 32;
  const int height = in.rows, width = in.cols;
  const std::size_t step = in.step[0];
  const int bands = (out.rows + kTile - 1) / kTile;
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    for (int band = range.start; band < range.end; ++band) {
      const int y0 = band * kTile, y1 = std::min(out.rows, y0 + kTile);
      for (int x0 = 0; x0 < out.cols; x0 += kTile) {
        const int x1 = std::min(out.cols, x0 + kTile);
        for (int y = y0; y < y1; ++y) {
          const int column = how == QuarterTurn::CounterClockwise ? width - 1 - y : y;
          const unsigned char* source = in.data + static_cast<std::size_t>(column) * N;
          P* row = out.ptr<P>(y);
          if (how == QuarterTurn::Clockwise) {
            for (int x = x0; x < x1; ++x)
              std::memcpy(&row[x], source + static_cast<std::size_t>(height - 1 - x) * step, N);
          } else {
            for (int x = x0; x < x1; ++x) std::memcpy(&row[x], source + static_cast<std::size_t>(x) * step, N);
          }
        }
      }
    }
  });
}

}  // namespace

void turn_pixels(const cv::Mat& in, cv::Mat& out, QuarterTurn how) {
  switch (in.elemSize()) {
    case 1: turn<1>(in, out, how); break;
    case 2: turn<2>(in, out, how); break;
    case 3: turn<3>(in, out, how); break;
    case 4: turn<4>(in, out, how); break;
    case 6: turn<6>(in, out, how); break;
    case 8: turn<8>(in, out, how); break;
    case 12: turn<12>(in, out, how); break;
    case 16: turn<16>(in, out, how); break;
    default:
      if (how == QuarterTurn::Transpose) cv::transpose(in, out);
      else cv::rotate(in, out, how == QuarterTurn::Clockwise ? cv::ROTATE_90_CLOCKWISE : cv::ROTATE_90_COUNTERCLOCKWISE);
  }
}

void flip_pixels(const cv::Mat& in, cv::Mat& out, int code) {
  // Output rows [r0, r1) come from the same rows, or (flipping top-bottom) the mirrored ones.
  const int rows = in.rows;
  const int bands = std::max(1, std::min(rows / 16, 4 * std::max(1, cv::getNumThreads())));
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    for (int band = range.start; band < range.end; ++band) {
      const int r0 = static_cast<int>(static_cast<long long>(rows) * band / bands);
      const int r1 = static_cast<int>(static_cast<long long>(rows) * (band + 1) / bands);
      cv::Mat out_rows = out.rowRange(r0, r1);
      if (code == 1) cv::flip(in.rowRange(r0, r1), out_rows, 1);
      else cv::flip(in.rowRange(rows - r1, rows - r0), out_rows, code);
    }
  });
}

}  // namespace gpufilter::cpu
