// The median filter on the CPU, from its definition: for every output sample, the
// window's values of that channel (read through the border, the constant outside the
// image under Constant), of which std::nth_element picks the middle one.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/border_index.hpp"
#include "common/overlap_copy.hpp"
#include "common/parallel_rows.hpp"
#include "common/pixel_access.hpp"

namespace gpufilter::reference {

void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border) {
  validate_pair(src, dst, "median");
  if (params.radius < 1 || params.radius > MedianParams::kMaxRadius)
    throw Error(ErrorCode::InvalidArgument, "median: radius must be in [1, " +
                                                std::to_string(MedianParams::kMaxRadius) + "], got " +
                                                std::to_string(params.radius));
  if (may_overlap(src, dst)) {
    // Rows are written while later rows are still being read: read from a copy.
    const PackedCopy copy(src);
    reference::median_filter(copy.view(), dst, params, border);
    return;
  }
  const int r = params.radius;
  const int side = 2 * r + 1;
  std::array<double, 4> constant{};
  for (std::size_t c = 0; c < constant.size(); ++c) constant[c] = stored_value(border.value[c], src.format.type);

  parallel_rows(src.height, [&](int begin, int end) {
    std::vector<double> window(static_cast<std::size_t>(side * side));
    std::vector<int> rows(static_cast<std::size_t>(side)), columns(static_cast<std::size_t>(side));
    const auto middle = window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2);
    for (int y = begin; y < end; ++y) {
      for (int k = 0; k < side; ++k)
        rows[static_cast<std::size_t>(k)] = border_index(y + k - r, src.height, border.mode);
      for (int x = 0; x < src.width; ++x) {
        for (int k = 0; k < side; ++k)
          columns[static_cast<std::size_t>(k)] = border_index(x + k - r, src.width, border.mode);
        for (int c = 0; c < src.format.channels; ++c) {
          std::size_t n = 0;
          for (int sy : rows)
            for (int sx : columns)
              window[n++] = sx < 0 || sy < 0 ? constant[static_cast<std::size_t>(c)] : read_channel(src, sx, sy, c);
          std::nth_element(window.begin(), middle, window.end());
          write_channel(dst, x, y, c, *middle);
        }
      }
    }
  });
}

}  // namespace gpufilter::reference
