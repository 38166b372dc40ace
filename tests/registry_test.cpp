// The registry's promises, checked for every op it holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "invalid_argument.hpp"

namespace gpufilter::registry_test {
namespace {

using testing::invalid_argument_message;

TEST(Registry, EveryOperationIsComplete) {
  ASSERT_FALSE(operations().empty());
  std::set<std::string> names;
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    EXPECT_TRUE(names.insert(op.name).second) << "duplicate op name";
    EXPECT_EQ(find_operation(op.name), &op);
    EXPECT_FALSE(op.summary.empty());
    EXPECT_FALSE(op.variants.empty());
    EXPECT_TRUE(op.has_variant(op.default_variant));
    EXPECT_FALSE(op.formats.empty());
    EXPECT_TRUE(op.bytes_moved);
    // The GPU side (run_gpu, run_gpu_data) is libgpufilter's: tests/gpu_bindings_test.cpp.
    if (op.produces_image()) {
      EXPECT_TRUE(op.run_reference && op.tolerance);
    } else {
      EXPECT_TRUE(op.data_layout && op.run_reference_data && op.data_tolerance);
      const ImageShape input{16, 8, op.formats.front()};
      const DataLayout layout = op.data_layout(input, op.resolve(op.test_params));
      EXPECT_GT(layout.size(), 0u);
      for (const std::string& column : layout.columns) EXPECT_FALSE(column.empty());
    }
    for (const ParamSpec& p : op.params) {
      EXPECT_LE(p.min, p.max) << p.name;
      EXPECT_FALSE(p.help.empty()) << p.name;
      if (p.default_value) {
        ParamValues given = op.test_params;
        given[p.name] = *p.default_value;
        EXPECT_NO_THROW(op.resolve(given)) << p.name << "'s default";
      } else {
        EXPECT_FALSE(p.default_text.empty()) << p.name << " has neither a default nor its description";
      }
      if (p.kind == ParamKind::Choice) {
        EXPECT_FALSE(p.choices.empty()) << p.name;
      }
    }
    EXPECT_NO_THROW(op.resolve(op.bench_params));
    EXPECT_NO_THROW(op.resolve(op.test_params));
    EXPECT_GT(op.bytes_moved(16, 8, op.formats.front(), op.resolve(op.test_params)), 0u);
  }
  EXPECT_EQ(find_operation("no-such-op"), nullptr);
}

// The op files register themselves (no list names them): every one of the library's
// factories ran, and the registry orders what they gave by group, then by name.
TEST(Registry, EveryOpFileRegisteredItsOpsInGroupAndNameOrder) {
  for (const char* name : {"copy", "blur", "box", "sharpen", "edge", "emboss", "convolve", "transpose", "rotate",
                           "flip", "crop", "resize", "stats", "histogram", "equalize", "threshold", "normalize",
                           "median", "invert", "gamma", "gray", "convert", "planar"})
    EXPECT_NE(find_operation(name), nullptr) << name;
  const std::vector<Operation>& all = operations();
  std::set<OperationGroup> groups;
  for (std::size_t i = 0; i < all.size(); ++i) {
    groups.insert(all[i].group);
    EXPECT_STRNE(to_string(all[i].group), "Other") << all[i].name;
    if (i == 0) continue;
    const Operation& before = all[i - 1];
    EXPECT_TRUE(before.group < all[i].group || (before.group == all[i].group && before.name < all[i].name))
        << before.name << " is listed before " << all[i].name;
  }
  EXPECT_EQ(groups.size(), 5u) << "every group has an op";
  EXPECT_EQ(find_operation("median")->group, OperationGroup::Filters);
  EXPECT_EQ(find_operation("resize")->group, OperationGroup::Geometry);
  EXPECT_EQ(find_operation("gray")->group, OperationGroup::Formats);
}

TEST(Registry, ResolveFillsDefaultsAndRejectsBadValues) {
  const Operation* blur = find_operation("blur");
  ASSERT_NE(blur, nullptr);
  const ParamValues defaults = blur->resolve({});
  EXPECT_EQ(defaults.count("sigma"), 0u) << "sigma's default (2) is the op's, so --geometry can replace it";
  EXPECT_EQ(defaults.count("radius"), 0u) << "radius is derived from sigma when not given";
  EXPECT_EQ(defaults.text("alpha"), "premultiply");
  EXPECT_EQ(blur->resolve({{"radius", 4}}).number("radius"), 4.0);
  EXPECT_THROW(blur->resolve({{"sigma", -1.0}}), Error);
  EXPECT_THROW(blur->resolve({{"sigma", 0.0}}), Error);
  EXPECT_THROW(blur->resolve({{"sigma", NAN}}), Error);
  EXPECT_THROW(blur->resolve({{"radius", 2.5}}), Error);
  EXPECT_THROW(blur->resolve({{"radius", 1000}}), Error);
  EXPECT_THROW(blur->resolve({{"size", 3}}), Error);
  const std::string message = invalid_argument_message([&] { blur->resolve({{"sigma", 5000.0}}); });
  EXPECT_NE(message.find("sigma"), std::string::npos) << message;
  EXPECT_NE(message.find("5000"), std::string::npos) << message;
}

// resize's --size P% is --scale P/100 (ImageMagick's -resize 50%), through the registry,
// so the CLI and the bindings read it alike.
TEST(Registry, APercentageSetsTheParameterItNames) {
  const Operation* resize = find_operation("resize");
  ASSERT_NE(resize, nullptr);
  const ParamSpec* size = resize->find_param("size");
  ASSERT_NE(size, nullptr);
  EXPECT_EQ(size->percent_sets, "scale");
  const ParamValues half = resize->resolve({{"size", size->parse("50%")}});
  EXPECT_EQ(half.count("size"), 0u);
  EXPECT_EQ(half.number("scale"), 0.5);
  EXPECT_EQ(resize->output_shape_for(ImageShape{101, 40, {ChannelType::U8, 3}}, half).width, 51);
  EXPECT_THROW(size->parse("abc%"), Error);
  EXPECT_THROW(resize->resolve({{"size", size->parse("50%")}, {"scale", 2.0}}), Error) << "both given";
  EXPECT_THROW(resize->resolve({{"size", size->parse("50x20%")}}), Error) << "one percentage";
  EXPECT_THROW(resize->resolve({{"size", size->parse("0%")}}), Error) << "out of --scale's range";
  const Operation* box = find_operation("box");
  ASSERT_NE(box, nullptr);
  EXPECT_THROW(box->find_param("size")->parse("50%"), Error) << "an op without a percentage";
}

// How far an output pixel reads, for chunked runs (Dask's map_overlap depth): the masks'
// half sizes, median's radius, nothing for a point op, no bound for a whole-image op.
TEST(Registry, TheReachOfAnOpIsItsHalfWindow) {
  const auto reach_of = [](const std::string& name, const ParamValues& given) {
    const Operation* op = find_operation(name);
    if (op == nullptr || !op->reach) throw std::runtime_error(name + " has no reach");
    return op->reach(op->resolve(given));
  };
  EXPECT_EQ(reach_of("blur", {{"sigma", 2.0}}), (std::array<int, 2>{6, 6}));
  EXPECT_EQ(reach_of("blur", {{"sigma", 1.0}, {"sigma-y", 3.0}}), (std::array<int, 2>{3, 9}));
  EXPECT_EQ(reach_of("blur", {{"radius", 2}}), (std::array<int, 2>{2, 2}));
  EXPECT_EQ(reach_of("box", {{"size", std::vector<double>{5, 3}}}), (std::array<int, 2>{2, 1}));
  EXPECT_EQ(reach_of("median", {{"radius", 3}}), (std::array<int, 2>{3, 3}));
  EXPECT_EQ(reach_of("edge", {}), (std::array<int, 2>{1, 1}));
  EXPECT_EQ(reach_of("convolve", {{"kernel", "1 2 1 2 1"}}), (std::array<int, 2>{2, 0}));
  EXPECT_EQ(reach_of("invert", {}), (std::array<int, 2>{0, 0}));
  for (const char* whole_image : {"equalize", "resize", "rotate", "stats"})
    EXPECT_FALSE(find_operation(whole_image)->reach) << whole_image;
  // Every op that reads a border has a reach.
  for (const Operation& op : operations()) {
    if (op.uses_border) {
      EXPECT_TRUE(op.reach) << op.name;
    }
  }
}

TEST(Registry, TypedParametersParseAndCheck) {
  const Operation* box = find_operation("box");
  const Operation* edge = find_operation("edge");
  const Operation* blur = find_operation("blur");
  const Operation* convolve = find_operation("convolve");
  ASSERT_TRUE(box && edge && blur && convolve);
  const ParamSpec* size = box->find_param("size");
  ASSERT_NE(size, nullptr);
  EXPECT_EQ(std::get<std::vector<double>>(size->parse("5x3")), (std::vector<double>{5, 3}));
  EXPECT_EQ(std::get<std::vector<double>>(size->parse("7")), (std::vector<double>{7}));
  EXPECT_THROW(size->parse("5xx3"), Error);
  EXPECT_THROW(box->resolve({{"size", std::vector<double>{5, 3, 1}}}), Error) << "three numbers";
  EXPECT_THROW(box->resolve({{"size", std::vector<double>{4}}}), Error) << "even size";
  EXPECT_THROW(box->resolve({{"size", std::vector<double>{5}}, {"radius", 2}}), Error) << "both given";
  EXPECT_THROW(box->resolve({{"size", 5.0}}), Error) << "a number where a list is taken";
  const std::string choice = invalid_argument_message([&] { edge->resolve({{"operator", "canny"}}); });
  EXPECT_NE(choice.find("canny"), std::string::npos) << choice;
  EXPECT_NE(choice.find("sobel"), std::string::npos) << "the message names the choices: " << choice;
  EXPECT_THROW(edge->resolve({{"operator", "laplacian"}, {"direction", "x"}}), Error);
  EXPECT_NO_THROW(edge->resolve({{"operator", "laplacian"}}));
  EXPECT_THROW(blur->resolve({{"geometry", std::vector<double>{0, 2}}, {"sigma", 1.0}}), Error);
  EXPECT_NO_THROW(blur->resolve({{"geometry", std::vector<double>{0, 2}}}));
  EXPECT_THROW(convolve->resolve({}), Error) << "no mask";
  EXPECT_THROW(convolve->resolve({{"kernel", "1 2; 3 4"}}), Error) << "even sizes";
  EXPECT_THROW(convolve->resolve({{"kernel", "1 2 3; 4 5"}}), Error) << "ragged rows";
  EXPECT_THROW(convolve->resolve({{"kernel", "1 x 3"}}), Error) << "not a number";
  EXPECT_THROW(convolve->resolve({{"kernel", "1 -1 0"}, {"normalize", 1.0}}), Error) << "sum 0";
  EXPECT_THROW(convolve->resolve({{"kernel-file", "/no/such/mask.txt"}}), Error);
}

TEST(Registry, MasksFromTheirParameters) {
  const Mask mask = parse_mask("# a comment\n1, 2, 1\n2 4 2 ; 1 2 1\n");
  EXPECT_EQ(mask.width, 3);
  EXPECT_EQ(mask.height, 3);
  EXPECT_EQ(mask.weights, (std::vector<float>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
  EXPECT_FALSE(separate(mask).x.empty()) << "an outer product is rank 1";
  EXPECT_TRUE(separate(parse_mask("0 -1 0; -1 5 -1; 0 -1 0")).x.empty()) << "the sharpen mask is not";
  const FilterSpec box = box_spec(BoxParams{5, 3});
  EXPECT_EQ(box.width(), 5);
  EXPECT_EQ(box.height(), 3);
  EXPECT_TRUE(box.convex);
  const FilterSpec sobel = edge_spec(EdgeParams{EdgeOperator::Sobel, EdgeDirection::X});
  EXPECT_EQ(sobel.masks[0].weights, (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1})) << "as cv::Sobel(dx=1)";
  const FilterSpec flat = emboss_spec(EmbossParams{"nw", 0.0});
  EXPECT_EQ(flat.masks[0].weights, (std::vector<float>{0, 0, 0, 0, 1, 0, 0, 0, 0})) << "strength 0 is the identity";
  const FilterSpec anisotropic = gaussian_spec(GaussianParams{3.0, 0, 1.0});
  EXPECT_EQ(anisotropic.width(), 19);
  EXPECT_EQ(anisotropic.height(), 7);
}

TEST(Registry, RadiusZeroMeansAutomaticEverywhere) {
  const Operation* blur = find_operation("blur");
  ASSERT_NE(blur, nullptr);
  EXPECT_EQ(blur->resolve({{"radius", 0}}).number("radius"), 0.0);
  EXPECT_EQ((GaussianParams{2.0, 0}.effective_radius()), 6);
  const std::string message = invalid_argument_message([&] { blur->resolve({{"radius", -1}}); });
  EXPECT_NE(message.find("[0"), std::string::npos) << "the range shown must admit 0: " << message;
}

// This program links the host-only core (tests/CMakeLists.txt): every op, no kernel.
TEST(Registry, TheHostOnlyCoreHasNoGpuSide) {
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    EXPECT_FALSE(op.run_gpu || op.run_gpu_data || op.applied_variant);
  }
}

TEST(Registry, UnknownVariantNamesAreErrors) {
  EXPECT_THROW(filter_variant_from_name("Tiled"), Error);
  EXPECT_EQ(filter_variant_from_name("naive"), FilterVariant::Naive);
  for (FilterVariant variant : all_filter_variants()) EXPECT_EQ(filter_variant_from_name(to_string(variant)), variant);
  EXPECT_EQ(copy_variant_from_name("scalar"), CopyVariant::Scalar);
}

TEST(Registry, MedianTakesRadiiOneToThree) {
  const Operation* median = find_operation("median");
  ASSERT_NE(median, nullptr);
  EXPECT_TRUE(median->uses_border);
  EXPECT_EQ(median->resolve({}).number("radius"), 1.0);
  EXPECT_NO_THROW(median->resolve({{"radius", MedianParams::kMaxRadius}}));
  EXPECT_THROW(median->resolve({{"radius", 0}}), Error);
  EXPECT_THROW(median->resolve({{"radius", MedianParams::kMaxRadius + 1}}), Error);
  EXPECT_THROW(median->resolve({{"radius", 1.5}}), Error);
  for (const PixelFormat& format : all_pixel_formats()) EXPECT_EQ(median->tolerance(format).max_abs, 0.0);
  EXPECT_EQ(median->default_variant, "auto");
  for (MedianVariant variant : all_median_variants()) {
    EXPECT_TRUE(median->has_variant(to_string(variant)));
    EXPECT_EQ(median_variant_from_name(to_string(variant)), variant);
  }
  EXPECT_THROW(median_variant_from_name("Tiled"), Error);
}

TEST(GaussianWeights, NormalisedSymmetricAndSized) {
  for (double sigma : {0.1, 0.8, 2.0, 10.0, 100.0}) {
    const GaussianParams params{sigma, 0};
    const std::vector<float> w = gaussian_weights(params);
    ASSERT_EQ(static_cast<int>(w.size()), 2 * params.effective_radius() + 1);
    EXPECT_EQ(params.effective_radius(), static_cast<int>(std::ceil(3 * sigma)));
    double sum = 0;
    for (float v : w) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-6);
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_FLOAT_EQ(w[i], w[w.size() - 1 - i]);
    EXPECT_GT(w[w.size() / 2], w.front());
  }
  EXPECT_THROW(gaussian_weights(GaussianParams{0.0, 0}), Error);
  EXPECT_THROW(gaussian_weights(GaussianParams{1.0, GaussianParams::kMaxRadius + 1}), Error);
  EXPECT_THROW(gaussian_weights(GaussianParams{GaussianParams::kMaxSigma * 1.01, 0}), Error);
}

// Premultiplied sharpening and convolving divide colours by an alpha that can come out near
// 0: those ops compare colours premultiplied again, blur (convex) and 3-channel runs as they
// are.
TEST(Registry, ColoursAreComparedPremultipliedWhereAMaskCanCancel) {
  const PixelFormat rgba{ChannelType::U16, 4};
  for (const char* name : {"sharpen", "convolve"}) {
    const Operation& op = *find_operation(name);
    ParamValues given;
    if (op.name == "convolve") given = {{"kernel", "0 -1 0; -1 5 -1; 0 -1 0"}};
    const auto with_alpha = [&](const char* alpha) {
      ParamValues values = given;
      values["alpha"] = std::string(alpha);
      return op.resolve(values);
    };
    EXPECT_TRUE(op.tolerance_for(rgba, "auto", with_alpha("premultiply")).colours_by_alpha) << name;
    EXPECT_FALSE(op.tolerance_for(rgba, "auto", with_alpha("separate")).colours_by_alpha) << name;
    EXPECT_FALSE(op.tolerance_for(PixelFormat{ChannelType::U16, 3}, "auto", op.resolve(given)).colours_by_alpha) << name;
  }
  const Operation& sharpen = *find_operation("sharpen");
  EXPECT_TRUE(sharpen.tolerance_for(rgba, "auto", {{"sigma", 1.2}}).colours_by_alpha)
      << "parameters not yet resolved take their defaults (premultiply)";
  const Operation& blur = *find_operation("blur");
  EXPECT_FALSE(blur.tolerance_for(rgba, "auto", blur.resolve({{"alpha", "premultiply"}})).colours_by_alpha);
}

// One u16x4 pixel against another, compared with colours premultiplied.
testing::Difference premultiplied_difference(std::array<std::uint16_t, 4> got, std::array<std::uint16_t, 4> expected) {
  const PixelFormat rgba{ChannelType::U16, 4};
  HostImage a(1, 1, rgba), e(1, 1, rgba);
  std::copy(got.begin(), got.end(), a.view().row<std::uint16_t>(0));
  std::copy(expected.begin(), expected.end(), e.view().row<std::uint16_t>(0));
  return testing::compare(a.view(), e.view(), /*colours_by_alpha=*/true);
}

TEST(Registry, PremultipliedComparisonWeighsColoursByTheirAlpha) {
  EXPECT_EQ(premultiplied_difference({1003, 0, 0, 65535}, {1000, 0, 0, 65535}).max_abs, 3.0)
      << "an opaque pixel's colour counts in full";
  EXPECT_NEAR(premultiplied_difference({60040, 0, 0, 1000}, {60000, 0, 0, 1000}).max_abs, 40.0 * 1000 / 65535, 1e-9)
      << "a nearly transparent pixel's colour counts as much as it adds to the image";
  EXPECT_EQ(premultiplied_difference({0, 0, 0, 100}, {50000, 0, 0, 120}).max_abs, 20.0)
      << "below twice the unpremultiply threshold, colours are not compared; alpha is";
  EXPECT_NEAR(premultiplied_difference({65535, 0, 0, 30001}, {65535, 0, 0, 30000}).max_abs, 1.0, 1e-9)
      << "an integer colour counts times the expected alpha: a rounded alpha moves no colour";
  // Float colours beyond the range, each times its own alpha: the sums the op divided.
  const PixelFormat f32x4{ChannelType::F32, 4};
  HostImage got(1, 1, f32x4), expected(1, 1, f32x4);
  const float got_pixel[4] = {1779.32f, 0, 0, 0.0100001f}, expected_pixel[4] = {1779.11f, 0, 0, 0.0100013f};
  std::copy(got_pixel, got_pixel + 4, got.view().row<float>(0));
  std::copy(expected_pixel, expected_pixel + 4, expected.view().row<float>(0));
  EXPECT_LT(testing::compare(got.view(), expected.view(), true).max_abs, 1e-4);
  EXPECT_GT(testing::compare(got.view(), expected.view(), false).max_abs, 0.2);
}

}  // namespace
}  // namespace gpufilter::registry_test
