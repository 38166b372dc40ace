// Transpose, quarter turns, flips, crop and resize on the GPU: every variant, the lab's
// included (and block shape)
// on every format, on odd sizes, on whole images and on sub-views whose rows start at
// odd byte offsets, against the CPU reference with no tolerance (resize: the op's). The destination is
// poisoned first, and a guard band around a sub-view destination must stay untouched.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "geometry/geometry_launch.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/geometry/geometry_lab_launch.hpp"
#include "lab/lab.hpp"

namespace gpufilter::gpu_geometry_test {
namespace {

struct Size {
  int width, height;
};
// Odd sizes that divide no tile, a 1-row image, and rows of a multiple of 16 bytes
// (48 and 1920 pixels) on which the flips' and the fast transpose's word paths run.
const Size kSizes[] = {{1, 1}, {17, 13}, {48, 5}, {1920, 17}, {37, 1031}, {1921, 1079}};
constexpr int kOffsetX = 3, kOffsetY = 1, kGuard = 4;  // sub-views start at an odd column

using GpuRun = std::function<void(const ImageView& src, const ImageView& dst)>;
using CpuRun = std::function<void(const ImageView& src, const ImageView& dst)>;

std::string size_name(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// One source image (whole, or a sub-view of a larger one), uploaded once.
struct Source {
  HostImage host_full;
  DeviceImage device_full;
  ImageView host, device;

  Source(Size size, PixelFormat format, bool sub_view) {
    const int w = size.width + (sub_view ? kOffsetX + kGuard : 0), h = size.height + (sub_view ? kOffsetY + kGuard : 0);
    host_full = HostImage(w, h, format);
    device_full = DeviceImage(w, h, format);
    testing::fill_random(host_full.view(), static_cast<std::uint64_t>(size.width) * 31 + size.height);
    copy_image_async(host_full.view(), device_full.view(), nullptr);
    const int x = sub_view ? kOffsetX : 0, y = sub_view ? kOffsetY : 0;
    host = host_full.view().subview(x, y, size.width, size.height);
    device = device_full.view().subview(x, y, size.width, size.height);
  }
};

// A destination of out_w x out_h (a sub-view with a guard band when sub_view) with the
// reference's result, computed once for all the variants checked against it.
class Destination {
 public:
  Destination(const Source& source, int out_w, int out_h, bool sub_view, const CpuRun& cpu)
      : source_(source),
        w_(out_w + (sub_view ? kOffsetX + kGuard : 0)),
        h_(out_h + (sub_view ? kOffsetY + kGuard : 0)),
        x_(sub_view ? kOffsetX : 0),
        y_(sub_view ? kOffsetY : 0),
        out_w_(out_w),
        out_h_(out_h),
        expected_(w_, h_, source.host.format),
        initial_(w_, h_, source.host.format),
        actual_(w_, h_, source.host.format),
        dst_(w_, h_, source.host.format) {
    testing::fill_random(expected_.view(), 99u);  // the guard band's values
    copy_image_async(expected_.view(), initial_.view(), nullptr);
    const ImageView expected_part = expected_.view().subview(x_, y_, out_w, out_h);
    cpu(source.host, expected_part);
    testing::poison_against(initial_.view().subview(x_, y_, out_w, out_h), expected_part);
  }

  // Runs `gpu` into the poisoned destination and compares the whole buffer, guard
  // band included, with the reference's.
  testing::Difference check(const GpuRun& gpu) {
    copy_image_async(initial_.view(), dst_.view(), nullptr);
    gpu(source_.device, dst_.view().subview(x_, y_, out_w_, out_h_));
    copy_image_async(dst_.view(), actual_.view(), nullptr);
    GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
    return testing::compare(actual_.view(), expected_.view());
  }

 private:
  const Source& source_;
  int w_, h_, x_, y_, out_w_, out_h_;
  HostImage expected_, initial_, actual_;
  DeviceImage dst_;
};

const ExecContext kChecked{nullptr, true};  // synchronise after each launch: faults name their kernel

// A transpose under test with a block shape: a library variant, or one of the lab's
// steps of the seed's experiment (lab/geometry), run through the lab's API.
struct TransposeCase {
  TransposeOptions options;
  const lab::LabVariant* lab_transpose = nullptr;  // with lab_rotate: a lab step
  const lab::LabVariant* lab_rotate = nullptr;

  std::string name() const { return lab_transpose ? lab_transpose->variant : to_string(options.variant); }
  void transpose(const ImageView& s, const ImageView& d) const {
    if (!lab_transpose) return gpufilter::transpose(s, d, options, kChecked);
    const ParamValues params = find_operation("transpose")->resolve({{"block", std::string(to_string(options.block))}});
    lab_transpose->run(s, d, params, Border{}, kChecked);
  }
  void rotate_quarter_turns(const ImageView& s, const ImageView& d, int angle) const {
    if (!lab_rotate) return gpufilter::rotate_quarter_turns(s, d, angle, options, kChecked);
    const ParamValues params =
        find_operation("rotate")->resolve({{"angle", angle}, {"block", std::string(to_string(options.block))}});
    lab_rotate->run(s, d, params, Border{}, kChecked);
  }
};

std::vector<TransposeCase> options_to_test(Size size) {
  std::vector<TransposeCase> all;
  // Every block shape of the naive kernels on the smaller sizes; the default one on the largest.
  const auto blocks = [&](bool naive_family) {
    if (naive_family && size.width * size.height < 1000000)
      return std::vector<BlockShape>{BlockShape::Wide32x8, BlockShape::Square16x16, BlockShape::Thin8x32};
    return std::vector<BlockShape>{BlockShape::Square16x16};
  };
  for (const std::string& name : find_operation("transpose")->variants) {
    const TransposeVariant v = transpose_variant_from_name(name);
    for (BlockShape b : blocks(v == TransposeVariant::NaiveRow)) all.push_back({{v, b}});
  }
  for (const lab::LabVariant* step : lab::lab_variants_of("transpose"))
    for (BlockShape b : blocks(true))
      all.push_back({{TransposeVariant::NaiveRow, b}, step, lab::find_lab_variant("rotate", step->variant)});
  return all;
}

std::string describe(const TransposeCase& c) { return c.name() + " " + to_string(c.options.block); }

class GeometryGpu : public ::testing::TestWithParam<PixelFormat> {};

TEST_P(GeometryGpu, TransposeEveryVariant) {
  const PixelFormat format = GetParam();
  for (const Size size : kSizes)
    for (bool sub_view : {false, true}) {
      const Source source(size, format, sub_view);
      Destination destination(source, size.height, size.width, sub_view,
                              [](auto s, auto d) { reference::transpose(s, d); });
      for (const TransposeCase& options : options_to_test(size)) {
        const testing::Difference diff = destination.check([&](auto s, auto d) { options.transpose(s, d); });
        EXPECT_TRUE(diff.within(0.0)) << describe(options) << " " << size_name(size) << (sub_view ? " sub-view" : "")
                                      << ": " << diff.describe();
      }
    }
}

TEST_P(GeometryGpu, RotateQuarterTurnsEveryVariant) {
  const PixelFormat format = GetParam();
  for (const Size size : kSizes)
    for (bool sub_view : {false, true}) {
      const Source source(size, format, sub_view);
      for (int angle : {90, 180, 270, -90}) {
        const bool swaps = angle % 180 != 0;
        Destination destination(source, swaps ? size.height : size.width, swaps ? size.width : size.height, sub_view,
                                [&](auto s, auto d) { reference::rotate_quarter_turns(s, d, angle); });
        for (const TransposeCase& options : options_to_test(size)) {
          const testing::Difference diff =
              destination.check([&](auto s, auto d) { options.rotate_quarter_turns(s, d, angle); });
          EXPECT_TRUE(diff.within(0.0)) << "rotate " << angle << " " << describe(options) << " " << size_name(size)
                                        << (sub_view ? " sub-view" : "") << ": " << diff.describe();
        }
      }
    }
}

TEST_P(GeometryGpu, FlipEveryVariant) {
  const PixelFormat format = GetParam();
  for (const Size size : kSizes)
    for (bool sub_view : {false, true}) {
      const Source source(size, format, sub_view);
      for (FlipAxis axis : {FlipAxis::Horizontal, FlipAxis::Vertical, FlipAxis::Both}) {
        Destination destination(source, size.width, size.height, sub_view,
                                [&](auto s, auto d) { reference::flip(s, d, axis); });
        for (FlipVariant variant : {FlipVariant::Naive, FlipVariant::Vectorized, FlipVariant::Wide}) {
          const testing::Difference diff =
              destination.check([&](auto s, auto d) { flip(s, d, axis, variant, kChecked); });
          EXPECT_TRUE(diff.within(0.0)) << "flip " << to_string(axis) << " " << to_string(variant) << " "
                                        << size_name(size) << (sub_view ? " sub-view" : "") << ": " << diff.describe();
        }
      }
    }
}

// The registry's crop: the rectangle's view copied into dst.
TEST_P(GeometryGpu, CropCopiesTheRectangle) {
  const PixelFormat format = GetParam();
  const Operation& op = *find_operation("crop");
  const Size size{37, 29};
  for (bool sub_view : {false, true}) {
    const Source source(size, format, sub_view);
    for (const char* geometry : {"1x1+0+0", "37x29+0+0", "5x7+3+2", "17x1+20+28", "1x29+36+0"}) {
      const ParamValues values = op.resolve({{"geometry", geometry}});
      const ImageShape out = op.output_shape_for(ImageShape{size.width, size.height, format}, values);
      Destination destination(source, out.width, out.height, sub_view,
                              [&](auto s, auto d) { op.run_reference(s, d, values, Border{}); });
      const testing::Difference diff =
          destination.check([&](auto s, auto d) { op.run_gpu(s, d, values, Border{}, "view", kChecked); });
      EXPECT_TRUE(diff.within(0.0)) << geometry << (sub_view ? " sub-view" : "") << ": " << diff.describe();
    }
  }
}

// Every filter, shrinking and enlarging (whole and uneven ratios, each axis its own),
// within the registry's tolerance of the reference.
TEST_P(GeometryGpu, ResizeEveryFilter) {
  const PixelFormat format = GetParam();
  const Tolerance tolerance = find_operation("resize")->tolerance(format);
  struct Case {
    Size from, to;
  };
  const Case cases[] = {{{1, 1}, {3, 2}},      {{17, 13}, {1, 1}},   {{17, 13}, {9, 7}},       {{17, 13}, {40, 31}},
                        {{37, 1031}, {13, 400}}, {{48, 5}, {96, 10}}, {{1921, 1079}, {960, 540}}, {{201, 99}, {77, 250}}};
  for (const Case& c : cases)
    for (bool sub_view : {false, true}) {
      const Source source(c.from, format, sub_view);
      for (ResizeFilter filter : {ResizeFilter::Nearest, ResizeFilter::Linear, ResizeFilter::Cubic, ResizeFilter::Area,
                                  ResizeFilter::Lanczos}) {
        Destination destination(source, c.to.width, c.to.height, sub_view,
                                [&](auto s, auto d) { reference::resize(s, d, filter); });
        for (ResizeVariant variant : {ResizeVariant::Direct, ResizeVariant::Fast}) {
          const testing::Difference diff =
              destination.check([&](auto s, auto d) { resize(s, d, filter, variant, kChecked); });
          EXPECT_TRUE(diff.within(tolerance))
              << "resize " << to_string(filter) << (variant == ResizeVariant::Fast ? " fast " : " direct ")
              << size_name(c.from) << " to " << size_name(c.to) << (sub_view ? " sub-view" : "") << ": "
              << diff.describe();
        }
      }
    }
}

// Linear enlargement (the fast variant's shared-memory window kernel when the width does
// not shrink, the integer kernel for 8-bit images at exactly 2x): exactly 2x, whole-row multiples of 16 bytes and odd sizes, the same width,
// a shrinking height, uneven ratios; whole images (16-byte stores) and sub-views at odd
// byte offsets (pixel stores). At exactly 2x every weight is 1/4 or 3/4 and integer sums
// are exact in float: 8- and 16-bit results equal the reference's.
TEST_P(GeometryGpu, ResizeLinearEnlarging) {
  const PixelFormat format = GetParam();
  const Tolerance tolerance = find_operation("resize")->tolerance(format);
  struct Case {
    Size from, to;
  };
  const Case cases[] = {{{1921, 1079}, {3842, 2158}}, {{1920, 17}, {3840, 34}}, {{1, 1}, {7, 5}},
                        {{17, 13}, {34, 26}},         {{17, 13}, {17, 40}},     {{517, 9}, {1600, 4}},
                        {{600, 300}, {1000, 450}},    {{37, 1031}, {101, 2000}}, {{3, 2}, {1027, 3}}};
  for (const Case& c : cases)
    for (bool sub_view : {false, true}) {
      const Source source(c.from, format, sub_view);
      Destination destination(source, c.to.width, c.to.height, sub_view,
                              [&](auto s, auto d) { reference::resize(s, d, ResizeFilter::Linear); });
      const bool twice = c.to.width == 2 * c.from.width && c.to.height == 2 * c.from.height;
      const Tolerance allowed = twice && format.type != ChannelType::F32 ? Tolerance(0.0) : tolerance;
      for (ResizeVariant variant : {ResizeVariant::Direct, ResizeVariant::Fast}) {
        const testing::Difference diff =
            destination.check([&](auto s, auto d) { resize(s, d, ResizeFilter::Linear, variant, kChecked); });
        EXPECT_TRUE(diff.within(allowed)) << "resize linear" << (variant == ResizeVariant::Fast ? " fast " : " direct ")
                                          << size_name(c.from) << " to " << size_name(c.to)
                                          << (sub_view ? " sub-view" : "") << ": " << diff.describe();
      }
    }
}

// Any angle, with and without expand, against the reference within the op's tolerance.
TEST_P(GeometryGpu, RotateAnyAngle) {
  const PixelFormat format = GetParam();
  const Tolerance tolerance = find_operation("rotate")->tolerance(format);
  const std::array<double, 4> fill = format.type == ChannelType::F32 ? std::array<double, 4>{0.25, 0.5, 0.75, 1.0}
                                                                     : std::array<double, 4>{30, 300, 60, 255};
  for (const Size size : {Size{1, 1}, Size{17, 13}, Size{48, 5}, Size{37, 1031}, Size{1921, 1079}})
    for (bool sub_view : {false, true}) {
      const Source source(size, format, sub_view);
      for (double angle : {30.0, -45.0, 123.4, 1.0, 200.0})
        for (bool expand : {false, true}) {
          const Rect out = rotated_size(size.width, size.height, angle, expand);
          Destination destination(source, out.width, out.height, sub_view,
                                  [&](auto s, auto d) { reference::rotate(s, d, angle, fill); });
          std::vector<std::pair<std::string, GpuRun>> runs;
          for (RotateVariant variant : {RotateVariant::Direct, RotateVariant::Tiled})
            runs.emplace_back(to_string(variant),
                              [&, variant](auto s, auto d) { rotate(s, d, angle, fill, variant, kChecked); });
          const ParamValues params = find_operation("rotate")->resolve(
              {{"angle", angle}, {"expand", expand ? 1 : 0}, {"fill", std::vector<double>(fill.begin(), fill.end())}});
          for (const char* name : {"bilinear_wide", "bilinear_texture"})
            runs.emplace_back(name, [&, name](auto s, auto d) {
              lab::find_lab_variant("rotate", name)->run(s, d, params, Border{}, kChecked);
            });
          for (const auto& [variant, run] : runs) {
            const testing::Difference diff = destination.check(run);
            // A share of rounding flips means nothing on a few pixels (a 1x1 source
            // rotated and expanded is 2x2): there only the largest difference counts.
            const Tolerance allowed = diff.samples >= 1000 ? tolerance : Tolerance(tolerance.max_abs);
            EXPECT_TRUE(diff.within(allowed)) << "rotate " << variant << " " << angle
                                              << (expand ? " expand " : " ") << size_name(size)
                                              << (sub_view ? " sub-view" : "") << ": " << diff.describe();
          }
        }
    }
}

// The texture kernel takes whole 1- and 4-channel images (cudaMallocPitch's start and
// pitch suit the texture unit) and declines 3-channel pixels and sub-views starting at
// an odd column; what it takes it computes right (the identity map copies exactly).
TEST_P(GeometryGpu, RotateTextureTakesAlignedViews) {
  const PixelFormat format = GetParam();
  const double identity[6] = {1, 0, 0, 0, 1, 0};
  const double fill[4] = {0, 0, 0, 0};
  for (bool sub_view : {false, true}) {
    const Source source(Size{301, 77}, format, sub_view);
    Destination destination(source, 301, 77, sub_view,
                            [](auto s, auto d) { reference::rotate(s, d, 0.0, {0, 0, 0, 0}); });
    bool taken = false;
    const testing::Difference diff = destination.check([&](auto s, auto d) {
      taken = lab::launch_rotate_bilinear_texture(s, d, identity, fill, kChecked);
      if (!taken) copy(s, d, CopyVariant::Vectorized, kChecked);  // declined: nothing launched
    });
    // What the texture unit wants of a pitched 2-D resource (cudaMallocPitch's rows
    // meet it; a sub-view starting at an odd column never does).
    int device = 0, alignment = 0, pitch_alignment = 0;
    GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
    GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
    GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&pitch_alignment, cudaDevAttrTexturePitchAlignment, device));
    const bool aligned = reinterpret_cast<std::uintptr_t>(source.device.data) % static_cast<unsigned>(alignment) == 0 &&
                         source.device.pitch % static_cast<unsigned>(pitch_alignment) == 0;
    EXPECT_EQ(taken, format.channels != 3 && aligned) << (sub_view ? "sub-view" : "whole image");
    if (!sub_view && format.channels != 3) {
      EXPECT_TRUE(aligned) << "cudaMallocPitch's rows suit the texture unit";
    }
    if (sub_view) {
      EXPECT_FALSE(taken);
    }
    EXPECT_TRUE(diff.within(0.0)) << (sub_view ? "sub-view: " : "whole image: ") << diff.describe();
  }
}

// The bench's bounds (copy_row, copy_col) copy exactly, with every block shape.
TEST_P(GeometryGpu, CopyBoundsCopy) {
  const PixelFormat format = GetParam();
  for (const Size size : {Size{1, 1}, Size{17, 13}, Size{37, 1031}})
    for (bool sub_view : {false, true}) {
      const Source source(size, format, sub_view);
      Destination destination(source, size.width, size.height, sub_view,
                              [](auto s, auto d) { reference::copy(s, d); });
      for (bool columns : {false, true})
        for (BlockShape block : {BlockShape::Wide32x8, BlockShape::Square16x16, BlockShape::Thin8x32}) {
          const testing::Difference diff = destination.check(
              [&](auto s, auto d) { lab::launch_copy_bound(s, d, columns, block, kChecked); });
          EXPECT_TRUE(diff.within(0.0)) << (columns ? "copy_col " : "copy_row ") << to_string(block) << " "
                                        << size_name(size) << (sub_view ? " sub-view" : "") << ": " << diff.describe();
        }
    }
}

// Wrong shapes and overlapping views are refused before any launch.
TEST(GeometryGpuChecks, RefusesWrongShapesAndOverlap) {
  const PixelFormat format{ChannelType::U8, 3};
  DeviceImage src(20, 10, format), same(20, 10, format), swapped(10, 20, format);
  EXPECT_THROW(transpose(src.view(), same.view()), Error);
  EXPECT_THROW(rotate_quarter_turns(src.view(), same.view(), 90), Error);
  EXPECT_THROW(rotate_quarter_turns(src.view(), swapped.view(), 45), Error);
  EXPECT_THROW(flip(src.view(), swapped.view(), FlipAxis::Horizontal), Error);
  EXPECT_THROW(flip(src.view(), src.view(), FlipAxis::Horizontal), Error);
  DeviceImage square(16, 16, format);
  EXPECT_THROW(transpose(square.view(), square.view()), Error);
  EXPECT_NO_THROW(transpose(src.view(), swapped.view(), {}, kChecked));
}

INSTANTIATE_TEST_SUITE_P(Formats, GeometryGpu, ::testing::ValuesIn(all_pixel_formats()),
                         [](const ::testing::TestParamInfo<PixelFormat>& param_info) { return param_info.param.name(); });

}  // namespace
}  // namespace gpufilter::gpu_geometry_test
