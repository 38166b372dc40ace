#pragma once
// The GPU-against-reference check the generated cases share (gpu_conformance_test.cpp for
// the library's variants, gpu_lab_test.cpp for the lab's): the input a sub-view at odd
// offsets where asked, the output poisoned against the expected values inside a parent of
// random guard values, the result within the tolerance, and nothing outside the
// destination view written.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_sizes.hpp"

namespace gpufilter::testing {

// Where a sub-view sits in its parent: odd offsets, so rows start unaligned.
constexpr int kSubX = 3, kSubY = 2, kMarginX = 5, kMarginY = 4;

// A non-zero, per-channel constant, so a kernel that ignores Border::value fails.
inline Border conformance_border(BorderMode mode, PixelFormat format) {
  Border border;
  border.mode = mode;
  for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 1) / 5.0;
  return border;
}

// The case's input in its parent: the sub-view at (kSubX, kSubY), or the whole parent.
inline ImageView case_input(const ImageView& parent, CaseSize size, bool subview) {
  return subview ? parent.subview(kSubX, kSubY, size.width, size.height) : parent;
}

using ImageRun = std::function<void(const ImageView& src, const ImageView& dst, const ExecContext&)>;
using DataRun = std::function<void(const ImageView& src, double* result, const ExecContext&)>;

// The destination of a check: a parent of random guard values around a sub-view (at the
// input's offset where `subview`) poisoned against `expected`, and what must hold after a
// run wrote into it: the sub-view within `tolerance`, the guard values untouched.
class GuardedDestination {
 public:
  GuardedDestination(bool subview, const ImageView& expected)
      : ox_(subview ? kSubX : 0), oy_(subview ? kSubY : 0), expected_(expected),
        dst_(expected.width + (subview ? kMarginX : 0), expected.height + (subview ? kMarginY : 0), expected.format),
        guard_(dst_.view().width, dst_.view().height, expected.format) {
    fill_random(dst_.view(), 99u);
    poison_against(view(), expected);
    std::memcpy(guard_.view().data, dst_.view().data, guard_.view().pitch * static_cast<std::size_t>(guard_.view().height));
  }
  // The whole parent (host memory), and the sub-view a run writes.
  const ImageView& parent() const { return dst_.view(); }
  ImageView view() const { return dst_.view().subview(ox_, oy_, expected_.width, expected_.height); }

  void check(const Tolerance& tolerance) const {
    const Difference diff = compare(view(), expected_, tolerance);
    EXPECT_TRUE(diff.within(tolerance)) << "tolerance " << tolerance.max_abs << " in at most "
                                        << tolerance.max_differing_share * 100 << "% of samples; " << diff.describe();
    const ImageView& parent_view = dst_.view();
    const std::size_t bytes = expected_.format.pixel_bytes();
    for (int y = 0; y < parent_view.height; ++y)
      for (int x = 0; x < parent_view.width; ++x) {
        if (x >= ox_ && x < ox_ + expected_.width && y >= oy_ && y < oy_ + expected_.height) continue;
        ASSERT_EQ(0, std::memcmp(parent_view.row<unsigned char>(y) + x * bytes,
                                 guard_.view().row<unsigned char>(y) + x * bytes, bytes))
            << "pixel (" << x << ", " << y << ") outside the destination view was written";
      }
  }

 private:
  int ox_, oy_;
  ImageView expected_;
  HostImage dst_, guard_;
};

// Runs `run` on the GPU over a copy of `parent_src` (the case's input in it) into a
// destination of `expected`'s shape, a sub-view at the same offset where `subview`.
inline void check_image_run(const ImageView& parent_src, CaseSize size, bool subview, const ImageView& expected,
                            const Tolerance& tolerance, const ImageRun& run) {
  GuardedDestination host_dst(subview, expected);
  const ImageView& parent = host_dst.parent();
  const int ox = subview ? kSubX : 0, oy = subview ? kSubY : 0;
  Stream stream;
  DeviceImage src(parent_src.width, parent_src.height, parent_src.format), dst(parent.width, parent.height, parent.format);
  copy_image_async(parent_src, src.view(), stream.get());
  copy_image_async(parent, dst.view(), stream.get());
  run(case_input(src.view(), size, subview), dst.view().subview(ox, oy, expected.width, expected.height),
      ExecContext{stream.get(), true});
  copy_image_async(dst.view(), parent, stream.get());
  stream.synchronize();
  host_dst.check(tolerance);
}

// Runs `run` on the GPU over a copy of `parent_src`, into a device table poisoned with
// NaN, and compares it column by column with `expected` within op's data tolerance.
inline void check_data_run(const Operation& op, const ImageView& parent_src, CaseSize size, bool subview,
                           const DataLayout& layout, const std::vector<double>& expected, const DataRun& run) {
  Stream stream;
  DeviceImage src(parent_src.width, parent_src.height, parent_src.format);
  copy_image_async(parent_src, src.view(), stream.get());
  DeviceData result(layout.size());
  std::vector<double> actual(layout.size(), std::numeric_limits<double>::quiet_NaN());
  result.upload_async(actual.data(), stream.get());
  run(case_input(src.view(), size, subview), result.get(), ExecContext{stream.get(), true});
  result.download_async(actual.data(), stream.get());
  stream.synchronize();

  const DataDifference diff = compare_data(op, parent_src.format, layout, actual.data(), expected.data());
  EXPECT_TRUE(diff.ok) << diff.first_failure;
}

}  // namespace gpufilter::testing
