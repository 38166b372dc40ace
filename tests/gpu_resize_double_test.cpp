// The integer kernel for linear enlargement by exactly 2 (resize_double_linear.cu)
// against the float window kernel (resize_linear_up.cu) and the CPU reference, bit for
// bit: random images (ties to even occur in 1/16 of the samples), odd sizes, sub-views
// whose rows start at odd byte offsets (the byte-by-byte paths), destinations poisoned
// inside and random in a guard band around them.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "geometry/geometry_launch.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_resize_double_test {
namespace {

struct Size {
  int width, height;
};
// One pixel, a partial group only, whole groups only (8 and 1920 pixels: groups are
// 8 gray, 4 RGB or 2 RGBA pixels), odd sizes with a partial last group, a tall narrow
// strip.
const Size kSizes[] = {{1, 1}, {2, 1}, {3, 40}, {8, 8}, {17, 13}, {33, 7}, {1920, 17}, {1921, 1079}, {5, 300}};
// Sub-view origins in pixels and the guard band around them: rows at byte offsets that
// allow every mix of word and byte paths (the source's words need 8-byte rows, or 4 for
// u8x3; the destination's 16, or 8 for u8x3): u8x1 0, 1, 2, 4; u8x3 0, 3, 6, 12; u8x4
// 0, 4, 8, 16. The largest image takes only equal source and destination offsets.
const int kOffsets[] = {0, 1, 2, 4};
constexpr int kGuard = 5;

const ExecContext kChecked{nullptr, true};

std::string size_name(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// A device image with a guard band: `view` starts at (offset, 1) unless offset is 0.
struct Framed {
  DeviceImage full;
  ImageView view;
  Framed(int width, int height, PixelFormat format, int offset)
      : full(width + (offset ? offset + kGuard : 0), height + (offset ? 1 + kGuard : 0), format) {
    view = full.view().subview(offset, offset ? 1 : 0, width, height);
  }
};

// What `launch` leaves in the whole destination buffer (guard band included), started
// from `initial`.
HostImage run(const HostImage& initial, const Framed& dst, const ImageView& src,
              const std::function<bool(const ImageView&, const ImageView&)>& launch, bool& taken) {
  copy_image_async(initial.view(), dst.full.view(), nullptr);
  taken = launch(src, dst.view);
  HostImage out(dst.full.width(), dst.full.height(), initial.view().format);
  copy_image_async(dst.full.view(), out.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return out;
}

class ResizeDoubleGpu : public ::testing::TestWithParam<PixelFormat> {};

TEST_P(ResizeDoubleGpu, EqualsWindowKernelAndReference) {
  const PixelFormat format = GetParam();
  for (const Size size : kSizes)
    for (const int src_offset : kOffsets)
      for (const int dst_offset : kOffsets) {
        if (size.width * size.height > 1000000 && dst_offset != src_offset) continue;
        const std::string where = format.name() + " " + size_name(size) + " src at " + std::to_string(src_offset) +
                                  " dst at " + std::to_string(dst_offset);
        Framed src(size.width, size.height, format, src_offset);
        HostImage host_src(src.full.width(), src.full.height(), format);
        testing::fill_random(host_src.view(), static_cast<std::uint64_t>(size.width) * 131 + size.height + src_offset);
        copy_image_async(host_src.view(), src.full.view(), nullptr);
        const ImageView host_src_view =
            host_src.view().subview(src_offset, src_offset ? 1 : 0, size.width, size.height);

        Framed dst(2 * size.width, 2 * size.height, format, dst_offset);
        HostImage expected(dst.full.width(), dst.full.height(), format);
        testing::fill_random(expected.view(), 77u);  // the guard band's values
        HostImage initial(dst.full.width(), dst.full.height(), format);
        copy_image_async(expected.view(), initial.view(), nullptr);
        GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());  // before the reference overwrites `expected`
        const ImageView expected_part =
            expected.view().subview(dst_offset, dst_offset ? 1 : 0, 2 * size.width, 2 * size.height);
        reference::resize(host_src_view, expected_part, ResizeFilter::Linear);
        testing::poison_against(
            initial.view().subview(dst_offset, dst_offset ? 1 : 0, 2 * size.width, 2 * size.height), expected_part);

        bool taken_double = false, taken_window = false;
        const HostImage integer = run(
            initial, dst, src.view,
            [](const ImageView& s, const ImageView& d) { return kernels::launch_resize_double_linear(s, d, kChecked); },
            taken_double);
        const HostImage window = run(
            initial, dst, src.view,
            [](const ImageView& s, const ImageView& d) { return kernels::launch_resize_linear_up(s, d, kChecked); },
            taken_window);
        ASSERT_TRUE(taken_double) << where;
        ASSERT_TRUE(taken_window) << where;
        const testing::Difference against_window = testing::compare(integer.view(), window.view());
        EXPECT_TRUE(against_window.within(0.0)) << where << " against the window kernel: " << against_window.describe();
        const testing::Difference against_reference = testing::compare(integer.view(), expected.view());
        EXPECT_TRUE(against_reference.within(0.0))
            << where << " against the reference: " << against_reference.describe();
      }
}

// Other formats and sizes are declined (nothing launched): the fast variant then takes
// the window kernel.
TEST(ResizeDoubleGpuChecks, DeclinesOtherFormatsAndSizes) {
  DeviceImage u16_src(8, 8, PixelFormat{ChannelType::U16, 4}), u16_dst(16, 16, PixelFormat{ChannelType::U16, 4});
  EXPECT_FALSE(kernels::launch_resize_double_linear(u16_src.view(), u16_dst.view(), kChecked));
  const PixelFormat u8x4{ChannelType::U8, 4};
  DeviceImage src(8, 8, u8x4), wider(16, 15, u8x4), larger(17, 16, u8x4);
  EXPECT_FALSE(kernels::launch_resize_double_linear(src.view(), wider.view(), kChecked));
  EXPECT_FALSE(kernels::launch_resize_double_linear(src.view(), larger.view(), kChecked));
}

INSTANTIATE_TEST_SUITE_P(Formats, ResizeDoubleGpu,
                         ::testing::Values(PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3},
                                           PixelFormat{ChannelType::U8, 4}),
                         [](const ::testing::TestParamInfo<PixelFormat>& param_info) {
                           return param_info.param.name();
                         });

}  // namespace
}  // namespace gpufilter::gpu_resize_double_test
