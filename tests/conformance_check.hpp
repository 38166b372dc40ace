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

// Runs `run` on the GPU over a copy of `parent_src` (the case's input in it) into a
// destination of `expected`'s shape, a sub-view at the same offset where `subview`.
inline void check_image_run(const ImageView& parent_src, CaseSize size, bool subview, const ImageView& expected,
                            const Tolerance& tolerance, const ImageRun& run) {
  const int ox = subview ? kSubX : 0, oy = subview ? kSubY : 0;
  const int parent_w = expected.width + (subview ? kMarginX : 0);
  const int parent_h = expected.height + (subview ? kMarginY : 0);
  const PixelFormat out_format = expected.format;

  // The destination parent: random guard values around a poisoned sub-view.
  HostImage host_dst(parent_w, parent_h, out_format);
  fill_random(host_dst.view(), 99u);
  poison_against(host_dst.view().subview(ox, oy, expected.width, expected.height), expected);
  HostImage guard(parent_w, parent_h, out_format);
  std::memcpy(guard.view().data, host_dst.view().data, guard.view().pitch * static_cast<std::size_t>(parent_h));

  Stream stream;
  DeviceImage src(parent_src.width, parent_src.height, parent_src.format), dst(parent_w, parent_h, out_format);
  copy_image_async(parent_src, src.view(), stream.get());
  copy_image_async(host_dst.view(), dst.view(), stream.get());
  run(case_input(src.view(), size, subview), dst.view().subview(ox, oy, expected.width, expected.height),
      ExecContext{stream.get(), true});
  copy_image_async(dst.view(), host_dst.view(), stream.get());
  stream.synchronize();

  const Difference diff = compare(host_dst.view().subview(ox, oy, expected.width, expected.height), expected);
  EXPECT_TRUE(diff.within(tolerance)) << "tolerance " << tolerance.max_abs << " in at most "
                                      << tolerance.max_differing_share * 100 << "% of samples; " << diff.describe();
  for (int y = 0; y < parent_h; ++y)
    for (int x = 0; x < parent_w; ++x) {
      if (x >= ox && x < ox + expected.width && y >= oy && y < oy + expected.height) continue;
      const std::size_t bytes = out_format.pixel_bytes();
      ASSERT_EQ(0, std::memcmp(host_dst.view().row<unsigned char>(y) + x * bytes,
                               guard.view().row<unsigned char>(y) + x * bytes, bytes))
          << "pixel (" << x << ", " << y << ") outside the destination view was written";
    }
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
