// The geometry reference (transpose, quarter turns, flips, crop, resize) checked against
// OpenCV (cv::transpose, cv::rotate, cv::flip, cv::resize on float images), against itself (a transpose twice,
// four quarter turns) and on small cases written out by hand.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "mat_views.hpp"

namespace gpufilter::geometry_reference_test {
namespace {

struct Size {
  int width, height;
};
const Size kSizes[] = {{1, 1}, {1, 7}, {9, 1}, {17, 13}, {37, 103}};

cv::Mat random_mat(Size size, PixelFormat format, std::uint64_t seed) {
  cv::Mat mat(size.height, size.width, CV_MAKETYPE(testing::cv_depth(format.type), format.channels));
  testing::fill_random(testing::view_of(mat, format), seed);
  return mat;
}

// Exact equality of two views, with where they first differ.
void expect_equal(const ImageView& actual, const ImageView& expected, const std::string& what) {
  ASSERT_EQ(actual.width, expected.width) << what;
  ASSERT_EQ(actual.height, expected.height) << what;
  const testing::Difference diff = testing::compare(actual, expected);
  EXPECT_TRUE(diff.within(0.0)) << what << ": " << diff.describe();
}

std::string size_name(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

std::string name(PixelFormat format, Size size) {
  return format.name() + " " + std::to_string(size.width) + "x" + std::to_string(size.height);
}

TEST(GeometryReference, MatchesOpenCvTransposeRotateAndFlip) {
  for (const PixelFormat& format : all_pixel_formats())
    for (const Size size : kSizes) {
      cv::Mat src = random_mat(size, format, 7u + static_cast<std::uint64_t>(size.width));
      const ImageView in = testing::view_of(src, format);
      const int type = src.type();
      cv::Mat swapped(size.width, size.height, type), same(size.height, size.width, type), theirs;

      reference::transpose(in, testing::view_of(swapped, format));
      cv::transpose(src, theirs);
      expect_equal(testing::view_of(swapped, format), testing::view_of(theirs, format), "transpose " + name(format, size));

      const std::pair<int, int> turns[] = {{90, cv::ROTATE_90_CLOCKWISE}, {-90, cv::ROTATE_90_COUNTERCLOCKWISE},
                                           {270, cv::ROTATE_90_COUNTERCLOCKWISE}};
      for (const auto& [angle, code] : turns) {
        reference::rotate_quarter_turns(in, testing::view_of(swapped, format), angle);
        cv::rotate(src, theirs, code);
        expect_equal(testing::view_of(swapped, format), testing::view_of(theirs, format),
                     "rotate " + std::to_string(angle) + " " + name(format, size));
      }
      reference::rotate_quarter_turns(in, testing::view_of(same, format), 180);
      cv::rotate(src, theirs, cv::ROTATE_180);
      expect_equal(testing::view_of(same, format), testing::view_of(theirs, format), "rotate 180 " + name(format, size));

      const std::pair<FlipAxis, int> flips[] = {{FlipAxis::Horizontal, 1}, {FlipAxis::Vertical, 0}, {FlipAxis::Both, -1}};
      for (const auto& [axis, code] : flips) {
        reference::flip(in, testing::view_of(same, format), axis);
        cv::flip(src, theirs, code);
        expect_equal(testing::view_of(same, format), testing::view_of(theirs, format),
                     std::string("flip ") + to_string(axis) + " " + name(format, size));
      }
    }
}

// Sub-views (rows that start at odd byte offsets, pitch wider than a row) on both sides.
TEST(GeometryReference, WorksOnSubViews) {
  const PixelFormat format{ChannelType::U8, 3};
  cv::Mat big = random_mat({41, 29}, format, 3u);
  cv::Mat src = big(cv::Rect(3, 5, 17, 13));
  cv::Mat out_big(40, 40, big.type(), cv::Scalar::all(0));
  cv::Mat out = out_big(cv::Rect(1, 2, 13, 17));
  reference::rotate_quarter_turns(testing::view_of(src, format), testing::view_of(out, format), 90);
  cv::Mat theirs;
  cv::rotate(src, theirs, cv::ROTATE_90_CLOCKWISE);
  expect_equal(testing::view_of(out, format), testing::view_of(theirs, format), "rotate 90 of a sub-view");
}

TEST(GeometryReference, TransposeTwiceAndFourQuarterTurnsAreTheIdentity) {
  for (const PixelFormat& format : all_pixel_formats()) {
    const Size size{23, 11};
    cv::Mat src = random_mat(size, format, 11u), a(size.width, size.height, src.type()),
            b(size.height, size.width, src.type());
    const ImageView in = testing::view_of(src, format), va = testing::view_of(a, format),
                    vb = testing::view_of(b, format);
    reference::transpose(in, va);
    reference::transpose(va, vb);
    expect_equal(vb, in, "transpose twice " + format.name());
    for (int angle : {90, -90}) {
      reference::rotate_quarter_turns(in, va, angle);
      reference::rotate_quarter_turns(va, vb, angle);
      cv::Mat c = b.clone();
      reference::rotate_quarter_turns(testing::view_of(c, format), va, angle);
      reference::rotate_quarter_turns(va, vb, angle);
      expect_equal(vb, in, "four quarter turns of " + std::to_string(angle) + " " + format.name());
    }
  }
}

// A 3x2 image, its pixels numbered row by row, turned by hand.
TEST(GeometryReference, SmallCasesByHand) {
  const PixelFormat format{ChannelType::U8, 1};
  cv::Mat src = (cv::Mat_<std::uint8_t>(2, 3) << 1, 2, 3, 4, 5, 6);
  const auto run = [&](auto op, int rows, int cols) {
    cv::Mat out(rows, cols, CV_8U, cv::Scalar(0));
    op(testing::view_of(src, format), testing::view_of(out, format));
    return std::vector<std::uint8_t>(out.begin<std::uint8_t>(), out.end<std::uint8_t>());
  };
  using V = std::vector<std::uint8_t>;
  EXPECT_EQ(run([](auto s, auto d) { reference::transpose(s, d); }, 3, 2), (V{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(run([](auto s, auto d) { reference::rotate_quarter_turns(s, d, 90); }, 3, 2), (V{4, 1, 5, 2, 6, 3}));
  EXPECT_EQ(run([](auto s, auto d) { reference::rotate_quarter_turns(s, d, 270); }, 3, 2), (V{3, 6, 2, 5, 1, 4}));
  EXPECT_EQ(run([](auto s, auto d) { reference::rotate_quarter_turns(s, d, 180); }, 2, 3), (V{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(run([](auto s, auto d) { reference::flip(s, d, FlipAxis::Horizontal); }, 2, 3), (V{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(run([](auto s, auto d) { reference::flip(s, d, FlipAxis::Vertical); }, 2, 3), (V{4, 5, 6, 1, 2, 3}));
}

TEST(GeometryReference, RefusesAWrongDestinationShape) {
  const PixelFormat format{ChannelType::U8, 1};
  cv::Mat src(2, 3, CV_8U, cv::Scalar(1)), same(2, 3, CV_8U);
  EXPECT_THROW(reference::transpose(testing::view_of(src, format), testing::view_of(same, format)), Error);
  EXPECT_THROW(reference::rotate_quarter_turns(testing::view_of(src, format), testing::view_of(same, format), 45), Error);
}

// ---- crop ----------------------------------------------------------------------------

TEST(Crop, ParsesImageMagickGeometry) {
  const Rect r = parse_geometry("640x480+10+20");
  EXPECT_EQ(r.width, 640);
  EXPECT_EQ(r.height, 480);
  EXPECT_EQ(r.x, 10);
  EXPECT_EQ(r.y, 20);
  const Rect origin = parse_geometry("3X2");
  EXPECT_EQ(origin.width, 3);
  EXPECT_EQ(origin.x, 0);
  EXPECT_EQ(parse_geometry("5x5-1+2").x, -1);  // parsed; crop() refuses it
  for (const char* bad : {"", "x", "640", "640x", "x480", "640x480+10", "640x480+10+", "640x480 +1+2", "0x5+0+0",
                          "640x480+1+2+3", "1234567890x2", "a640x480"})
    EXPECT_THROW(parse_geometry(bad), Error) << "'" << bad << "'";
}

TEST(Crop, IsAViewAndSaysWhyARectangleDoesNotFit) {
  const PixelFormat format{ChannelType::U16, 3};
  cv::Mat mat = random_mat({20, 10}, format, 5u);
  const ImageView view = testing::view_of(mat, format);
  const ImageView part = crop(view, Rect{3, 2, 5, 4});
  EXPECT_EQ(part.width, 5);
  EXPECT_EQ(part.height, 4);
  EXPECT_EQ(part.pitch, view.pitch);
  EXPECT_EQ(part.data, static_cast<void*>(mat.ptr<std::uint16_t>(2) + 3 * 3));
  const auto message = [&](Rect r) {
    try {
      crop(view, r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({-1, 0, 2, 2}).find("negative"), std::string::npos) << message({-1, 0, 2, 2});
  EXPECT_NE(message({20, 0, 1, 1}).find("starts outside the 20x10"), std::string::npos) << message({20, 0, 1, 1});
  EXPECT_NE(message({15, 0, 6, 1}).find("right edge is at 21"), std::string::npos) << message({15, 0, 6, 1});
  EXPECT_NO_THROW(crop(view, Rect{0, 0, 20, 10}));
}

// ---- resize --------------------------------------------------------------------------

// OpenCV computes float images in float: compared there (its 8-bit paths round through
// fixed point), the reference agrees to float rounding.
TEST(ResizeReference, MatchesOpenCvOnFloatImages) {
  struct Case {
    Size from, to;
  };
  const Case cases[] = {{{37, 23}, {17, 11}}, {{40, 30}, {20, 15}}, {{13, 9}, {31, 20}}, {{64, 3}, {9, 2}}};
  const std::pair<ResizeFilter, int> filters[] = {{ResizeFilter::Linear, cv::INTER_LINEAR},
                                                  {ResizeFilter::Cubic, cv::INTER_CUBIC},
                                                  {ResizeFilter::Area, cv::INTER_AREA},
                                                  {ResizeFilter::Lanczos, cv::INTER_LANCZOS4}};
  for (const PixelFormat format : {PixelFormat{ChannelType::F32, 1}, PixelFormat{ChannelType::F32, 3}})
    for (const Case& c : cases)
      for (const auto& [filter, code] : filters) {
        cv::Mat src = random_mat(c.from, format, 21u), ours(c.to.height, c.to.width, src.type()), theirs;
        reference::resize(testing::view_of(src, format), testing::view_of(ours, format), filter);
        cv::resize(src, theirs, cv::Size(c.to.width, c.to.height), 0, 0, code);
        const testing::Difference diff =
            testing::compare(testing::view_of(ours, format), testing::view_of(theirs, format));
        EXPECT_TRUE(diff.within(2e-5)) << to_string(filter) << " " << name(format, c.from) << " to "
                                       << size_name(c.to) << ": " << diff.describe();
      }
}

// Nearest takes the pixel holding the centre, as INTER_NEAREST_EXACT (odd source sizes:
// no centre falls on a pixel boundary, where OpenCV's fixed point may round either way).
TEST(ResizeReference, NearestMatchesOpenCvNearestExact) {
  const PixelFormat format{ChannelType::U8, 3};
  for (const Size from : {Size{37, 23}, Size{5, 3}})
    for (const Size to : {Size{17, 11}, Size{80, 7}, Size{1, 1}}) {
      cv::Mat src = random_mat(from, format, 5u), ours(to.height, to.width, src.type()), theirs;
      reference::resize(testing::view_of(src, format), testing::view_of(ours, format), ResizeFilter::Nearest);
      cv::resize(src, theirs, cv::Size(to.width, to.height), 0, 0, cv::INTER_NEAREST_EXACT);
      expect_equal(testing::view_of(ours, format), testing::view_of(theirs, format),
                   "nearest " + name(format, from) + " to " + size_name(to));
    }
}

TEST(ResizeReference, SmallCasesByHand) {
  const PixelFormat format{ChannelType::U8, 1};
  cv::Mat src = (cv::Mat_<std::uint8_t>(1, 4) << 10, 20, 30, 41);
  const auto run = [&](ResizeFilter filter, int width) {
    cv::Mat out(1, width, CV_8U, cv::Scalar(0));
    reference::resize(testing::view_of(src, format), testing::view_of(out, format), filter);
    return std::vector<std::uint8_t>(out.begin<std::uint8_t>(), out.end<std::uint8_t>());
  };
  using V = std::vector<std::uint8_t>;
  EXPECT_EQ(run(ResizeFilter::Area, 2), (V{15, 36}));  // (30 + 41) / 2 = 35.5: ties to even
  EXPECT_EQ(run(ResizeFilter::Area, 1), (V{25}));      // 101 / 4 = 25.25
  EXPECT_EQ(run(ResizeFilter::Nearest, 2), (V{20, 41}));
  EXPECT_EQ(run(ResizeFilter::Linear, 2), (V{15, 36}));  // centres at 0.5 and 2.5
  EXPECT_EQ(run(ResizeFilter::Nearest, 8), (V{10, 10, 20, 20, 30, 30, 41, 41}));
  // Linear doubling: centres at -0.25 (the edge repeats), 0.25, 0.75, ...
  EXPECT_EQ(run(ResizeFilter::Linear, 8), (V{10, 12, 18, 22, 28, 33, 38, 41}));
}

TEST(ResizeReference, FitKeepsTheAspectRatioUnlessExact) {
  const auto fit = [](int w, int h, int bw, int bh, bool exact) {
    const Rect r = resize_fit(w, h, bw, bh, exact);
    return std::to_string(r.width) + "x" + std::to_string(r.height);
  };
  EXPECT_EQ(fit(640, 480, 320, 320, false), "320x240");
  EXPECT_EQ(fit(640, 480, 1000, 300, false), "400x300");
  EXPECT_EQ(fit(640, 480, 320, 320, true), "320x320");
  EXPECT_EQ(fit(1000, 1, 10, 10, false), "10x1");  // never below one pixel
  EXPECT_THROW(resize_fit(640, 480, 0, 10, false), Error);
}

// ---- rotation by any angle -------------------------------------------------------------

// A smooth image: cv::warpAffine quantises the sampling position to 1/32 pixel
// (INTER_BITS = 5), so the two agree within the image's change over 1/32 pixel; the
// fill is near the image's values for the same reason at the edges.
TEST(RotateReference, MatchesOpenCvWarpAffine) {
  const PixelFormat format{ChannelType::F32, 3};
  const Size size{61, 37};
  cv::Mat src(size.height, size.width, CV_32FC3);
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      src.at<cv::Vec3f>(y, x) = cv::Vec3f(0.5f + 0.05f * std::sin(x * 0.2f) * std::cos(y * 0.15f), 0.45f + 0.002f * x,
                                          0.55f - 0.003f * y);
  const std::array<double, 4> fill{0.5, 0.5, 0.5, 0.5};
  for (double angle : {30.0, -45.0, 10.0, 123.4})
    for (bool expand : {false, true}) {
      const Rect out = rotated_size(size.width, size.height, angle, expand);
      cv::Mat ours(out.height, out.width, CV_32FC3), theirs;
      reference::rotate(testing::view_of(src, format), testing::view_of(ours, format), angle, fill);
      // The same inverse map, written out: src = R^T (dst - dst centre) + src centre.
      const double t = angle * CV_PI / 180.0, c = std::cos(t), s = std::sin(t);
      const double scx = (size.width - 1) / 2.0, scy = (size.height - 1) / 2.0;
      const double dcx = (out.width - 1) / 2.0, dcy = (out.height - 1) / 2.0;
      const cv::Matx23d inverse(c, s, scx - c * dcx - s * dcy, -s, c, scy + s * dcx - c * dcy);
      cv::warpAffine(src, theirs, cv::Mat(inverse), cv::Size(out.width, out.height),
                     cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar::all(0.5));
      const testing::Difference diff = testing::compare(testing::view_of(ours, format), testing::view_of(theirs, format));
      EXPECT_TRUE(diff.within(2e-3)) << "angle " << angle << (expand ? " expand" : "") << ": " << diff.describe();
    }
}

// At a quarter turn the bilinear rotation lands on whole pixels: it equals the exact one.
TEST(RotateReference, AtQuarterTurnsEqualsTheExactRotation) {
  const PixelFormat format{ChannelType::U8, 4};
  cv::Mat src = random_mat({23, 14}, format, 8u), exact(23, 14, src.type()), bilinear(23, 14, src.type());
  for (double angle : {90.0, -90.0}) {
    reference::rotate_quarter_turns(testing::view_of(src, format), testing::view_of(exact, format),
                                    static_cast<int>(angle));
    reference::rotate(testing::view_of(src, format), testing::view_of(bilinear, format), angle, {});
    expect_equal(testing::view_of(bilinear, format), testing::view_of(exact, format), "rotate " + std::to_string(angle));
  }
}

TEST(RotateReference, UncoveredPixelsTakeTheFill) {
  const PixelFormat format{ChannelType::U8, 3};
  cv::Mat src(10, 10, CV_8UC3, cv::Scalar(7, 8, 9)), out(15, 15, CV_8UC3, cv::Scalar::all(0));
  reference::rotate(testing::view_of(src, format), testing::view_of(out, format), 45.0, {300.0, 20.4, -5.0, 0.0});
  EXPECT_EQ(out.at<cv::Vec3b>(0, 0), cv::Vec3b(255, 20, 0));  // saturated and rounded
  EXPECT_EQ(out.at<cv::Vec3b>(7, 7), cv::Vec3b(7, 8, 9));     // the centre
}

// ---- the registry entries ------------------------------------------------------------

TEST(GeometryRegistry, OutputShapesFollowTheParameters) {
  const ImageShape input{640, 480, PixelFormat{ChannelType::U8, 3}};
  const ImageShape swapped{480, 640, input.format};
  EXPECT_EQ(find_operation("transpose")->output_shape_for(input, {}), swapped);
  const Operation& rotate = *find_operation("rotate");
  for (int angle : {90, 270, -90}) EXPECT_EQ(rotate.output_shape_for(input, rotate.resolve({{"angle", angle}})), swapped);
  EXPECT_EQ(rotate.output_shape_for(input, rotate.resolve({{"angle", 180}})), input);
  EXPECT_EQ(rotate.output_shape_for(input, rotate.resolve({{"angle", 45}})), input);
  const ImageShape square{100, 100, input.format};
  EXPECT_EQ(rotate.output_shape_for(square, rotate.resolve({{"angle", 45}, {"expand", 1}})),
            (ImageShape{142, 142, input.format}));  // 100 * sqrt(2) = 141.4, rounded up
  EXPECT_EQ(rotate.output_shape_for(square, rotate.resolve({{"angle", -30}, {"expand", 1}})),
            (ImageShape{137, 137, input.format}));  // 100 * (cos 30 + sin 30) = 136.6
  EXPECT_EQ(find_operation("flip")->output_shape_for(input, {{"axis", "v"}}), input);
  const Operation& crop_op = *find_operation("crop");
  EXPECT_EQ(crop_op.output_shape_for(input, crop_op.resolve({{"geometry", "100x50+540+430"}})),
            (ImageShape{100, 50, input.format}));
  EXPECT_THROW(crop_op.output_shape_for(input, crop_op.resolve({{"geometry", "100x51+540+430"}})), Error);
  EXPECT_THROW(crop_op.resolve({{"geometry", "100x"}}), Error);
  EXPECT_THROW(crop_op.resolve({}), Error);
}

TEST(GeometryRegistry, ResizeSizeScaleAndFilter) {
  const Operation& op = *find_operation("resize");
  const ImageShape input{640, 480, PixelFormat{ChannelType::U8, 4}};
  const auto shape = [&](const ParamValues& given) { return op.output_shape_for(input, op.resolve(given)); };
  EXPECT_EQ(shape({{"scale", 0.5}}), (ImageShape{320, 240, input.format}));
  EXPECT_EQ(shape({{"size", std::vector<double>{320, 320}}}), (ImageShape{320, 240, input.format}));
  EXPECT_EQ(shape({{"size", std::vector<double>{320, 320}}, {"exact", 1}}), (ImageShape{320, 320, input.format}));
  EXPECT_THROW(op.resolve({}), Error);
  EXPECT_THROW(op.resolve({{"scale", 2.0}, {"size", std::vector<double>{3, 3}}}), Error);
  EXPECT_THROW(op.resolve({{"scale", 2.0}, {"exact", 1}}), Error);
  EXPECT_THROW(op.resolve({{"scale", 2.0}, {"filter", "bicubic"}}), Error);
  EXPECT_EQ(op.bytes_moved(640, 480, input.format, op.resolve({{"scale", 0.5}})), (640u * 480 + 320u * 240) * 4);
}

TEST(GeometryRegistry, EveryVariantHasAName) {
  for (const std::string& variant : find_operation("transpose")->variants)
    EXPECT_EQ(to_string(transpose_variant_from_name(variant)), variant);
  // rotate: the transpose names, then the bilinear kernels' names.
  std::size_t bilinear = 0;
  for (const std::string& variant : find_operation("rotate")->variants)
    if (variant.rfind("bilinear", 0) == 0) {
      EXPECT_EQ(to_string(rotate_variant_from_name(variant)), variant);
      ++bilinear;
    } else {
      EXPECT_EQ(to_string(transpose_variant_from_name(variant)), variant);
    }
  EXPECT_EQ(bilinear, 2u);
  EXPECT_THROW(rotate_variant_from_name("tiled"), Error);
  EXPECT_EQ(rotate_variant_from_name("bilinear_tiled"), RotateVariant::Tiled);
  EXPECT_THROW(rotate_variant_from_name("bilinear_texture"), Error) << "the lab's, not the library's";
  EXPECT_THROW(transpose_variant_from_name("copy_row"), Error);
  EXPECT_THROW(transpose_variant_from_name("naive_col"), Error) << "the lab's, not the library's";
  for (const std::string& variant : find_operation("flip")->variants)
    EXPECT_EQ(to_string(flip_variant_from_name(variant)), variant);
  for (const std::string& variant : find_operation("resize")->variants)
    EXPECT_EQ(to_string(resize_variant_from_name(variant)), variant);
  EXPECT_EQ(block_shape_from_name("8x32"), BlockShape::Thin8x32);
  EXPECT_EQ(flip_axis_from_name("both"), FlipAxis::Both);
}

}  // namespace
}  // namespace gpufilter::geometry_reference_test
