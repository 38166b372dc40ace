// Point ops, conversions and the copy variants on the GPU against the CPU reference:
// every op x variant (the lab's included) x format on odd sizes, sub-views whose rows start at byte offsets
// 1..16 (src and dst at the same offset, and at different ones), the output poisoned
// so an unwritten sample fails, and the memory around the view checked untouched.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/lab.hpp"

namespace gpufilter::gpu_point_test {
namespace {

struct Size {
  int width, height;
};
const Size kSizes[] = {{1, 1}, {17, 13}, {1921, 1079}};

// Columns around a view in its parent, so a view at x = 16 still has a right margin.
constexpr int kMarginX = 20;

struct Outcome {
  testing::Difference diff;
  std::string guard;  // empty: nothing outside the destination view was written
};

// Runs `op` on a w x h view at column src_x of a random source, into a poisoned view
// at column dst_x of a random destination, on the GPU and on the CPU reference.
Outcome run_case(const Operation& op, const ParamValues& params, const std::string& variant, PixelFormat format,
                 Size size, int src_x, int dst_x) {
  const ImageShape out = op.output_shape_for(ImageShape{size.width, size.height, format}, params);
  HostImage host_src(size.width + kMarginX, size.height + 2, format);
  testing::fill_random(host_src.view(), static_cast<std::uint64_t>(size.width * 31 + size.height + src_x));
  const ImageView src_view = host_src.view().subview(src_x, 1, size.width, size.height);
  HostImage expected(out.width, out.height, out.format);
  op.run_reference(src_view, expected.view(), params, Border{});

  HostImage host_dst(out.width + kMarginX, out.height + 2, out.format);
  testing::fill_random(host_dst.view(), 7u);
  const ImageView dst_view = host_dst.view().subview(dst_x, 1, out.width, out.height);
  testing::poison_against(dst_view, expected.view());
  HostImage guard(out.width + kMarginX, out.height + 2, out.format);
  std::memcpy(guard.view().data, host_dst.view().data, guard.view().pitch * static_cast<std::size_t>(out.height + 2));

  DeviceImage src(size.width + kMarginX, size.height + 2, format);
  DeviceImage dst(out.width + kMarginX, out.height + 2, out.format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  copy_image_async(host_dst.view(), dst.view(), nullptr);
  lab::run_variant(op, variant, src.view().subview(src_x, 1, size.width, size.height),
                   dst.view().subview(dst_x, 1, out.width, out.height), params, Border{}, ExecContext{nullptr, true});
  copy_image_async(dst.view(), host_dst.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());

  Outcome outcome;
  outcome.diff = testing::compare(dst_view, expected.view());
  const std::size_t bytes = out.format.pixel_bytes();
  for (int y = 0; y < out.height + 2 && outcome.guard.empty(); ++y)
    for (int x = 0; x < out.width + kMarginX; ++x) {
      if (y >= 1 && y <= out.height && x >= dst_x && x < dst_x + out.width) continue;
      if (std::memcmp(host_dst.view().row<unsigned char>(y) + x * bytes, guard.view().row<unsigned char>(y) + x * bytes,
                      bytes) != 0) {
        outcome.guard = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") outside the view was written";
        break;
      }
    }
  return outcome;
}

std::string describe(const Operation& op, const std::string& variant, PixelFormat format, Size size, int src_x,
                     int dst_x) {
  return op.name + " " + variant + " " + format.name() + " " + std::to_string(size.width) + "x" +
         std::to_string(size.height) + " src x=" + std::to_string(src_x) + " dst x=" + std::to_string(dst_x);
}

void expect_matches(const Operation& op, const ParamValues& params, const std::string& variant, PixelFormat format,
                    Size size, int src_x, int dst_x) {
  const Outcome outcome = run_case(op, params, variant, format, size, src_x, dst_x);
  const Tolerance tolerance = op.tolerance(format);
  EXPECT_TRUE(outcome.diff.within(tolerance)) << describe(op, variant, format, size, src_x, dst_x) << ": "
                                              << outcome.diff.describe();
  EXPECT_TRUE(outcome.guard.empty()) << describe(op, variant, format, size, src_x, dst_x) << ": " << outcome.guard;
}

// By value: a reference parameter bound to a temporary string would make newer GCCs
// warn that the returned reference may dangle.
const Operation& op_named(std::string_view name) {
  const Operation* op = find_operation(std::string(name));
  if (!op) throw Error(ErrorCode::InvalidArgument, "no op " + std::string(name));
  return *op;
}

const std::vector<std::string> kPointOps = {"invert", "brightness", "contrast", "gamma", "levels"};

// ---- point ops -----------------------------------------------------------------------

TEST(GpuPointOps, EveryOpVariantFormatAndSize) {
  for (const std::string& name : kPointOps) {
    const Operation& op = op_named(name);
    const ParamValues params = op.resolve(op.test_params);
    for (const PixelFormat& format : op.formats)
      for (const std::string& variant : lab::library_and_lab_variants(op))
        for (const Size& size : kSizes) expect_matches(op, params, variant, format, size, 0, 0);
  }
}

// A view at x = 1..16: for u8x1 every byte offset within a 16-byte group, so the head
// and tail of each row take every length; dst at the same offset (the vectorized path)
// and at another (the fallback).
TEST(GpuPointOps, SubViewsAtEveryOffset) {
  for (const std::string& name : kPointOps) {
    const Operation& op = op_named(name);
    const ParamValues params = op.resolve(op.test_params);
    for (const PixelFormat& format : op.formats)
      for (const std::string& variant : lab::library_and_lab_variants(op))
        for (int x = 1; x <= 16; ++x) {
          expect_matches(op, params, variant, format, Size{67, 3}, x, x);
          expect_matches(op, params, variant, format, Size{5, 2}, x, x);  // shorter than one 16-byte group
        }
    for (const PixelFormat& format : op.formats)
      expect_matches(op, params, "vectorized", format, Size{67, 3}, 3, 8);
  }
}

TEST(GpuPointOps, ChannelMasks) {
  const Operation& op = op_named("brightness");
  for (const char* channels : {"r", "g", "b", "a", "ga", "rgba", "RGB"})
    for (const PixelFormat& format : op.formats)
      for (const std::string& variant : lab::library_and_lab_variants(op)) {
        const ParamValues params = op.resolve({{"value", -0.4}, {"channels", channels}});
        SCOPED_TRACE(channels);
        expect_matches(op, params, variant, format, Size{45, 7}, 5, 5);
      }
}

TEST(GpuPointOps, AlphaIsKeptUnlessNamed) {
  const PixelFormat format{ChannelType::U8, 4};
  HostImage host(3, 1, format), back(3, 1, format);
  for (int i = 0; i < 12; ++i) host.view().row<std::uint8_t>(0)[i] = static_cast<std::uint8_t>(10 * i);
  DeviceImage src(3, 1, format), dst(3, 1, format);
  copy_image_async(host.view(), src.view(), nullptr);
  invert(src.view(), dst.view(), PointChannels{}, PointVariant::Vectorized, ExecContext{nullptr, true});
  copy_image_async(dst.view(), back.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(back.view().row<std::uint8_t>(0)[i], i % 4 == 3 ? 10 * i : 255 - 10 * i) << "sample " << i;
}

// The same op on a planar image (AoS vs SoA) gives the interleaved result, plane by plane.
TEST(GpuPointOps, PlanarMatchesInterleaved) {
  for (const PixelFormat& format : all_pixel_formats()) {
    if (format.channels == 1) continue;
    const int w = 301, h = 7, c = format.channels;
    const PixelFormat plane_format{format.type, 1};
    HostImage host(w, h, format), expected(w, h, format), host_planes(w, h * c, plane_format);
    testing::fill_random(host.view(), 5u);
    reference::to_planar(host.view(), planar_view(host_planes.view(), c));
    for (PointVariant variant : {PointVariant::Scalar, PointVariant::Vectorized})
      for (int which = 0; which < 2; ++which) {
        const BrightnessParams params{0.25, PointChannels::parse("gba")};
        if (which == 0) reference::invert(host.view(), expected.view(), PointChannels{});
        else reference::brightness(host.view(), expected.view(), params);
        DeviceImage src(w, h * c, plane_format), dst(w, h * c, plane_format);
        copy_image_async(host_planes.view(), src.view(), nullptr);
        const PlanarView s = planar_view(src.view(), c), d = planar_view(dst.view(), c);
        if (which == 0) invert(s, d, PointChannels{}, variant, ExecContext{nullptr, true});
        else brightness(s, d, params, variant, ExecContext{nullptr, true});
        HostImage result_planes(w, h * c, plane_format), result(w, h, format);
        copy_image_async(dst.view(), result_planes.view(), nullptr);
        GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
        reference::to_interleaved(planar_view(result_planes.view(), c), result.view());
        const testing::Difference diff = testing::compare(result.view(), expected.view());
        EXPECT_TRUE(diff.within(format.type == ChannelType::F32 ? 1e-6 : 0.0))
            << format.name() << " " << to_string(variant) << (which ? " brightness" : " invert") << ": "
            << diff.describe();
      }
  }
}

TEST(GpuPointOps, BadParametersAreErrors) {
  DeviceImage a(8, 8, PixelFormat{}), b(8, 8, PixelFormat{});
  EXPECT_THROW(gamma(a.view(), b.view(), GammaParams{0.0}), Error);
  EXPECT_THROW(levels(a.view(), b.view(), LevelsParams{0.5, 0.5}), Error);
  EXPECT_THROW(invert(a.view(), b.view().subview(0, 0, 7, 8)), Error) << "different sizes";
  EXPECT_THROW(invert(a.view(), a.view()), Error) << "in place";
  EXPECT_THROW(PointChannels::parse("rx"), Error);
  EXPECT_THROW(PointChannels::parse("rr"), Error);
}

// ---- conversions ---------------------------------------------------------------------

struct ConversionCase {
  std::string op;
  ParamValues params;
  int height_factor = 1;  // interleaved takes planes stacked: a height of h * channels
};

std::vector<ConversionCase> conversion_cases() {
  return {
      {"gray", {{"weights", "bt601"}}},
      {"gray", {{"weights", "bt709"}}},
      {"add_alpha", {}},
      {"drop_alpha", {}},
      {"swap_channels", {}},
      {"swap_channels", {{"order", "bgr"}}},
      {"swap_channels", {{"order", "gbr"}}},
      {"convert", {{"depth", "u8"}}},
      {"convert", {{"depth", "u16"}}},
      {"convert", {{"depth", "f32"}}},
      {"planar", {}},
      {"interleaved", {{"channels", 3}}, 3},
      {"interleaved", {{"channels", 4}}, 4},
  };
}

TEST(GpuConversions, EveryOpFormatAndSize) {
  for (const ConversionCase& c : conversion_cases()) {
    const Operation& op = op_named(c.op);
    const ParamValues params = op.resolve(c.params);
    for (const PixelFormat& format : op.formats)
      for (const std::string& variant : lab::library_and_lab_variants(op))
        for (const Size& size : kSizes) {
          const Size input{size.width, size.height * c.height_factor};
          expect_matches(op, params, variant, format, input, 0, 0);
          if (size.width > 100) continue;  // offsets on the small sizes: the large one is slow on the CPU side
          for (int x : {1, 3, 8, 13}) {
            expect_matches(op, params, variant, format, input, x, x);
            expect_matches(op, params, variant, format, input, x, x + 2);
          }
        }
  }
}

// The vec16 kernels on 8-bit images: every width up to 40 (groups of 16 pixels with
// and without a partial tail) and widths around a warp's 512 pixels (the shared stage
// runs only for whole warps), rows at every byte offset 0..16 of src and dst (16-byte
// paths only where both rows start at a boundary; the others take unroll4).
TEST(GpuConversions, Vec16EdgesAndOffsets) {
  const std::vector<int> widths = [] {
    std::vector<int> w;
    for (int i = 1; i <= 40; ++i) w.push_back(i);
    for (int i : {496, 511, 512, 513, 527, 1023, 1024, 1040}) w.push_back(i);
    return w;
  }();
  for (const ConversionCase& c : conversion_cases()) {
    const Operation& op = op_named(c.op);
    const ParamValues params = op.resolve(c.params);
    for (const PixelFormat& format : op.formats) {
      if (format.type != ChannelType::U8) continue;
      for (const char* variant : {"vec16", "vec16_warp"}) {
        for (int width : widths) expect_matches(op, params, variant, format, Size{width, 3 * c.height_factor}, 0, 0);
        for (int x = 0; x <= 16; ++x) {
          expect_matches(op, params, variant, format, Size{37, 2 * c.height_factor}, x, x);
          expect_matches(op, params, variant, format, Size{37, 2 * c.height_factor}, x, (x + 5) % 17);
        }
      }
    }
  }
}

TEST(GpuConversions, SwapOrdersOfFourChannels) {
  const Operation& op = op_named("swap_channels");
  for (const char* order : {"bgra", "argb", "abgr", "rgba", "gbr"})
    for (const PixelFormat& format : op.formats) {
      if (format.channels != 4) continue;
      SCOPED_TRACE(order);
      for (const std::string& variant : lab::library_and_lab_variants(op))
        expect_matches(op, op.resolve({{"order", order}}), variant, format, Size{33, 5}, 1, 1);
    }
  EXPECT_THROW(ChannelOrder::parse("bgra", 3), Error);
  EXPECT_THROW(ChannelOrder::parse("bb", 3), Error);
}

// ---- copy variants -------------------------------------------------------------------

TEST(GpuCopyVariants, EveryVariantFormatSizeAndOffset) {
  const Operation& op = op_named("copy");
  for (const PixelFormat& format : op.formats)
    for (const std::string& variant : lab::library_and_lab_variants(op)) {
      for (const Size& size : kSizes) expect_matches(op, {}, variant, format, size, 0, 0);
      for (int x = 1; x <= 16; ++x) {
        expect_matches(op, {}, variant, format, Size{301, 3}, x, x);
        expect_matches(op, {}, variant, format, Size{3, 2}, x, x);
      }
      expect_matches(op, {}, variant, format, Size{301, 3}, 1, 4);  // offsets differ: the fallback
    }
}

}  // namespace
}  // namespace gpufilter::gpu_point_test
