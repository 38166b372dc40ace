// The narrow-pixel fast paths (1- and 3-byte pixels with 16-byte words) at their
// edges: the fast_wide transpose, the wide flip and the fast 8-bit area halving on
// every small size, on sizes
// around their tiles and warps, and on views whose rows start at every byte offset
// 0..16 of source and destination (the 16-byte paths only run where both are
// aligned; the others fall back). Exact against the CPU reference; a guard band
// around the destination view must stay untouched.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_narrow_test {
namespace {

struct Size {
  int width, height;
};
using Run = std::function<void(const ImageView& src, const ImageView& dst)>;
constexpr int kMargin = 20;  // columns right of the view, rows above and below: the guard band
const ExecContext kChecked{nullptr, true};

// src (in_size at column src_x) -> dst (out_size at column dst_x): the GPU's whole
// destination buffer against the reference's.
testing::Difference run_at(PixelFormat format, Size in_size, Size out_size, int src_x, int dst_x, const Run& gpu,
                           const Run& cpu) {
  HostImage host_src(in_size.width + kMargin, in_size.height + 2, format);
  testing::fill_random(host_src.view(), static_cast<std::uint64_t>(in_size.width) * 131 + in_size.height + src_x);
  const ImageView src_part = host_src.view().subview(src_x, 1, in_size.width, in_size.height);
  HostImage expected(out_size.width + kMargin, out_size.height + 2, format);
  HostImage initial(out_size.width + kMargin, out_size.height + 2, format);
  HostImage actual(out_size.width + kMargin, out_size.height + 2, format);
  testing::fill_random(expected.view(), 5u);
  copy_image_async(expected.view(), initial.view(), nullptr);
  const ImageView expected_part = expected.view().subview(dst_x, 1, out_size.width, out_size.height);
  cpu(src_part, expected_part);
  testing::poison_against(initial.view().subview(dst_x, 1, out_size.width, out_size.height), expected_part);

  DeviceImage src(in_size.width + kMargin, in_size.height + 2, format);
  DeviceImage dst(out_size.width + kMargin, out_size.height + 2, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  copy_image_async(initial.view(), dst.view(), nullptr);
  gpu(src.view().subview(src_x, 1, in_size.width, in_size.height),
      dst.view().subview(dst_x, 1, out_size.width, out_size.height));
  copy_image_async(dst.view(), actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return testing::compare(actual.view(), expected.view());
}

std::string name_of(PixelFormat format, Size size, int src_x, int dst_x) {
  return format.name() + " " + std::to_string(size.width) + "x" + std::to_string(size.height) +
         " src x=" + std::to_string(src_x) + " dst x=" + std::to_string(dst_x);
}

// ---- transpose and quarter turns -------------------------------------------------------

void expect_quarter_turns(PixelFormat format, Size size, int src_x, int dst_x) {
  const Size turned{size.height, size.width};
  for (TransposeVariant variant : {TransposeVariant::Fast, TransposeVariant::FastWide}) {
    const TransposeOptions options{variant, BlockShape::Square16x16};
    const testing::Difference t = run_at(
        format, size, turned, src_x, dst_x, [&](auto s, auto d) { transpose(s, d, options, kChecked); },
        [](auto s, auto d) { reference::transpose(s, d); });
    EXPECT_TRUE(t.within(0.0)) << "transpose " << to_string(variant) << " " << name_of(format, size, src_x, dst_x)
                               << ": " << t.describe();
    for (int angle : {90, 270}) {
      const testing::Difference r = run_at(
          format, size, turned, src_x, dst_x,
          [&](auto s, auto d) { rotate_quarter_turns(s, d, angle, options, kChecked); },
          [&](auto s, auto d) { reference::rotate_quarter_turns(s, d, angle); });
      EXPECT_TRUE(r.within(0.0)) << "rotate " << angle << " " << to_string(variant) << " "
                                 << name_of(format, size, src_x, dst_x) << ": " << r.describe();
    }
  }
}

TEST(GpuNarrow, TransposeSmallAndTileEdgeSizes) {
  const PixelFormat gray{ChannelType::U8, 1};
  for (int w = 1; w <= 40; ++w)
    for (int h : {1, 15, 16, 17, 33}) expect_quarter_turns(gray, Size{w, h}, 0, 0);
  for (int w : {127, 128, 129, 255, 256, 257})
    for (int h : {127, 128, 129, 300}) expect_quarter_turns(gray, Size{w, h}, 0, 0);
}

TEST(GpuNarrow, TransposeEveryByteOffset) {
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}})
    for (int x = 0; x <= 16; ++x)
      for (const Size size : {Size{45, 37}, Size{150, 140}}) {
        expect_quarter_turns(format, size, x, x);
        expect_quarter_turns(format, size, x, (x + 7) % 17);
      }
}

// ---- flips -------------------------------------------------------------------------------

void expect_flips(PixelFormat format, Size size, int src_x, int dst_x) {
  for (FlipAxis axis : {FlipAxis::Horizontal, FlipAxis::Vertical, FlipAxis::Both})
    for (FlipVariant variant : {FlipVariant::Vectorized, FlipVariant::Wide}) {
      const testing::Difference d = run_at(
          format, size, size, src_x, dst_x, [&](auto s, auto o) { flip(s, o, axis, variant, kChecked); },
          [&](auto s, auto o) { reference::flip(s, o, axis); });
      EXPECT_TRUE(d.within(0.0)) << "flip " << to_string(axis) << " " << to_string(variant) << " "
                                 << name_of(format, size, src_x, dst_x) << ": " << d.describe();
    }
}

const PixelFormat kFlipFormats[] = {{ChannelType::U8, 1}, {ChannelType::U8, 3}, {ChannelType::U8, 4},
                                    {ChannelType::U16, 3}, {ChannelType::F32, 3}};

TEST(GpuNarrow, FlipWordAndWarpEdgeSizes) {
  // Widths of whole 16- and 48-byte words, around a warp's 32 words (512 pixels of
  // 3 bytes), and widths that are not (the naive fallback); heights around the four
  // rows a thread moves.
  for (const PixelFormat format : kFlipFormats)
    for (int w : {1, 15, 16, 17, 32, 48, 160, 496, 512, 528, 1023, 1024, 1040, 2048})
      for (int h : {1, 3, 4, 5, 9}) expect_flips(format, Size{w, h}, 0, 0);
}

TEST(GpuNarrow, FlipEveryByteOffset) {
  for (const PixelFormat format : kFlipFormats)
    for (int x = 0; x <= 16; ++x)
      for (const Size size : {Size{48, 5}, Size{1040, 3}}) {
        expect_flips(format, size, x, x);
        expect_flips(format, size, x, (x + 3) % 17);
      }
}

// ---- halving with the area filter ------------------------------------------------------------

// 8-bit halving is exact: averages of four integers, rounded half to even on both sides.
void expect_halving(PixelFormat format, Size out, int src_x, int dst_x) {
  const Size in{2 * out.width, 2 * out.height};
  for (ResizeVariant variant : {ResizeVariant::Direct, ResizeVariant::Fast}) {
    const testing::Difference d = run_at(
        format, in, out, src_x, dst_x, [&](auto s, auto o) { resize(s, o, ResizeFilter::Area, variant, kChecked); },
        [](auto s, auto o) { reference::resize(s, o, ResizeFilter::Area); });
    EXPECT_TRUE(d.within(0.0)) << "resize half area " << (variant == ResizeVariant::Fast ? "fast " : "direct ")
                               << name_of(format, in, src_x, dst_x) << ": " << d.describe();
  }
}

const PixelFormat kHalvingFormats[] = {{ChannelType::U8, 1}, {ChannelType::U8, 3}, {ChannelType::U8, 4}};

TEST(GpuNarrow, HalvingAreaSizes) {
  for (const PixelFormat format : kHalvingFormats) {
    for (int w = 1; w <= 40; ++w) expect_halving(format, Size{w, 3}, 0, 0);
    for (int w : {255, 256, 257, 1000}) expect_halving(format, Size{w, 17}, 0, 0);
  }
}

TEST(GpuNarrow, HalvingAreaEveryByteOffset) {
  for (const PixelFormat format : kHalvingFormats)
    for (int x = 0; x <= 16; ++x) {
      expect_halving(format, Size{37, 5}, x, x);
      expect_halving(format, Size{37, 5}, x, (x + 9) % 17);
    }
}

}  // namespace
}  // namespace gpufilter::gpu_narrow_test
