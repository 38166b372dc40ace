// The CPU reference checked against what it must agree with: OpenCV's GaussianBlur
// and borderInterpolate, and a direct 2-D convolution written here.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "mat_views.hpp"
#include "common/border_index.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::reference_vs_opencv_test {
namespace {

int cv_border(BorderMode mode) {
  switch (mode) {
    case BorderMode::Constant: return cv::BORDER_CONSTANT;
    case BorderMode::Replicate: return cv::BORDER_REPLICATE;
    case BorderMode::Reflect: return cv::BORDER_REFLECT;
    case BorderMode::Reflect101: return cv::BORDER_REFLECT_101;
    case BorderMode::Wrap: return cv::BORDER_WRAP;
  }
  return -1;
}

TEST(BorderIndex, MatchesOpenCvBorderInterpolate) {
  for (BorderMode mode : {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap})
    for (int n = 1; n <= 7; ++n)
      for (int i = -40; i < 40; ++i)
        ASSERT_EQ(reference::border_index(i, n, mode), cv::borderInterpolate(i, n, cv_border(mode)))
            << to_string(mode) << " i=" << i << " n=" << n;
  for (int i = -3; i < 10; ++i)
    EXPECT_EQ(reference::border_index(i, 5, BorderMode::Constant), (i >= 0 && i < 5) ? i : -1);
}

struct OpenCvCase {
  PixelFormat format;
  BorderMode border;
  int width, height;
  double sigma;
  int radius;
};

class ReferenceVsOpenCv : public ::testing::TestWithParam<OpenCvCase> {};

// OpenCV blurs 8-bit images in fixed point, so its u8 results sit within one level
// of the exact value; float images agree to rounding.
TEST_P(ReferenceVsOpenCv, GaussianBlurAgrees) {
  const OpenCvCase& c = GetParam();
  const int type = CV_MAKETYPE(testing::cv_depth(c.format.type), c.format.channels);
  cv::Mat src(c.height, c.width, type), ours(c.height, c.width, type), theirs;
  testing::fill_random(testing::view_of(src, c.format), 42u);
  GaussianParams params{c.sigma, c.radius};
  params.alpha = AlphaMode::Separate;  // OpenCV filters every channel alone
  Border border;
  border.mode = c.border;  // OpenCV's constant border is 0
  reference::gaussian_blur(testing::view_of(src, c.format), testing::view_of(ours, c.format), params, border);
  const int ksize = 2 * params.effective_radius() + 1;
  cv::GaussianBlur(src, theirs, cv::Size(ksize, ksize), c.sigma, c.sigma, cv_border(c.border));
  const testing::Difference diff =
      testing::compare(testing::view_of(ours, c.format), testing::view_of(theirs, c.format));
  EXPECT_LE(diff.max_abs, c.format.type == ChannelType::F32 ? 1e-5 : 1.0) << diff.describe();
}

std::vector<OpenCvCase> opencv_cases() {
  std::vector<OpenCvCase> cases;
  for (const PixelFormat& format : all_pixel_formats())
    for (BorderMode border : {BorderMode::Constant, BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101}) {
      cases.push_back({format, border, 37, 23, 1.5, 0});
      cases.push_back({format, border, 64, 9, 1.0, 2});
      cases.push_back({format, border, 5, 3, 2.0, 4});  // mask wider than the image
    }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllFormats, ReferenceVsOpenCv, ::testing::ValuesIn(opencv_cases()),
                         [](const ::testing::TestParamInfo<OpenCvCase>& param_info) {
                           const OpenCvCase& c = param_info.param;
                           return c.format.name() + "_" + to_string(c.border) + "_" + std::to_string(c.width) + "x" +
                                  std::to_string(c.height) + "_r" + std::to_string(c.radius);
                         });

// Every border mode (wrap too, which cv::GaussianBlur lacks) against a direct 2-D
// convolution over cv::borderInterpolate, with a non-zero constant.
TEST(Reference, SeparableEqualsDirect2D) {
  const PixelFormat format{ChannelType::F32, 3};
  const int width = 11, height = 6;
  const GaussianParams params{1.7, 4};
  cv::Mat src(height, width, CV_32FC3), ours(height, width, CV_32FC3);
  testing::fill_random(testing::view_of(src, format), 5u);
  const int r = params.effective_radius();
  std::vector<double> w;
  for (int k = -r; k <= r; ++k) w.push_back(std::exp(-0.5 * k * k / (params.sigma * params.sigma)));
  double total = 0.0;
  for (double v : w) total += v;
  for (BorderMode mode : all_border_modes()) {
    Border border;
    border.mode = mode;
    border.value = {0.25, 0.5, 0.75, 1.0};
    reference::gaussian_blur(testing::view_of(src, format), testing::view_of(ours, format), params, border);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < 3; ++c) {
          double sum = 0.0;
          for (int j = -r; j <= r; ++j)
            for (int k = -r; k <= r; ++k) {
              const int sx = cv::borderInterpolate(x + k, width, cv_border(mode));
              const int sy = cv::borderInterpolate(y + j, height, cv_border(mode));
              const double v = (sx < 0 || sy < 0) ? border.value[static_cast<std::size_t>(c)]
                                                  : src.at<cv::Vec3f>(sy, sx)[c];
              sum += w[static_cast<std::size_t>(j + r)] * w[static_cast<std::size_t>(k + r)] * v;
            }
          ASSERT_NEAR(ours.at<cv::Vec3f>(y, x)[c], sum / (total * total), 1e-5)
              << to_string(mode) << " at (" << x << ", " << y << ") channel " << c;
        }
  }
}

// The filters OpenCV also has, on float input as OpenCV's float path computes them and
// then rounded to the format (OpenCV's own 8-bit paths use fixed point): ours must agree
// within one level for integers and to float rounding for float.
struct FilterVsOpenCv {
  const char* name;
  FilterSpec spec;
  std::function<void(const cv::Mat& src_float, cv::Mat& out_float, int border)> opencv;
};

std::vector<FilterVsOpenCv> filters_vs_opencv() {
  const auto separate = [](FilterSpec spec) {
    spec.alpha = AlphaMode::Separate;
    return spec;
  };
  const Mask custom = parse_mask("1 0 -2 1 0.5; 0 3 1 -1 0; -0.5 1 2 0 1");  // 5x3, not rank 1
  ConvolveParams convolve_params{custom, false, 0.25};
  EdgeParams sobel_x{EdgeOperator::Sobel, EdgeDirection::X};
  EdgeParams scharr_y{EdgeOperator::Scharr, EdgeDirection::Y};
  EdgeParams magnitude{EdgeOperator::Sobel, EdgeDirection::Both};
  EdgeParams laplacian{EdgeOperator::Laplacian, EdgeDirection::Both};
  const auto mat_of = [](const Mask& m) {
    cv::Mat k(m.height, m.width, CV_32F);
    for (int j = 0; j < m.height; ++j)
      for (int i = 0; i < m.width; ++i) k.at<float>(j, i) = m.at(i, j);
    return k;
  };
  return {
      {"box5x3", separate(box_spec(BoxParams{5, 3})),
       [](const cv::Mat& s, cv::Mat& o, int b) { cv::blur(s, o, cv::Size(5, 3), cv::Point(-1, -1), b); }},
      {"sobel_x", separate(edge_spec(sobel_x)),
       [](const cv::Mat& s, cv::Mat& o, int b) { cv::Sobel(s, o, CV_32F, 1, 0, 3, 1, 0, b); }},
      {"scharr_y", separate(edge_spec(scharr_y)),
       [](const cv::Mat& s, cv::Mat& o, int b) { cv::Scharr(s, o, CV_32F, 0, 1, 1, 0, b); }},
      {"sobel_magnitude", separate(edge_spec(magnitude)),
       [](const cv::Mat& s, cv::Mat& o, int b) {
         cv::Mat dx, dy;
         cv::Sobel(s, dx, CV_32F, 1, 0, 3, 1, 0, b);
         cv::Sobel(s, dy, CV_32F, 0, 1, 3, 1, 0, b);
         cv::sqrt(dx.mul(dx) + dy.mul(dy), o);
       }},
      {"laplacian", separate(edge_spec(laplacian)),
       [](const cv::Mat& s, cv::Mat& o, int b) { cv::Laplacian(s, o, CV_32F, 1, 1, 0, b); }},
      {"convolve", separate(convolve_spec(convolve_params)),
       [custom, mat_of](const cv::Mat& s, cv::Mat& o, int b) {
         cv::filter2D(s, o, CV_32F, mat_of(custom), cv::Point(-1, -1), 0, b);
       }},
      {"emboss", separate(emboss_spec(EmbossParams{"se", 2.0})),
       [mat_of](const cv::Mat& s, cv::Mat& o, int b) {
         cv::filter2D(s, o, CV_32F, mat_of(emboss_spec(EmbossParams{"se", 2.0}).masks[0]), cv::Point(-1, -1), 0, b);
       }},
  };
}

TEST(Reference, FiltersAgreeWithOpenCvFloatPaths) {
  const std::vector<FilterVsOpenCv> filters = filters_vs_opencv();
  int compared = 0;
  for (const FilterVsOpenCv& f : filters)
    for (const PixelFormat& format : all_pixel_formats())
      for (BorderMode mode : {BorderMode::Constant, BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101}) {
        SCOPED_TRACE(std::string(f.name) + " " + format.name() + " " + to_string(mode));
        const int type = CV_MAKETYPE(testing::cv_depth(format.type), format.channels);
        cv::Mat src(19, 23, type), ours(19, 23, type), src_float, theirs_float, theirs;
        testing::fill_random(testing::view_of(src, format), 77u);
        Border border;
        border.mode = mode;  // OpenCV's constant border is 0
        reference::apply_filter(testing::view_of(src, format), testing::view_of(ours, format), f.spec, border);
        src.convertTo(src_float, CV_MAKETYPE(CV_32F, format.channels));
        f.opencv(src_float, theirs_float, cv_border(mode));
        const double max = format.type == ChannelType::F32 ? 1.0 : format.max_value();
        if (f.spec.output == FilterOutput::Linear && f.spec.bias != 0.0)
          theirs_float += cv::Scalar::all(f.spec.bias * max);
        theirs_float.convertTo(theirs, type);  // rounds and saturates like a stored pixel
        const testing::Difference diff =
            testing::compare(testing::view_of(ours, format), testing::view_of(theirs, format));
        EXPECT_LE(diff.max_abs, format.type == ChannelType::F32 ? 1e-4 : 1.0) << diff.describe();
        ++compared;
      }
  EXPECT_EQ(compared, static_cast<int>(filters.size() * all_pixel_formats().size() * 4));
}

// Premultiplied alpha: a transparent pixel's colour must not bleed into its opaque
// neighbours (no dark fringe), and an opaque image filters as if it had no alpha.
TEST(Reference, PremultipliedAlphaHasNoFringes) {
  const PixelFormat rgba{ChannelType::U8, 4};
  cv::Mat src(1, 3, CV_8UC4), out(1, 3, CV_8UC4);
  src.at<cv::Vec4b>(0, 0) = {200, 100, 50, 255};
  src.at<cv::Vec4b>(0, 1) = {0, 0, 0, 0};  // transparent black
  src.at<cv::Vec4b>(0, 2) = {200, 100, 50, 255};
  reference::apply_filter(testing::view_of(src, rgba), testing::view_of(out, rgba), box_spec(BoxParams{3, 1}),
                          Border{BorderMode::Replicate});
  EXPECT_EQ(out.at<cv::Vec4b>(0, 1), cv::Vec4b(200, 100, 50, 170)) << "the hole takes its neighbours' colour";
  EXPECT_EQ(out.at<cv::Vec4b>(0, 0), cv::Vec4b(200, 100, 50, 170));
  BoxParams separate{3, 1};
  separate.alpha = AlphaMode::Separate;
  reference::apply_filter(testing::view_of(src, rgba), testing::view_of(out, rgba), box_spec(separate),
                          Border{BorderMode::Replicate});
  EXPECT_EQ(out.at<cv::Vec4b>(0, 1), cv::Vec4b(133, 67, 33, 170)) << "separate channels darken towards the hole";
  BoxParams keep{3, 1};
  keep.alpha = AlphaMode::Keep;
  reference::apply_filter(testing::view_of(src, rgba), testing::view_of(out, rgba), box_spec(keep),
                          Border{BorderMode::Replicate});
  EXPECT_EQ(out.at<cv::Vec4b>(0, 1)[3], 0) << "keep copies the input's alpha";
}

TEST(Reference, CopyIsExactOnSubviews) {
  cv::Mat src(9, 13, CV_16UC3), dst(9, 13, CV_16UC3, cv::Scalar::all(7));
  const PixelFormat format{ChannelType::U16, 3};
  testing::fill_random(testing::view_of(src, format), 8u);
  reference::copy(testing::view_of(src, format).subview(2, 1, 5, 4), testing::view_of(dst, format).subview(6, 3, 5, 4));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 5; ++x) ASSERT_EQ(dst.at<cv::Vec3w>(y + 3, x + 6), src.at<cv::Vec3w>(y + 1, x + 2));
  EXPECT_EQ(dst.at<cv::Vec3w>(0, 0), cv::Vec3w(7, 7, 7));
}

// cv::medianBlur filters every channel alone through a replicated border, with 3x3 and 5x5
// windows on 8-bit, 16-bit and float images and larger ones on 8-bit images only: the
// reference must give the same values, exactly.
TEST(Reference, MedianAgreesWithOpenCvMedianBlur) {
  int compared = 0;
  for (const PixelFormat& format : all_pixel_formats())
    for (int radius = 1; radius <= MedianParams::kMaxRadius; ++radius) {
      if (radius > 2 && format.type != ChannelType::U8) continue;  // OpenCV has no such case
      for (const cv::Size size : {cv::Size(37, 23), cv::Size(6, 4), cv::Size(1, 1)}) {
        SCOPED_TRACE(format.name() + " radius " + std::to_string(radius) + " " + std::to_string(size.width) + "x" +
                     std::to_string(size.height));
        const int type = CV_MAKETYPE(testing::cv_depth(format.type), format.channels);
        cv::Mat src(size, type), ours(size, type), theirs;
        testing::fill_random(testing::view_of(src, format), 31u + static_cast<unsigned>(radius));
        reference::median_filter(testing::view_of(src, format), testing::view_of(ours, format), MedianParams{radius},
                                 Border{BorderMode::Replicate});
        cv::medianBlur(src, theirs, 2 * radius + 1);
        const testing::Difference diff =
            testing::compare(testing::view_of(ours, format), testing::view_of(theirs, format));
        EXPECT_EQ(diff.max_abs, 0.0) << diff.describe();
        ++compared;
      }
    }
  EXPECT_EQ(compared, 3 * (2 * 9 + 3));
}

// The constant border takes part in the window as pixels of its own value, per channel.
TEST(Reference, MedianCountsTheConstantBorder) {
  const PixelFormat rgb{ChannelType::U8, 3};
  cv::Mat src(1, 1, CV_8UC3, cv::Scalar(200, 100, 50)), out(1, 1, CV_8UC3);
  Border border{BorderMode::Constant};
  border.value = {10.0, 100.0, 250.0, 0.0};
  reference::median_filter(testing::view_of(src, rgb), testing::view_of(out, rgb), MedianParams{1}, border);
  EXPECT_EQ(out.at<cv::Vec3b>(0, 0), cv::Vec3b(10, 100, 250)) << "eight of the nine values are the constant";
  reference::median_filter(testing::view_of(src, rgb), testing::view_of(out, rgb), MedianParams{1},
                           Border{BorderMode::Reflect});
  EXPECT_EQ(out.at<cv::Vec3b>(0, 0), cv::Vec3b(200, 100, 50));
  EXPECT_THROW(reference::median_filter(testing::view_of(src, rgb), testing::view_of(out, rgb), MedianParams{0}),
               Error);
}

}  // namespace
}  // namespace gpufilter::reference_vs_opencv_test
