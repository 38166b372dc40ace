// The histogram's CPU path (Operation::run_cpu_data) against its reference: counts equal,
// for every format, bin count and range (the format's own, inside it, around it), on
// sizes of one pixel, a few rows and several row bands, whole images and sub-views, and on
// the samples where the bin rule decides: the range's ends, NaN and infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_check.hpp"

namespace gpufilter::cpu_histogram_test {
namespace {

const Operation& histogram_op() { return *find_operation("histogram"); }

// The reference's counts and the CPU path's for `src` with `given` (resolved).
void expect_same_counts(const ImageView& src, const ParamValues& given) {
  const Operation& op = histogram_op();
  const ParamValues params = op.resolve(given);
  const std::size_t cells = op.data_layout(ImageShape{src.width, src.height, src.format}, params).size();
  std::vector<double> expected(cells, -1.0), actual(cells, std::numeric_limits<double>::quiet_NaN());
  op.run_reference_data(src, expected.data(), params);
  op.run_data_on_cpu(src, actual.data(), params);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < cells; ++i)
    ASSERT_EQ(actual[i], expected[i]) << "cell " << i << " (bin " << i / static_cast<std::size_t>(src.format.channels)
                                      << ", channel " << i % static_cast<std::size_t>(src.format.channels) << ")";
}

// Bin counts and ranges, as fractions of the format's top value where given.
std::vector<ParamValues> parameter_sets(PixelFormat format) {
  const double top = format.max_value();
  std::vector<ParamValues> sets;
  for (double bins : {1.0, 7.0, 256.0, 1000.0, 65536.0}) {
    sets.push_back({{"bins", bins}});
    sets.push_back({{"bins", bins}, {"range", std::vector<double>{0.1 * top, 0.7 * top}}});
    sets.push_back({{"bins", bins}, {"range", std::vector<double>{-0.3 * top, 1.2 * top}}});
  }
  sets.push_back({{"bins", 3.0}, {"range", std::vector<double>{0.0, top}}});  // the top value in the last bin
  return sets;
}

std::string set_name(const ParamValues& values) {
  std::string name = "bins " + std::to_string(static_cast<int>(values.number("bins")));
  if (values.has("range"))
    name += " range " + std::to_string(values.numbers("range")[0]) + "," + std::to_string(values.numbers("range")[1]);
  return name;
}

TEST(CpuHistogram, TheCpuPathIsOne) { EXPECT_TRUE(histogram_op().run_cpu_data); }

TEST(CpuHistogram, EqualsTheReferenceOnRandomImages) {
  using Size = testing::CaseSize;
  for (const PixelFormat& format : histogram_op().formats)
    for (Size size : {Size{1, 1}, Size{17, 13}, Size{67, 157}})
      for (bool subview : {false, true}) {
        HostImage parent(size.width + (subview ? testing::kMarginX : 0), size.height + (subview ? testing::kMarginY : 0),
                         format);
        testing::fill_random(parent.view(), 2024u + static_cast<std::uint64_t>(size.width));
        const ImageView src = testing::case_input(parent.view(), size, subview);
        for (const ParamValues& values : parameter_sets(format)) {
          SCOPED_TRACE(format.name() + " " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                       (subview ? " sub-view " : " ") + set_name(values));
          expect_same_counts(src, values);
        }
      }
}

// Floats where the rule decides: the ends of the range, a value a step below the top,
// values outside, NaN and the infinities (not counted), negative zero.
TEST(CpuHistogram, FloatEdgesCountAsTheReferenceCounts) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> values = {0.0f, -0.0f, 1.0f, std::nextafter(1.0f, 0.0f), 0.5f, 0.25f, 1e-30f, -1e-30f,
                                     1.0000001f, -0.5f, 2.0f, nan, inf, -inf, 0.1f, 0.3f, 0.7f, 0.999f};
  for (int channels : {1, 3, 4}) {
    const PixelFormat format{ChannelType::F32, channels};
    HostImage image(static_cast<int>(values.size()), 5, format);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < image.view().width; ++x)
        for (int c = 0; c < channels; ++c)
          image.view().row<float>(y)[x * channels + c] = values[static_cast<std::size_t>(x + y + c) % values.size()];
    for (const ParamValues& given : std::vector<ParamValues>{{{"bins", 10.0}},
                                                             {{"bins", 3.0}},
                                                             {{"bins", 7.0}, {"range", std::vector<double>{0.1, 0.7}}},
                                                             {{"bins", 65536.0}, {"range", std::vector<double>{-1.0, 1.0}}}}) {
      SCOPED_TRACE(format.name() + " " + set_name(given));
      expect_same_counts(image.view(), given);
    }
  }
}

}  // namespace
}  // namespace gpufilter::cpu_histogram_test
