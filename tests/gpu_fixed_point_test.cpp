// The 8-bit integer kernels (the library's separable_packed, gradient_int and integer_3x3, the lab's
// separable_fixed and launch shapes) beyond the registry matrix:
// every radius of the register window, images narrower and shorter than the halo and
// than a thread's pixels, strips that end within the window, rows that start at every
// byte offset and odd pitches, against the CPU reference.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "convolution/gradient_int_launch.hpp"
#include "convolution/integer_3x3_launch.hpp"
#include "lab/convolution/separable_fixed_tuning.hpp"
#include "convolution/separable_fixed_weights.hpp"
#include "convolution/separable_packed_tuning.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/convolution/fixed_shapes_launch.hpp"

namespace gpufilter::gpu_fixed_point_test {
namespace {

// Where the images sit in their device buffers: whole images (pitch from the
// allocator) or carved out at a byte offset with a pitch of row bytes + `pad`.
struct Placement {
  int offset = 0;  // bytes
  int pad = -1;    // -1: a whole DeviceImage
};

std::string describe(const Placement& p) {
  return p.pad < 0 ? "whole" : "offset " + std::to_string(p.offset) + " pad " + std::to_string(p.pad);
}

// A view of w x h pixels inside `buffer` (allocated here) as `p` says.
ImageView place(DeviceImage& buffer, int w, int h, PixelFormat format, const Placement& p) {
  if (p.pad < 0) {
    buffer = DeviceImage(w, h, format);
    return buffer.view();
  }
  const std::size_t pitch = static_cast<std::size_t>(w) * format.pixel_bytes() + static_cast<std::size_t>(p.pad);
  buffer = DeviceImage(static_cast<int>(pitch) + 16, h + 1, PixelFormat{ChannelType::U8, 1});
  ImageView view{static_cast<unsigned char*>(buffer.view().data) + p.offset, w, h, pitch, format};
  return view;
}

// Runs a kernel on the views: a library variant (apply_filter) or a lab launcher.
using Launch = std::function<void(const ImageView& src, const ImageView& dst, const ExecContext& ctx)>;

testing::Difference run_vs_reference(int w, int h, PixelFormat format, const FilterSpec& spec, const Border& border,
                                     const Launch& launch, const Placement& p, bool transparent = false) {
  HostImage host_src(w, h, format), expected(w, h, format), actual(w, h, format);
  testing::fill_random(host_src.view(), static_cast<std::uint64_t>(w * 31 + h * 7 + p.offset));
  if (transparent && format.channels == 4)  // every fifth pixel's alpha 0, 1 or 2
    for (int y = 0; y < h; ++y)
      for (int x = (y % 5); x < w; x += 5) host_src.view().row<std::uint8_t>(y)[x * 4 + 3] = static_cast<std::uint8_t>((x + y) % 3);
  reference::apply_filter(host_src.view(), expected.view(), spec, border);
  testing::poison_against(actual.view(), expected.view());
  DeviceImage src_buffer, dst_buffer;
  const ImageView src = place(src_buffer, w, h, format, p);
  // The output at another offset than the input (RGBA: the same, pixels stay aligned).
  Placement dst_placement = p;
  if (p.pad >= 0 && format.channels != 4) dst_placement.offset = (p.offset + 1) % 4;
  const ImageView dst = place(dst_buffer, w, h, format, dst_placement);
  copy_image_async(host_src.view(), src, nullptr);
  copy_image_async(actual.view(), dst, nullptr);
  launch(src, dst, ExecContext{nullptr, true});
  copy_image_async(dst, actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  // Premultiplied colours under negative taps: compared premultiplied, as the registry's
  // filter ops compare them (Operation::colours_divided_by_alpha).
  const bool colours_by_alpha = format.channels == 4 && spec.alpha == AlphaMode::Premultiply && !spec.convex;
  return testing::compare(actual.view(), expected.view(), colours_by_alpha);
}

testing::Difference run_vs_reference(int w, int h, PixelFormat format, const FilterSpec& spec, const Border& border,
                                     FilterVariant variant, const Placement& p, bool transparent = false) {
  const Launch library = [&](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
    apply_filter(src, dst, spec, border, variant, ctx);
  };
  return run_vs_reference(w, h, format, spec, border, library, p, transparent);
}

// The lab's separable_fixed in one of its shapes.
Launch separable_fixed(const FilterSpec& spec, const Border& border, lab::FixedShapeId shape) {
  return [&spec, border, shape](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
    lab::launch_separable_fixed(src, dst, spec, lab::representable(border, src.format), shape, ctx);
  };
}

// The library's gradient_int kernel in one of the lab's shapes.
Launch gradient_int_shape(const FilterSpec& spec, const Border& border, lab::FixedShapeId shape) {
  return [&spec, border, shape](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
    lab::launch_gradient_int_shape(src, dst, spec, lab::representable(border, src.format), shape, ctx);
  };
}

struct NamedShape {
  const char* name;
  lab::FixedShapeId id;
};
const NamedShape kLabShapes[] = {
    {"lean", lab::FixedShapeId::Lean}, {"deep", lab::FixedShapeId::Deep}, {"serial", lab::FixedShapeId::Serial}};
// The 3x3 walks (gradient_int, integer_3x3) take one more: wider threads.
const NamedShape kWalkShapes[] = {{"lean", lab::FixedShapeId::Lean},
                                  {"deep", lab::FixedShapeId::Deep},
                                  {"serial", lab::FixedShapeId::Serial},
                                  {"wide", lab::FixedShapeId::Wide}};

Tolerance u8_tolerance(PixelFormat format) { return find_operation("blur")->tolerance(format); }

const PixelFormat kFormats[] = {{ChannelType::U8, 1}, {ChannelType::U8, 3}, {ChannelType::U8, 4}};

// Sizes: 1x1, narrower and shorter than a 9x9 halo, one strip plus one row, several
// thread blocks across with a ragged end.
const std::pair<int, int> kSizes[] = {{1, 1}, {3, 2}, {5, 9}, {13, 33}, {37, 70}, {1100, 45}};

std::vector<Placement> placements(PixelFormat format) {
  if (format.channels == 4) return {{}, {4, 12}};  // RGBA pixels stay aligned to their size
  return {{}, {1, 3}, {2, 1}, {3, 6}, {0, 5}};
}

Border border_of(BorderMode mode) { return Border{mode, {17.0, 130.0, 240.0, 99.0}}; }

// The masks both 8-bit window kernels are checked with: a Gaussian and a square box of
// every radius, an anisotropic Gaussian and two oblong boxes.
std::vector<FilterSpec> window_kernel_specs() {
  std::vector<FilterSpec> specs;
  for (int r = 0; r <= kernels::SeparableFixedTuning::kMaxRadius; ++r) {
    GaussianParams g{0.4 + 0.5 * r, r == 0 ? 1 : r};
    g.alpha = AlphaMode::Separate;
    specs.push_back(gaussian_spec(g));
    specs.push_back(box_spec(BoxParams{2 * r + 1, 2 * r + 1, AlphaMode::Separate}));
  }
  GaussianParams anisotropic{1.3, 3};
  anisotropic.sigma_y = 0.6;
  anisotropic.radius_y = 1;
  anisotropic.alpha = AlphaMode::Separate;
  specs.push_back(gaussian_spec(anisotropic));
  specs.push_back(box_spec(BoxParams{1, 7, AlphaMode::Separate}));
  specs.push_back(box_spec(BoxParams{9, 3, AlphaMode::Separate}));
  return specs;
}

TEST(FixedPointKernel, EveryRadiusFormatBorderAndPlacement) {
  const std::vector<FilterSpec> specs = window_kernel_specs();
  for (const PixelFormat format : kFormats)
    for (const FilterSpec& spec : specs) {
      ASSERT_TRUE(kernels::separable_fixed_fits(format, spec)) << spec.width() << "x" << spec.height();
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : kSizes)
          for (const Placement& p : placements(format)) {
            const Border border = border_of(mode);
            const testing::Difference diff = run_vs_reference(
                w, h, format, spec, border, separable_fixed(spec, border, lab::FixedShapeId::Tuned), p);
            EXPECT_TRUE(diff.within(u8_tolerance(format)))
                << format.name() << " mask " << spec.width() << "x" << spec.height() << " " << to_string(mode) << " "
                << w << "x" << h << " " << describe(p) << ": " << diff.describe();
          }
    }
}

// The other launch shapes (rows loaded 0 or 2 ahead, 8-pixel gray threads, fixed
// strips, other register caps): the same kernel code paths, so a subset of radii, on
// every format, border, size and placement, plus a tall image cut into many strips.
TEST(FixedPointKernel, EveryLaunchShape) {
  std::vector<FilterSpec> specs;
  for (int r : {1, 2, 4}) {
    GaussianParams g{0.4 + 0.5 * r, r};
    g.alpha = AlphaMode::Separate;
    specs.push_back(gaussian_spec(g));
    specs.push_back(box_spec(BoxParams{2 * r + 1, 2 * r + 1, AlphaMode::Separate}));
  }
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);
  for (const NamedShape& shape : kLabShapes)
    for (const PixelFormat format : kFormats)
      for (const FilterSpec& spec : specs) {
        ASSERT_TRUE(kernels::separable_fixed_fits(format, spec));
        for (BorderMode mode : all_border_modes())
          for (const auto& [w, h] : sizes)
            for (const Placement& p : placements(format)) {
              const Border border = border_of(mode);
              const testing::Difference diff =
                  run_vs_reference(w, h, format, spec, border, separable_fixed(spec, border, shape.id), p);
              EXPECT_TRUE(diff.within(u8_tolerance(format)))
                  << "separable_fixed_" << shape.name << " " << format.name() << " mask " << spec.width() << "x"
                  << spec.height()
                  << " " << to_string(mode) << " " << w << "x" << h << " " << describe(p) << ": "
                  << diff.describe();
            }
      }
}

// An image of 8K width: many blocks, and the word path across whole rows.
TEST(FixedPointKernel, WideImage) {
  GaussianParams g{1.0, 2};
  g.alpha = AlphaMode::Separate;
  for (const PixelFormat format : kFormats) {
    const testing::Difference diff =
        run_vs_reference(7680, 40, format, gaussian_spec(g), Border{BorderMode::Reflect101}, FilterVariant::Auto, {});
    EXPECT_TRUE(diff.within(u8_tolerance(format))) << format.name() << ": " << diff.describe();
  }
}

// separable_packed's masks: those of both window kernels, and the radii only it takes
// (5 and 6: the blur op's default sigma 2 is 13x13), Gaussians and boxes.
std::vector<FilterSpec> packed_kernel_specs() {
  std::vector<FilterSpec> specs = window_kernel_specs();
  for (int r = kernels::SeparableFixedTuning::kMaxRadius + 1; r <= kernels::SeparablePackedTuning::kMaxRadius; ++r) {
    GaussianParams g{r / 3.0, r};
    g.alpha = AlphaMode::Separate;
    specs.push_back(gaussian_spec(g));
    specs.push_back(box_spec(BoxParams{2 * r + 1, 2 * r + 1, AlphaMode::Separate}));
  }
  return specs;
}

// separable_packed (1-, 3- and 4-channel images): every radius and arithmetic (Gaussians:
// shifted; square boxes: plain sums; other boxes: divided), every border, size and
// placement, plus gray sub-views whose rows start on a word (the word path at an offset)
// and a tall image cut into many strips.
TEST(PackedKernel, EveryRadiusFormatBorderAndPlacement) {
  std::vector<FilterSpec> specs = packed_kernel_specs();
  GaussianParams tiny{0.1, 1};  // a 1x1 mask in effect
  tiny.alpha = AlphaMode::Separate;
  specs.push_back(gaussian_spec(tiny));
  specs.push_back(box_spec(BoxParams{5, 3, AlphaMode::Separate}));
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);
  sizes.emplace_back(256, 3);
  for (const PixelFormat format : kFormats)
    for (const FilterSpec& spec : specs) {
      ASSERT_EQ(applied_variant(spec, format, FilterVariant::SeparablePacked), FilterVariant::SeparablePacked)
          << spec.width() << "x" << spec.height();
      std::vector<Placement> where = placements(format);
      if (format.channels == 1) where.insert(where.end(), {{4, 8}, {8, 4}});
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : sizes)
          for (const Placement& p : where) {
            const testing::Difference diff =
                run_vs_reference(w, h, format, spec, border_of(mode), FilterVariant::SeparablePacked, p);
            EXPECT_TRUE(diff.within(u8_tolerance(format)))
                << "separable_packed " << format.name() << " mask " << spec.width() << "x" << spec.height() << " "
                << to_string(mode) << " " << w << "x" << h << " " << describe(p) << ": " << diff.describe();
          }
    }
}

// separable_packed on premultiplied RGBA (the blur and box ops' default alpha mode):
// every radius, weighted and box arithmetic, every border (the constant's colours are
// premultiplied too), size and placement, with a share of transparent pixels, whose
// neighbours' colours must not leak in.
TEST(PackedKernel, PremultipliedRgba) {
  const PixelFormat rgba{ChannelType::U8, 4};
  std::vector<FilterSpec> specs;
  for (const FilterSpec& separate : packed_kernel_specs()) {
    FilterSpec premultiplied = separate;
    premultiplied.alpha = AlphaMode::Premultiply;
    specs.push_back(premultiplied);
  }
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);
  sizes.emplace_back(7680, 24);
  for (const FilterSpec& spec : specs) {
    ASSERT_EQ(applied_variant(spec, rgba, FilterVariant::SeparablePacked), FilterVariant::SeparablePacked)
        << spec.width() << "x" << spec.height();
    for (BorderMode mode : all_border_modes())
      for (const auto& [w, h] : sizes)
        for (const Placement& p : placements(rgba)) {
          const testing::Difference diff = run_vs_reference(w, h, rgba, spec, border_of(mode),
                                                            FilterVariant::SeparablePacked, p, /*transparent=*/true);
          EXPECT_TRUE(diff.within(u8_tolerance(rgba)))
              << "separable_packed premultiplied mask " << spec.width() << "x" << spec.height() << " "
              << to_string(mode) << " " << w << "x" << h << " " << describe(p) << ": " << diff.describe();
        }
  }
}

// 8K wide: many blocks and warps, the word path across whole rows, as the bench runs it.
TEST(PackedKernel, WideImage) {
  GaussianParams g{1.0, 2};
  g.alpha = AlphaMode::Separate;
  for (const PixelFormat format : kFormats)
    for (const FilterSpec& spec : {gaussian_spec(g), box_spec(BoxParams{5, 5, AlphaMode::Separate})}) {
      const testing::Difference diff = run_vs_reference(7680, 70, format, spec, Border{BorderMode::Reflect101},
                                                        FilterVariant::SeparablePacked, {});
      EXPECT_TRUE(diff.within(u8_tolerance(format))) << format.name() << ": " << diff.describe();
    }
}

TEST(GradientIntKernel, EveryOperatorFormatBorderAndPlacement) {
  for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Prewitt})
    for (double scale : {1.0, 0.25, -2.0})
      for (AlphaMode alpha : {AlphaMode::Keep, AlphaMode::Separate}) {
        EdgeParams params;
        params.op = op;
        params.scale = scale;
        params.alpha = alpha;
        const FilterSpec spec = edge_spec(params);
        for (const PixelFormat format : kFormats) {
          ASSERT_EQ(applied_variant(spec, format, FilterVariant::Auto), FilterVariant::GradientInt);
          if (format.channels != 4 && alpha == AlphaMode::Separate) continue;  // the same as Keep
          for (BorderMode mode : all_border_modes())
            for (const auto& [w, h] : kSizes)
              for (const Placement& p : placements(format)) {
                const testing::Difference diff =
                    run_vs_reference(w, h, format, spec, border_of(mode), FilterVariant::GradientInt, p);
                EXPECT_TRUE(diff.within(u8_tolerance(format)))
                    << format.name() << " operator " << static_cast<int>(op) << " scale " << scale << " "
                    << to_string(alpha) << " " << to_string(mode) << " " << w << "x" << h << " " << describe(p)
                    << ": " << diff.describe();
              }
        }
      }
}

TEST(GradientIntKernel, EveryLaunchShape) {
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);
  for (const NamedShape& shape : kWalkShapes)
    for (AlphaMode alpha : {AlphaMode::Keep, AlphaMode::Separate}) {
      EdgeParams params;
      params.op = EdgeOperator::Sobel;
      params.alpha = alpha;
      const FilterSpec spec = edge_spec(params);
      for (const PixelFormat format : kFormats) {
        ASSERT_TRUE(kernels::gradient_int_fits(format, spec));
        if (format.channels != 4 && alpha == AlphaMode::Separate) continue;  // the same as Keep
        for (BorderMode mode : all_border_modes())
          for (const auto& [w, h] : sizes)
            for (const Placement& p : placements(format)) {
              const Border border = border_of(mode);
              const testing::Difference diff =
                  run_vs_reference(w, h, format, spec, border, gradient_int_shape(spec, border, shape.id), p);
              EXPECT_TRUE(diff.within(u8_tolerance(format)))
                  << "gradient_int_" << shape.name << " " << format.name() << " " << to_string(alpha) << " "
                  << to_string(mode) << " " << w << "x" << h << " " << describe(p) << ": " << diff.describe();
            }
      }
    }
}

// Masks integer_3x3 runs: the default convolve mask with a bias, emboss, the Laplacian,
// a 1x3 and a 3x1 derivative, a 1x1 gain, the largest weight at a corner, and random
// masks of integer weights (magnitudes summing to at most 62, some zero).
std::vector<std::pair<std::string, FilterSpec>> integer_3x3_specs(AlphaMode alpha) {
  const auto mask = [alpha](const std::string& text, double bias) {
    ConvolveParams params;
    params.mask = parse_mask(text);
    params.bias = bias;
    params.alpha = alpha;
    return convolve_spec(params);
  };
  std::vector<std::pair<std::string, FilterSpec>> specs = {
      {"sharpen+0.2", mask("0 -1 0; -1 5 -1; 0 -1 0", 0.2)}, {"dx", mask("-3 0 3", 0.0)},
      {"dy-0.4", mask("1; 0; -1", -0.4)}, {"gain", mask("2", 0.0)}, {"corner", mask("0 0 0; 0 0 0; 0 0 62", -1.0)}};
  EmbossParams emboss;
  emboss.alpha = alpha;
  specs.emplace_back("emboss", emboss_spec(emboss));
  EdgeParams laplacian;
  laplacian.op = EdgeOperator::Laplacian;
  laplacian.alpha = alpha;
  specs.emplace_back("laplacian", edge_spec(laplacian));
  std::mt19937 random(42);
  for (int m = 0; m < 3; ++m) {
    std::string text;
    int budget = 62;
    for (int k = 0; k < 9; ++k) {
      const int most = std::min(budget, 12);
      const int w = static_cast<int>(random() % static_cast<unsigned>(2 * most + 1)) - most;
      budget -= std::abs(w);
      text += std::to_string(w) + (k == 8 ? "" : k % 3 == 2 ? "; " : " ");
    }
    specs.emplace_back("random " + text, mask(text, 0.0));
  }
  return specs;
}

// Exact integer sums: the same outputs as the reference wherever no division rounds
// (premultiplied colours divide by the filtered alpha: within the op's tolerance).
TEST(Integer3x3Kernel, EveryMaskFormatAlphaBorderAndPlacement) {
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);  // many strips
  for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep})
    for (const auto& [name, spec] : integer_3x3_specs(alpha))
      for (const PixelFormat format : kFormats) {
        if (format.channels != 4 && alpha != AlphaMode::Premultiply) continue;  // the same as premultiplied
        ASSERT_EQ(applied_variant(spec, format, FilterVariant::Auto), FilterVariant::Integer3x3) << name;
        const bool divides = format.channels == 4 && alpha == AlphaMode::Premultiply;
        const Tolerance tolerance = divides ? find_operation("convolve")->tolerance(format) : Tolerance{0.0};
        for (BorderMode mode : all_border_modes())
          for (const auto& [w, h] : sizes)
            for (const Placement& p : placements(format)) {
              const testing::Difference diff =
                  run_vs_reference(w, h, format, spec, border_of(mode), FilterVariant::Integer3x3, p, divides);
              EXPECT_TRUE(diff.within(tolerance)) << name << " " << format.name() << " " << to_string(alpha) << " "
                                                  << to_string(mode) << " " << w << "x" << h << " " << describe(p)
                                                  << ": " << diff.describe();
            }
      }
}

// The lab's shapes of the same kernel (the serial one runs the tuned shape): one mask a
// alpha mode, every format, border, size and placement.
TEST(Integer3x3Kernel, EveryLaunchShape) {
  std::vector<std::pair<int, int>> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.emplace_back(70, 1000);
  for (const NamedShape& shape : kWalkShapes)
    for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep}) {
      const FilterSpec spec = integer_3x3_specs(alpha)[0].second;
      for (const PixelFormat format : kFormats) {
        if (format.channels != 4 && alpha != AlphaMode::Premultiply) continue;  // the same as premultiplied
        const bool divides = format.channels == 4 && alpha == AlphaMode::Premultiply;
        const Tolerance tolerance = divides ? find_operation("convolve")->tolerance(format) : Tolerance{0.0};
        for (BorderMode mode : all_border_modes())
          for (const auto& [w, h] : sizes)
            for (const Placement& p : placements(format)) {
              const Border border = border_of(mode);
              const Launch launch = [&](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
                lab::launch_integer_3x3_shape(src, dst, spec, lab::representable(border, src.format), shape.id, ctx);
              };
              const testing::Difference diff = run_vs_reference(w, h, format, spec, border, launch, p, divides);
              EXPECT_TRUE(diff.within(tolerance))
                  << "integer_3x3_" << shape.name << " " << format.name() << " " << to_string(alpha) << " "
                  << to_string(mode) << " " << w << "x" << h << " " << describe(p) << ": " << diff.describe();
            }
      }
    }
}

// An 8K-wide image: many thread blocks across, each output as the reference's.
TEST(Integer3x3Kernel, WideImage) {
  ConvolveParams params;
  params.mask = parse_mask("0 -1 0; -1 5 -1; 0 -1 0");
  for (const PixelFormat format : kFormats) {
    const testing::Difference diff = run_vs_reference(7680, 40, format, convolve_spec(params),
                                                      Border{BorderMode::Reflect101}, FilterVariant::Integer3x3, {});
    EXPECT_TRUE(diff.within(find_operation("convolve")->tolerance(format))) << format.name() << ": " << diff.describe();
  }
}

}  // namespace
}  // namespace gpufilter::gpu_fixed_point_test
