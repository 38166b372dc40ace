// Every op with a fast CPU path (Operation::run_cpu) x format x border x parameter set x
// size x (whole image | sub-view | in place), against the CPU reference within the op's
// contract. The parameter sets are the op's test parameters, each variant's, and each
// value of every choice parameter (an alpha mode, an edge operator) and of every small
// whole-number one (a median's radius) in turn, so every
// branch of a fast path runs. Sizes: one pixel, one smaller than the test masks, and one
// of several row bands (the fast paths split the rows between threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_check.hpp"

namespace gpufilter::cpu_fast_path_test {
namespace {

using Size = testing::CaseSize;
enum class Placement { Whole, Sub, InPlace };

struct Case {
  const Operation* op;
  ParamValues params;
  std::string params_name;
  PixelFormat format;
  BorderMode border;
  Size size;
  Placement placement;
};

// The op's parameter sets: its test parameters, each variant's own, and the test
// parameters with each value of each choice parameter, by a name for the case.
std::vector<std::pair<std::string, ParamValues>> parameter_sets(const Operation& op) {
  std::vector<std::pair<std::string, ParamValues>> sets{{"test", op.test_params}};
  for (const auto& [variant, values] : op.variant_test_params) {
    const bool seen = std::any_of(sets.begin(), sets.end(), [&](const auto& set) { return set.second == values; });
    if (!seen) sets.push_back({variant, values});
  }
  for (const ParamSpec& param : op.params) {
    // Each value of a choice, and of a whole number with few values (a median's radius).
    std::vector<std::pair<std::string, ParamValue>> choices;
    if (param.kind == ParamKind::Choice)
      for (const std::string& choice : param.choices) choices.push_back({choice, choice});
    if (param.kind == ParamKind::Number && param.integer && param.max - param.min <= 3)
      for (double n = param.min; n <= param.max; ++n) choices.push_back({std::to_string(static_cast<int>(n)), n});
    for (const auto& [choice, value] : choices) {
      ParamValues values = op.test_params;
      values[param.name] = value;
      try {
        op.resolve(values);
      } catch (const Error&) {
        continue;  // a combination the op refuses
      }
      std::string name = param.name + "_" + choice;
      std::replace(name.begin(), name.end(), '-', '_');
      sets.push_back({name, values});
    }
  }
  return sets;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const Operation& op : operations()) {
    if (!op.run_cpu) continue;
    for (const auto& [params_name, values] : parameter_sets(op))
      for (const PixelFormat& format : op.formats)
        for (BorderMode border : all_border_modes()) {
          if (!op.uses_border && border != BorderMode::Reflect101) continue;
          for (Size size : {Size{1, 1}, Size{17, 13}, Size{67, 157}})
            for (Placement placement : {Placement::Whole, Placement::Sub, Placement::InPlace}) {
              const bool same_shape = op.output_shape_for(ImageShape{size.width, size.height, format},
                                                          op.resolve(values)) == ImageShape{size.width, size.height, format};
              if (placement == Placement::InPlace && !same_shape) continue;
              cases.push_back({&op, values, params_name, format, border, size, placement});
            }
        }
  }
  return cases;
}

std::string case_name(const Case& c) {
  std::string name = c.op->name + "_" + c.params_name + "_" + c.format.name();
  if (c.op->uses_border) name += std::string("_") + to_string(c.border);
  const char* placement = c.placement == Placement::Whole ? "_whole" : c.placement == Placement::Sub ? "_sub" : "_inplace";
  return name + "_" + std::to_string(c.size.width) + "x" + std::to_string(c.size.height) + placement;
}

class CpuFastPath : public ::testing::TestWithParam<Case> {};

TEST_P(CpuFastPath, MatchesReference) {
  const Case& c = GetParam();
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(c.params);
  const Border border = testing::conformance_border(c.border, c.format);
  const bool subview = c.placement == Placement::Sub;
  HostImage parent(c.size.width + (subview ? testing::kMarginX : 0), c.size.height + (subview ? testing::kMarginY : 0),
                   c.format);
  testing::fill_random(parent.view(), 4321u + static_cast<std::uint32_t>(c.size.width * 7 + c.size.height));
  const ImageView src = testing::case_input(parent.view(), c.size, subview);
  const ImageShape out = op.output_shape_for(ImageShape{c.size.width, c.size.height, c.format}, params);
  HostImage expected(out.width, out.height, out.format);
  op.run_reference(src, expected.view(), params, border);
  const Tolerance tolerance = op.tolerance_for(c.format, op.default_variant, params);

  if (c.placement == Placement::InPlace) {
    op.run_cpu(src, src, params, border);
    const testing::Difference diff = testing::compare(src, expected.view(), tolerance);
    EXPECT_TRUE(diff.within(tolerance)) << diff.describe();
    return;
  }
  testing::GuardedDestination dst(subview, expected.view());
  op.run_cpu(src, dst.view(), params, border);
  dst.check(tolerance);
}

INSTANTIATE_TEST_SUITE_P(Registry, CpuFastPath, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return case_name(param_info.param); });

// `op` on a random width x height image of `format` with `params` (resolved): its CPU
// path against its reference.
testing::Difference cpu_path_against_reference(const Operation& op, PixelFormat format, int width, int height,
                                               const ParamValues& params, std::uint32_t seed) {
  HostImage src(width, height, format);
  testing::fill_random(src.view(), seed);
  const ImageShape out = op.output_shape_for(ImageShape{width, height, format}, params);
  HostImage expected(out.width, out.height, out.format), actual(out.width, out.height, out.format);
  op.run_reference(src.view(), expected.view(), params, Border{});
  op.run_cpu(src.view(), actual.view(), params, Border{});
  return testing::compare(actual.view(), expected.view());
}

// The generated cases shrink (resize's test parameters); enlarging takes other taps (and
// OpenCV's 8-bit fixed-point paths, which the fast path avoids): each filter at 1.7x and a
// mixed --size, every format, against the reference within the contract.
TEST(CpuFastPathResize, EnlargingKeepsTheContract) {
  const Operation& resize = *find_operation("resize");
  const std::vector<ParamValues> enlargements = {{{"scale", 1.7}}, {{"size", std::vector<double>{40, 9}}, {"exact", 1.0}}};
  for (const std::string& filter : resize.find_param("filter")->choices)
    for (ParamValues given : enlargements)
      for (const PixelFormat& format : resize.formats) {
        given["filter"] = filter;
        const ParamValues params = resize.resolve(given);
        SCOPED_TRACE(filter + " " + format.name() + (given.has("size") ? " 40x9 exact" : " scale 1.7"));
        const testing::Difference diff = cpu_path_against_reference(resize, format, 23, 17, params, 77u);
        EXPECT_TRUE(diff.within(resize.tolerance_for(format, resize.default_variant, params))) << diff.describe();
      }
}

// Every filter and format at whole and fractional factors, shrinking and enlarging, with
// the two axes apart, from a sub-view into a guarded sub-view: OpenCV's taps where the
// fast path takes them, the reference's in float elsewhere (8-bit interpolation, integer
// area by whole factors, nearest), 2x2 means where it halves an integer image. Exactly
// half is where OpenCV turns linear into its integer area shortcut, a third and a quarter
// other whole shrink factors, 1 the identity.
TEST(CpuFastPathResize, EveryFilterAtScalesUpAndDown) {
  const Operation& resize = *find_operation("resize");
  std::vector<ParamValues> sizes;
  for (double scale : {0.25, 1.0 / 3.0, 0.37, 0.5, 0.8, 1.0, 1.5, 2.0, 2.3, 3.0}) sizes.push_back({{"scale", scale}});
  sizes.push_back({{"size", std::vector<double>{30, 94}}, {"exact", 1.0}});  // narrower, taller
  sizes.push_back({{"size", std::vector<double>{150, 20}}, {"exact", 1.0}});  // wider, shorter
  for (const std::string& filter : resize.find_param("filter")->choices)
    for (ParamValues given : sizes)
      for (const PixelFormat& format : resize.formats)
        for (Size size : {Size{60, 47}, Size{64, 48}}) {  // 64x48 halves exactly
        given["filter"] = filter;
        const ParamValues params = resize.resolve(given);
        const std::string scale_name = given.has("scale") ? "scale " + std::to_string(given.number("scale"))
                                                          : "size " + std::to_string(static_cast<int>(given.numbers("size")[0]));
        SCOPED_TRACE(filter + " " + format.name() + " " + scale_name + " from " + std::to_string(size.width) + "x" +
                     std::to_string(size.height));
        HostImage parent(size.width + testing::kMarginX, size.height + testing::kMarginY, format);
        testing::fill_random(parent.view(), 314u);
        const ImageView src = testing::case_input(parent.view(), size, true);
        const ImageShape out = resize.output_shape_for(ImageShape{size.width, size.height, format}, params);
        HostImage expected(out.width, out.height, out.format);
        resize.run_reference(src, expected.view(), params, Border{});
        testing::GuardedDestination dst(true, expected.view());
        resize.run_cpu(src, dst.view(), params, Border{});
        dst.check(resize.tolerance_for(format, resize.default_variant, params));
      }
}

// The 3x3 median's own network reads the first and last column through the border map
// and the rest straight from the rows: images of two and three columns or rows, where
// every pixel is an edge pixel, and one wide row, every format and border.
TEST(CpuFastPathMedian, NarrowImagesKeepTheContract) {
  const Operation& median = *find_operation("median");
  const ParamValues params = median.resolve({{"radius", 1.0}});
  for (const PixelFormat& format : median.formats)
    for (BorderMode mode : all_border_modes())
      for (Size size : {Size{2, 1}, Size{1, 2}, Size{2, 5}, Size{3, 2}, Size{5, 3}, Size{3, 7}, Size{200, 1}}) {
        SCOPED_TRACE(format.name() + " " + to_string(mode) + " " + std::to_string(size.width) + "x" +
                     std::to_string(size.height));
        const Border border = testing::conformance_border(mode, format);
        HostImage src(size.width, size.height, format), expected(size.width, size.height, format);
        testing::fill_random(src.view(), 55u + static_cast<std::uint32_t>(size.width * 3 + size.height));
        median.run_reference(src.view(), expected.view(), params, border);
        testing::GuardedDestination dst(false, expected.view());
        median.run_cpu(src.view(), dst.view(), params, border);
        dst.check(Tolerance{0.0});
      }
}

// The generated cases turn by 90 degrees (rotate's test parameters): every quarter turn,
// either sign, every format, exactly the reference's pixels.
TEST(CpuFastPathRotate, EveryQuarterTurnMovesThePixels) {
  const Operation& rotate = *find_operation("rotate");
  for (double angle : {-270.0, -180.0, -90.0, 0.0, 90.0, 180.0, 270.0, 360.0})
    for (const PixelFormat& format : rotate.formats) {
      const ParamValues params = rotate.resolve({{"angle", angle}});
      SCOPED_TRACE(std::to_string(angle) + " " + format.name());
      EXPECT_TRUE(cpu_path_against_reference(rotate, format, 37, 70, params, 91u).within(Tolerance{0.0}));
    }
}

// A registry change that drops an op's fast path falls back to the reference silently,
// at a tenth of the speed or less.
TEST(CpuFastPathCoverage, TheOpsWithOneKeepIt) {
  for (const char* name : {"blur", "box", "sharpen", "edge", "emboss", "convolve", "median", "transpose", "rotate",
                           "flip", "resize", "invert", "brightness", "contrast", "gamma", "levels", "gray",
                           "equalize", "threshold", "normalize"}) {
    const Operation* op = find_operation(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_TRUE(op->run_cpu) << name << " runs the reference on the CPU";
  }
}

}  // namespace
}  // namespace gpufilter::cpu_fast_path_test
