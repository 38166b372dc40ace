// The registry's promises, checked for every op it holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "gpufilter/gpufilter.hpp"

namespace gpufilter {
namespace {

// The message of the Error(InvalidArgument) that `call` throws; a test failure when it
// throws none, or another kind.
template <class Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no Error was thrown";
  return {};
}

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
    EXPECT_TRUE(op.run_gpu && op.run_reference && op.tolerance && op.bytes_moved);
    for (const ParamSpec& p : op.params) {
      EXPECT_LE(p.min, p.max) << p.name;
      EXPECT_FALSE(p.help.empty()) << p.name;
      if (p.default_value) {
        EXPECT_NO_THROW(op.resolve({{p.name, *p.default_value}})) << p.name << "'s default";
      } else {
        EXPECT_FALSE(p.default_text.empty()) << p.name << " has neither a default nor its description";
      }
      if (p.kind == ParamKind::Choice) {
        EXPECT_FALSE(p.choices.empty()) << p.name;
      }
    }
    EXPECT_NO_THROW(op.resolve(op.bench_params));
    EXPECT_NO_THROW(op.resolve(op.test_params));
    EXPECT_GT(op.bytes_moved(16, 8, op.formats.front(), op.resolve({})), 0u);
  }
  EXPECT_EQ(find_operation("no-such-op"), nullptr);
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

TEST(Registry, RadiusZeroMeansAutomaticEverywhere) {
  const Operation* blur = find_operation("blur");
  ASSERT_NE(blur, nullptr);
  EXPECT_EQ(blur->resolve({{"radius", 0}}).number("radius"), 0.0);
  EXPECT_EQ((GaussianParams{2.0, 0}.effective_radius()), 6);
  const std::string message = invalid_argument_message([&] { blur->resolve({{"radius", -1}}); });
  EXPECT_NE(message.find("[0"), std::string::npos) << "the range shown must admit 0: " << message;
}

TEST(Registry, UnknownVariantNamesAreErrors) {
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    const std::string message = invalid_argument_message([&] {
      op.run_gpu(ImageView{}, ImageView{}, op.resolve(op.test_params), Border{}, "no-such-variant", ExecContext{});
    });
    EXPECT_NE(message.find("no-such-variant"), std::string::npos) << message;
  }
  EXPECT_THROW(filter_variant_from_name("Tiled"), Error);
  EXPECT_EQ(filter_variant_from_name("naive"), FilterVariant::Naive);
  for (FilterVariant variant : all_filter_variants()) EXPECT_EQ(filter_variant_from_name(to_string(variant)), variant);
  EXPECT_EQ(copy_variant_from_name("scalar"), CopyVariant::Scalar);
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

}  // namespace
}  // namespace gpufilter
