// The stats and histogram references checked against OpenCV (cv::meanStdDev,
// cv::minMaxLoc, cv::calcHist) and against small cases worked out by hand.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "mat_views.hpp"

namespace gpufilter::reduction_reference_test {
namespace {

double at(const std::vector<double>& stats, int c, StatsColumn column) {
  return stats[static_cast<std::size_t>(c * kStatsColumns + static_cast<int>(column))];
}

std::vector<double> reference_stats(const ImageView& view) {
  std::vector<double> stats(static_cast<std::size_t>(view.format.channels) * kStatsColumns);
  reference::image_stats(view, stats.data());
  return stats;
}

struct StatsCase {
  PixelFormat format;
  int width, height;
};

class StatsReferenceVsOpenCv : public ::testing::TestWithParam<StatsCase> {};

// A sub-view (odd offsets into a larger Mat) of random values.
TEST_P(StatsReferenceVsOpenCv, Agrees) {
  const StatsCase& c = GetParam();
  const int type = CV_MAKETYPE(testing::cv_depth(c.format.type), c.format.channels);
  cv::Mat whole(c.height + 3, c.width + 5, type);
  testing::fill_random(testing::view_of(whole, c.format), 7u + static_cast<unsigned>(c.width));
  cv::Mat roi = whole(cv::Rect(3, 1, c.width, c.height));
  const ImageView view{roi.data, roi.cols, roi.rows, roi.step[0], c.format};
  const std::vector<double> ours = reference_stats(view);

  cv::Scalar mean, stddev;
  cv::meanStdDev(roi, mean, stddev);
  std::vector<cv::Mat> planes;
  cv::split(roi, planes);
  const double rel = c.format.type == ChannelType::F32 ? 1e-7 : 1e-9;
  for (int ch = 0; ch < c.format.channels; ++ch) {
    double lo = 0, hi = 0;
    cv::Point lo_at, hi_at;
    cv::minMaxLoc(planes[static_cast<std::size_t>(ch)], &lo, &hi, &lo_at, &hi_at);
    EXPECT_EQ(at(ours, ch, StatsColumn::Min), lo) << c.format.name() << " channel " << ch;
    EXPECT_EQ(at(ours, ch, StatsColumn::Max), hi) << c.format.name() << " channel " << ch;
    EXPECT_EQ(at(ours, ch, StatsColumn::MinX), lo_at.x) << c.format.name() << " channel " << ch;
    EXPECT_EQ(at(ours, ch, StatsColumn::MinY), lo_at.y) << c.format.name() << " channel " << ch;
    EXPECT_EQ(at(ours, ch, StatsColumn::MaxX), hi_at.x) << c.format.name() << " channel " << ch;
    EXPECT_EQ(at(ours, ch, StatsColumn::MaxY), hi_at.y) << c.format.name() << " channel " << ch;
    EXPECT_NEAR(at(ours, ch, StatsColumn::Mean), mean[ch], rel * std::abs(mean[ch]) + 1e-12)
        << c.format.name() << " channel " << ch;
    EXPECT_NEAR(at(ours, ch, StatsColumn::StdDev), stddev[ch], rel * std::abs(stddev[ch]) + 1e-12)
        << c.format.name() << " channel " << ch;
    const double sum = cv::sum(planes[static_cast<std::size_t>(ch)])[0];
    EXPECT_NEAR(at(ours, ch, StatsColumn::Sum), sum, rel * std::abs(sum)) << c.format.name() << " channel " << ch;
  }
}

std::vector<StatsCase> stats_cases() {
  std::vector<StatsCase> cases;
  for (const PixelFormat format : all_pixel_formats())
    for (const auto& size : {std::pair{1, 1}, std::pair{17, 13}, std::pair{301, 207}})
      cases.push_back({format, size.first, size.second});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Formats, StatsReferenceVsOpenCv, ::testing::ValuesIn(stats_cases()),
                         [](const ::testing::TestParamInfo<StatsCase>& param_info) {
                           return param_info.param.format.name() + "_" + std::to_string(param_info.param.width) + "x" +
                                  std::to_string(param_info.param.height);
                         });

// Worked by hand: ties go to the first pixel in row-major order.
TEST(StatsReference, HandCase) {
  // 4 x 2 gray: 5 2 9 2 / 9 7 2 1 -> min 1 at (3,1); max 9 first at (2,0).
  std::uint8_t pixels[8] = {5, 2, 9, 2, 9, 7, 2, 1};
  const ImageView view{pixels, 4, 2, 4, PixelFormat{ChannelType::U8, 1}};
  const std::vector<double> s = reference_stats(view);
  EXPECT_EQ(at(s, 0, StatsColumn::Min), 1);
  EXPECT_EQ(at(s, 0, StatsColumn::MinX), 3);
  EXPECT_EQ(at(s, 0, StatsColumn::MinY), 1);
  EXPECT_EQ(at(s, 0, StatsColumn::Max), 9);
  EXPECT_EQ(at(s, 0, StatsColumn::MaxX), 2);
  EXPECT_EQ(at(s, 0, StatsColumn::MaxY), 0);
  EXPECT_EQ(at(s, 0, StatsColumn::Sum), 37);
  EXPECT_DOUBLE_EQ(at(s, 0, StatsColumn::Mean), 37.0 / 8);
  // sum of squares 25+4+81+4+81+49+4+1 = 249; variance 249/8 - (37/8)^2 = 623/64.
  EXPECT_DOUBLE_EQ(at(s, 0, StatsColumn::StdDev), std::sqrt(623.0 / 64));

  // Equal minima in two rows: the upper row's wins, whatever its x.
  std::uint16_t wide[6] = {4, 4, 0, 0, 4, 4};
  const std::vector<double> t = reference_stats(ImageView{wide, 3, 2, 6, PixelFormat{ChannelType::U16, 1}});
  EXPECT_EQ(at(t, 0, StatsColumn::MinX), 2);
  EXPECT_EQ(at(t, 0, StatsColumn::MinY), 0);
  EXPECT_EQ(at(t, 0, StatsColumn::MaxX), 0);
  EXPECT_EQ(at(t, 0, StatsColumn::MaxY), 0);
}

TEST(StatsReference, ConstantImageHasNoSpread) {
  std::vector<float> pixels(5 * 3 * 3, 0.25f);
  const std::vector<double> s = reference_stats(ImageView{pixels.data(), 5, 3, 5 * 3 * sizeof(float),
                                                          PixelFormat{ChannelType::F32, 3}});
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(at(s, c, StatsColumn::StdDev), 0.0);
    EXPECT_EQ(at(s, c, StatsColumn::Mean), 0.25);
    EXPECT_EQ(at(s, c, StatsColumn::MinX), 0);
    EXPECT_EQ(at(s, c, StatsColumn::MaxY), 0);
  }
}

TEST(StatsReference, ReadBackHelper) {
  std::vector<double> raw(2 * kStatsColumns);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<double>(i);
  const std::vector<ChannelStats> s = read_image_stats(raw.data(), 2);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].min, 9.0);
  EXPECT_EQ(s[1].stddev, 13.0);
  EXPECT_EQ(s[1].max_y, 17);
  EXPECT_EQ(stats_column_names().size(), static_cast<std::size_t>(kStatsColumns));
}

// ---- histogram ----------------------------------------------------------------------

std::vector<double> reference_histogram(const ImageView& view, const HistogramParams& params) {
  std::vector<double> counts(static_cast<std::size_t>(params.bins) * view.format.channels);
  reference::histogram(view, counts.data(), params);
  return counts;
}

// OpenCV's uniform ranges are [lo, hi) with hi excluded; random u8/u16 values and f32
// values in [0, 1) never reach hi, so the two agree.
TEST(HistogramReference, MatchesCalcHist) {
  for (const PixelFormat format : all_pixel_formats()) {
    const int type = CV_MAKETYPE(testing::cv_depth(format.type), format.channels);
    cv::Mat whole(131, 97, type);
    testing::fill_random(testing::view_of(whole, format), 11u);
    cv::Mat roi = whole(cv::Rect(1, 2, 93, 127));
    const HistogramParams params = default_histogram_params(format);
    const std::vector<double> ours =
        reference_histogram(ImageView{roi.data, roi.cols, roi.rows, roi.step[0], format}, params);
    for (int c = 0; c < format.channels; ++c) {
      cv::Mat hist;
      const int channel[] = {c};
      const int bins[] = {params.bins};
      const float range[] = {static_cast<float>(params.lo), static_cast<float>(params.hi)};
      const float* ranges[] = {range};
      cv::calcHist(&roi, 1, channel, cv::Mat(), hist, 1, bins, ranges, true, false);
      for (int b = 0; b < params.bins; ++b)
        ASSERT_EQ(ours[static_cast<std::size_t>(b * format.channels + c)], hist.at<float>(b))
            << format.name() << " channel " << c << " bin " << b;
    }
  }
}

TEST(HistogramReference, HandCase) {
  // 3 bins over [0, 3]: 0 | 1 | 2, 3 (hi falls in the last bin); 4 is outside.
  std::uint16_t pixels[6] = {0, 1, 2, 3, 4, 2};
  const std::vector<double> counts =
      reference_histogram(ImageView{pixels, 6, 1, 12, PixelFormat{ChannelType::U16, 1}}, HistogramParams{3, 0, 3});
  EXPECT_EQ(counts, (std::vector<double>{1, 1, 3}));
  // Two channels, 2 bins over [0.5, 1.5]: bin-major layout.
  float values[6] = {0.5f, 1.5f, 1.0f, 0.0f, 0.75f, 1.25f};
  const std::vector<double> two = reference_histogram(
      ImageView{values, 2, 1, 24, PixelFormat{ChannelType::F32, 3}}, HistogramParams{2, 0.5, 1.5});
  // channel 0: 0.5, 0.0 (outside) -> bin 0: 1; channel 1: 1.5, 0.75 -> 1 each;
  // channel 2: 1.0, 1.25 -> bin 1: 2.
  EXPECT_EQ(two, (std::vector<double>{1, 1, 0, 0, 1, 2}));
  EXPECT_THROW(reference_histogram(ImageView{pixels, 6, 1, 12, PixelFormat{ChannelType::U16, 1}},
                                   HistogramParams{0, 0, 3}),
               Error);
}

TEST(ReductionRegistry, DataOpsDescribeTheirTables) {
  const Operation* stats = find_operation("stats");
  ASSERT_NE(stats, nullptr);
  EXPECT_FALSE(stats->produces_image());
  const DataLayout layout = stats->data_layout(ImageShape{8, 8, PixelFormat{ChannelType::U8, 3}}, {});
  EXPECT_EQ(layout.row_labels.size(), 3u);
  EXPECT_EQ(layout.columns.size(), static_cast<std::size_t>(kStatsColumns));
  const Operation* hist = find_operation("histogram");
  ASSERT_NE(hist, nullptr);
  const ParamValues params = hist->resolve({{"bins", 4}, {"range", std::vector<double>{0, 100}}});
  const DataLayout bins = hist->data_layout(ImageShape{8, 8, PixelFormat{ChannelType::U16, 4}}, params);
  EXPECT_EQ(bins.row_labels, (std::vector<std::string>{"0", "25", "50", "75"}));
  EXPECT_EQ(bins.columns.size(), 4u);
  EXPECT_TRUE(bins.chartable);
  EXPECT_THROW(hist->resolve({{"range", std::vector<double>{5, 5}}}), Error);
  for (const std::string& v : stats->variants) EXPECT_EQ(to_string(reduction_variant_from_name(v)), v);
  for (const std::string& v : hist->variants) EXPECT_EQ(to_string(histogram_variant_from_name(v)), v);
}

// ---- equalize, threshold, normalize ----------------------------------------------------

// A skewed u8 image (most values dark), so the tables are far from the identity.
cv::Mat skewed_image(int rows, int cols, int type, unsigned seed) {
  cv::Mat m(rows, cols, type);
  const PixelFormat format{ChannelType::U8, CV_MAT_CN(type)};
  testing::fill_random(testing::view_of(m, format), seed);
  cv::Mat samples = m.reshape(1);
  samples.forEach<std::uint8_t>(
      [](std::uint8_t& v, const int*) { v = static_cast<std::uint8_t>(v * v / 255 / 2 + 10); });
  return m;
}

ImageView view(cv::Mat& m) { return ImageView{m.data, m.cols, m.rows, m.step[0], PixelFormat{ChannelType::U8, m.channels()}}; }

TEST(ToneReference, EqualizeMatchesEqualizeHist) {
  for (const auto& size : {std::pair{1, 1}, std::pair{17, 13}, std::pair{640, 481}}) {
    cv::Mat whole = skewed_image(size.second + 2, size.first + 3, CV_8UC1, 5u);
    cv::Mat roi = whole(cv::Rect(3, 1, size.first, size.second));
    cv::Mat theirs, ours(roi.size(), CV_8UC1);
    cv::equalizeHist(roi, theirs);
    reference::equalize(view(roi), view(ours), EqualizeParams{});
    EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0) << size.first << "x" << size.second;
  }
  // One value: unchanged (OpenCV sets the image to that value).
  cv::Mat flat(5, 7, CV_8UC1, cv::Scalar(77)), out(5, 7, CV_8UC1), theirs;
  reference::equalize(view(flat), view(out), EqualizeParams{});
  cv::equalizeHist(flat, theirs);
  EXPECT_EQ(cv::norm(out, theirs, cv::NORM_INF), 0.0);
}

// Per channel it is equalizeHist on each plane; by luminance, a grey-valued colour
// image (B = G = R, so Y = the value) equalizes like its grey plane.
TEST(ToneReference, EqualizeColour) {
  cv::Mat src = skewed_image(37, 53, CV_8UC4, 9u), ours(src.size(), CV_8UC4);
  reference::equalize(view(src), view(ours), EqualizeParams{true});
  std::vector<cv::Mat> in, out;
  cv::split(src, in);
  cv::split(ours, out);
  for (int c = 0; c < 3; ++c) {
    cv::Mat expected;
    cv::equalizeHist(in[static_cast<std::size_t>(c)], expected);
    EXPECT_EQ(cv::norm(out[static_cast<std::size_t>(c)], expected, cv::NORM_INF), 0.0) << "channel " << c;
  }
  EXPECT_EQ(cv::norm(out[3], in[3], cv::NORM_INF), 0.0) << "alpha is copied";

  cv::Mat gray = skewed_image(29, 31, CV_8UC1, 3u), grey_colour, lum(29, 31, CV_8UC3), expected;
  cv::cvtColor(gray, grey_colour, cv::COLOR_GRAY2BGR);
  reference::equalize(view(grey_colour), view(lum), EqualizeParams{});
  cv::equalizeHist(gray, expected);
  cv::cvtColor(expected, expected, cv::COLOR_GRAY2BGR);
  EXPECT_EQ(cv::norm(lum, expected, cv::NORM_INF), 0.0);
}

TEST(ToneReference, ThresholdMatchesOpenCv) {
  for (int type : {CV_8UC1, CV_8UC3}) {
    cv::Mat src = skewed_image(41, 67, type, 4u), ours(src.size(), type), theirs;
    reference::threshold(view(src), view(ours), ThresholdParams{60, false});
    cv::threshold(src, theirs, 60, 255, cv::THRESH_BINARY);
    EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0);
  }
  for (unsigned seed : {1u, 2u, 3u}) {
    cv::Mat whole = skewed_image(203, 305, CV_8UC1, seed);
    cv::Mat src = whole(cv::Rect(1, 2, 301, 199)), ours(src.size(), CV_8UC1), theirs;
    reference::threshold(view(src), view(ours), ThresholdParams{0, true});
    const double t = cv::threshold(src, theirs, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0) << "Otsu's T " << t;
  }
}

TEST(ToneReference, NormalizeStretches) {
  // Without clipping: cv::normalize with NORM_MINMAX, within its rounding.
  cv::Mat src = skewed_image(33, 45, CV_8UC1, 8u), ours(src.size(), CV_8UC1), theirs;
  reference::normalize(view(src), view(ours), NormalizeParams{0.0});
  cv::normalize(src, theirs, 0, 255, cv::NORM_MINMAX);
  EXPECT_LE(cv::norm(ours, theirs, cv::NORM_INF), 1.0);
  double lo = 0, hi = 0;
  cv::minMaxLoc(ours, &lo, &hi);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 255.0);
  // By hand: 10 samples 0..9, clip 10%: one sample clipped at each end -> lo 1, hi 8.
  std::uint8_t ramp[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, out[10];
  const PixelFormat gray{ChannelType::U8, 1};
  reference::normalize(ImageView{ramp, 10, 1, 10, gray}, ImageView{out, 10, 1, 10, gray}, NormalizeParams{10.0});
  const std::uint8_t expected[10] = {0, 0, 36, 73, 109, 146, 182, 219, 255, 255};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

}  // namespace
}  // namespace gpufilter::reduction_reference_test
