// The point ops' and conversions' CPU reference: hand-checked values, and OpenCV
// (cv::LUT, convertTo, cvtColor, split/merge) where its semantics match.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "mat_views.hpp"
#include "point/point_functions.hpp"

namespace gpufilter::point_reference_test {
namespace {

using testing::view_of;

cv::Mat random_mat(int width, int height, PixelFormat format, std::uint64_t seed) {
  cv::Mat mat(height, width, CV_MAKETYPE(testing::cv_depth(format.type), format.channels));
  testing::fill_random(view_of(mat, format), seed);
  return mat;
}

cv::Mat like(const cv::Mat& mat) { return cv::Mat(mat.rows, mat.cols, mat.type()); }

double max_diff(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat da, db;
  a.convertTo(da, CV_64F);
  b.convertTo(db, CV_64F);
  return cv::norm(da, db, cv::NORM_INF);
}

// One u8 sample through a reference op.
template <class F>
int u8_result(int x, F&& op) {
  cv::Mat src(1, 1, CV_8UC1, cv::Scalar(x)), dst(1, 1, CV_8UC1);
  op(view_of(src, PixelFormat{}), view_of(dst, PixelFormat{}));
  return dst.at<std::uint8_t>(0, 0);
}

TEST(PointReference, HandCheckedValues) {
  auto invert_u8 = [](const ImageView& s, const ImageView& d) { reference::invert(s, d); };
  EXPECT_EQ(u8_result(0, invert_u8), 255);
  EXPECT_EQ(u8_result(200, invert_u8), 55);
  // 0.1 * 255 = 25.5 rounds to 26 (ties to even), and 240 + 26 saturates.
  auto bright = [](const ImageView& s, const ImageView& d) { reference::brightness(s, d, {0.1}); };
  EXPECT_EQ(u8_result(100, bright), 126);
  EXPECT_EQ(u8_result(240, bright), 255);
  auto dark = [](const ImageView& s, const ImageView& d) { reference::brightness(s, d, {-0.5}); };
  EXPECT_EQ(u8_result(100, dark), 0) << "-127.5 rounds to -128";
  EXPECT_EQ(u8_result(200, dark), 72);
  // (100 - 127.5) * 2 + 127.5 = 72.5 -> 72 (ties to even); (200 - 127.5) * 2 + 127.5 saturates.
  auto contrast2 = [](const ImageView& s, const ImageView& d) { reference::contrast(s, d, {2.0}); };
  EXPECT_EQ(u8_result(100, contrast2), 72);
  EXPECT_EQ(u8_result(200, contrast2), 255);
  auto flat = [](const ImageView& s, const ImageView& d) { reference::contrast(s, d, {0.0}); };
  EXPECT_EQ(u8_result(3, flat), 128) << "127.5 rounds to even";
  // 255 * sqrt(64 / 255) = 127.75
  auto gamma2 = [](const ImageView& s, const ImageView& d) { reference::gamma(s, d, {2.0}); };
  EXPECT_EQ(u8_result(64, gamma2), 128);
  EXPECT_EQ(u8_result(0, gamma2), 0);
  EXPECT_EQ(u8_result(255, gamma2), 255);
  // [51, 204] onto [0, 255]: (128 - 51) / 153 * 255 = 128.33
  auto stretch = [](const ImageView& s, const ImageView& d) { reference::levels(s, d, {0.2, 0.8, 0.0, 1.0}); };
  EXPECT_EQ(u8_result(20, stretch), 0);
  EXPECT_EQ(u8_result(128, stretch), 128);
  EXPECT_EQ(u8_result(230, stretch), 255);
  auto inverted = [](const ImageView& s, const ImageView& d) { reference::levels(s, d, {0.0, 1.0, 1.0, 0.0}); };
  EXPECT_EQ(u8_result(10, inverted), 245);
}

TEST(PointReference, AlphaAndChannelMasks) {
  const PixelFormat format{ChannelType::U8, 4};
  cv::Mat src(1, 1, CV_8UC4, cv::Scalar(10, 20, 30, 40)), dst = like(src);
  reference::invert(view_of(src, format), view_of(dst, format));
  EXPECT_EQ(dst.at<cv::Vec4b>(0, 0), cv::Vec4b(245, 235, 225, 40)) << "alpha kept by default";
  reference::invert(view_of(src, format), view_of(dst, format), PointChannels::parse("rA"));
  EXPECT_EQ(dst.at<cv::Vec4b>(0, 0), cv::Vec4b(245, 20, 30, 215));
  EXPECT_EQ(PointChannels::parse("rgb").mask, 0x7u);
  EXPECT_EQ(PointChannels::parse("a").mask_for(1), 0u) << "a gray image has no alpha";
  EXPECT_EQ(PointChannels::parse("b").mask_for(1), 1u) << "its channel counts as colour";
  EXPECT_EQ(PointChannels::parse("a").mask_for(3), 0u);
  EXPECT_THROW(PointChannels::parse(""), Error);
  EXPECT_THROW(PointChannels::parse("rgbx"), Error);
  EXPECT_THROW(PointChannels::parse("gg"), Error);
}

// Integer brightness is convertTo with a whole shift: both saturate.
TEST(PointReference, BrightnessAgreesWithConvertTo) {
  for (const PixelFormat& format : all_pixel_formats()) {
    if (format.type == ChannelType::F32 || format.channels == 4) continue;  // no clamp in OpenCV floats; alpha kept
    cv::Mat src = random_mat(37, 11, format, 3);
    cv::Mat ours = like(src), theirs;
    for (double value : {0.3, -0.25}) {
      reference::brightness(view_of(src, format), view_of(ours, format), {value});
      src.convertTo(theirs, -1, 1.0, std::nearbyint(value * format.max_value()));
      EXPECT_EQ(max_diff(ours, theirs), 0.0) << format.name() << " " << value;
    }
  }
}

// Contrast and levels are linear maps: convertTo(alpha, beta) in float, so within one
// level of the double-precision reference.
TEST(PointReference, ContrastAndLevelsAgreeWithConvertTo) {
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U16, 1}}) {
    cv::Mat src = random_mat(64, 9, format, 11);
    cv::Mat ours = like(src), theirs;
    const double m = format.max_value();
    reference::contrast(view_of(src, format), view_of(ours, format), {1.8});
    src.convertTo(theirs, -1, 1.8, m / 2 * (1 - 1.8));
    EXPECT_LE(max_diff(ours, theirs), 1.0) << format.name();
    // levels [0.1, 0.9] -> [0, 1]: clamp, then a linear map.
    reference::levels(view_of(src, format), view_of(ours, format), {0.1, 0.9, 0.0, 1.0});
    const cv::Mat below = cv::min(src, 0.9 * m);
    const cv::Mat clamped = cv::max(below, 0.1 * m);
    clamped.convertTo(theirs, -1, 1.0 / 0.8, -0.1 * m / 0.8);
    EXPECT_LE(max_diff(ours, theirs), 1.0) << format.name();
  }
}

// u8 gamma as cv::LUT with a table from cv::pow; f32 gamma as cv::pow.
TEST(PointReference, GammaAgreesWithLutAndPow) {
  const PixelFormat u8{ChannelType::U8, 1};
  cv::Mat src = random_mat(200, 5, u8, 17), ours = like(src), theirs;
  cv::Mat levels(1, 256, CV_32F), table;
  for (int i = 0; i < 256; ++i) levels.at<float>(0, i) = static_cast<float>(i) / 255.0f;
  cv::pow(levels, 1.0 / 2.2, levels);
  levels.convertTo(table, CV_8U, 255.0);
  cv::LUT(src, table, theirs);
  reference::gamma(view_of(src, u8), view_of(ours, u8), {2.2});
  EXPECT_LE(max_diff(ours, theirs), 1.0);

  const PixelFormat f32{ChannelType::F32, 3};
  cv::Mat fsrc = random_mat(50, 5, f32, 19), fours = like(fsrc), ftheirs;
  reference::gamma(view_of(fsrc, f32), view_of(fours, f32), {0.45});
  cv::pow(fsrc, 1.0 / 0.45, ftheirs);
  EXPECT_LE(max_diff(fours, ftheirs), 1e-6);
}

// cv::cvtColor's RGB2GRAY uses the BT.601 weights; on float input it computes them in
// float (8-bit input goes through fixed point, so float is the fair comparison).
TEST(ConversionReference, GrayAgreesWithCvtColorOnFloat) {
  for (int channels : {3, 4}) {
    const PixelFormat format{ChannelType::F32, channels};
    const PixelFormat gray_format{ChannelType::F32, 1};
    cv::Mat src = random_mat(41, 13, format, 23), ours(13, 41, CV_32FC1), theirs;
    reference::gray(view_of(src, format), view_of(ours, gray_format), GrayWeights::Bt601);
    cv::cvtColor(src, theirs, channels == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
    EXPECT_LE(max_diff(ours, theirs), 1e-6) << channels;
  }
  // 8-bit: OpenCV's fixed point sits within one level of the exact value.
  const PixelFormat u8x3{ChannelType::U8, 3};
  cv::Mat src = random_mat(41, 13, u8x3, 29), ours(13, 41, CV_8UC1), theirs;
  reference::gray(view_of(src, u8x3), view_of(ours, PixelFormat{}), GrayWeights::Bt601);
  cv::cvtColor(src, theirs, cv::COLOR_RGB2GRAY);
  EXPECT_LE(max_diff(ours, theirs), 1.0);
  // BT.709 by hand: pure green.
  cv::Mat green(1, 1, CV_8UC3, cv::Scalar(0, 255, 0)), out(1, 1, CV_8UC1);
  reference::gray(view_of(green, u8x3), view_of(out, PixelFormat{}), GrayWeights::Bt709);
  EXPECT_EQ(out.at<std::uint8_t>(0, 0), 182) << "0.7152 * 255 = 182.376";
}

TEST(ConversionReference, AlphaAndOrderAgreeWithCvtColor) {
  for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32}) {
    const PixelFormat rgb{type, 3}, rgba{type, 4};
    cv::Mat src = random_mat(23, 7, rgb, 31), ours(7, 23, CV_MAKETYPE(testing::cv_depth(type), 4)), theirs;
    reference::add_alpha(view_of(src, rgb), view_of(ours, rgba));
    cv::cvtColor(src, theirs, cv::COLOR_RGB2RGBA);
    EXPECT_EQ(max_diff(ours, theirs), 0.0) << to_string(type) << " add_alpha";
    cv::Mat src4 = random_mat(23, 7, rgba, 37), ours3(7, 23, src.type());
    reference::drop_alpha(view_of(src4, rgba), view_of(ours3, rgb));
    cv::cvtColor(src4, theirs, cv::COLOR_RGBA2RGB);
    EXPECT_EQ(max_diff(ours3, theirs), 0.0) << to_string(type) << " drop_alpha";
    cv::Mat swapped = like(src);
    reference::swap_channels(view_of(src, rgb), view_of(swapped, rgb), ChannelOrder::parse("bgr", 3));
    cv::cvtColor(src, theirs, cv::COLOR_RGB2BGR);
    EXPECT_EQ(max_diff(swapped, theirs), 0.0) << to_string(type) << " bgr";
    cv::Mat swapped4 = like(src4);
    reference::swap_channels(view_of(src4, rgba), view_of(swapped4, rgba), ChannelOrder::parse("", 4));
    cv::cvtColor(src4, theirs, cv::COLOR_RGBA2BGRA);
    EXPECT_EQ(max_diff(swapped4, theirs), 0.0) << to_string(type) << " default order keeps alpha";
  }
  const ChannelOrder argb = ChannelOrder::parse("argb", 4);
  EXPECT_EQ((std::vector<int>(argb.from, argb.from + 4)), (std::vector<int>{3, 0, 1, 2}));
  const ChannelOrder gbr = ChannelOrder::parse("GBR", 4);
  EXPECT_EQ((std::vector<int>(gbr.from, gbr.from + 4)), (std::vector<int>{1, 2, 0, 3})) << "alpha kept last";
  EXPECT_THROW(ChannelOrder::parse("rga", 3), Error);
  EXPECT_THROW(ChannelOrder::parse("rgbx", 4), Error);
  EXPECT_THROW(ChannelOrder::parse("rg", 3), Error);
}

TEST(ConversionReference, DepthAgreesWithConvertTo) {
  const ChannelType types[] = {ChannelType::U8, ChannelType::U16, ChannelType::F32};
  for (ChannelType from : types)
    for (ChannelType to : types) {
      const PixelFormat in{from, 3}, out{to, 3};
      cv::Mat src = random_mat(57, 9, in, 41), ours(9, 57, CV_MAKETYPE(testing::cv_depth(to), 3)), theirs;
      reference::convert_depth(view_of(src, in), view_of(ours, out));
      src.convertTo(theirs, testing::cv_depth(to), out.max_value() / in.max_value());
      // OpenCV scales in float: f32 results within float rounding, rounding of
      // f32 -> integer products within float error of .5 may differ by one level.
      const double tolerance = to == ChannelType::F32 ? 1e-7 : (from == ChannelType::F32 ? 1.0 : 0.0);
      EXPECT_LE(max_diff(ours, theirs), tolerance) << to_string(from) << " -> " << to_string(to);
    }
  // Saturation of out-of-range floats, and u16 -> u8 rounding by hand.
  cv::Mat f(1, 3, CV_32FC1), u(1, 3, CV_8UC1);
  f.at<float>(0, 0) = -0.5f, f.at<float>(0, 1) = 1.5f, f.at<float>(0, 2) = 0.5f;
  reference::convert_depth(view_of(f, PixelFormat{ChannelType::F32, 1}), view_of(u, PixelFormat{}));
  EXPECT_EQ(u.at<std::uint8_t>(0, 0), 0);
  EXPECT_EQ(u.at<std::uint8_t>(0, 1), 255);
  EXPECT_EQ(u.at<std::uint8_t>(0, 2), 128) << "127.5 rounds to even";
  cv::Mat w(1, 2, CV_16UC1), b(1, 2, CV_8UC1);
  w.at<std::uint16_t>(0, 0) = 257 * 10 + 128, w.at<std::uint16_t>(0, 1) = 257 * 10 + 129;
  reference::convert_depth(view_of(w, PixelFormat{ChannelType::U16, 1}), view_of(b, PixelFormat{}));
  EXPECT_EQ(b.at<std::uint8_t>(0, 0), 10);
  EXPECT_EQ(b.at<std::uint8_t>(0, 1), 11);
}

TEST(ConversionReference, PlanarAgreesWithSplitAndMerge) {
  for (const PixelFormat& format : all_pixel_formats()) {
    if (format.channels == 1) continue;
    const int w = 19, h = 6, c = format.channels;
    const PixelFormat plane{format.type, 1};
    cv::Mat src = random_mat(w, h, format, 43);
    cv::Mat stacked(h * c, w, CV_MAKETYPE(testing::cv_depth(format.type), 1));
    reference::to_planar(view_of(src, format), planar_view(view_of(stacked, plane), c));
    std::vector<cv::Mat> planes;
    cv::split(src, planes);
    for (int i = 0; i < c; ++i)
      EXPECT_EQ(max_diff(stacked.rowRange(i * h, (i + 1) * h), planes[static_cast<std::size_t>(i)]), 0.0)
          << format.name() << " plane " << i;
    cv::Mat back = like(src);
    reference::to_interleaved(planar_view(view_of(stacked, plane), c), view_of(back, format));
    EXPECT_EQ(max_diff(back, src), 0.0) << format.name();
  }
}

TEST(ConversionRegistry, OutputShapesAndBytes) {
  const ImageShape rgba{640, 480, PixelFormat{ChannelType::U8, 4}};
  const auto shape = [&](const char* op, const ParamValues& params, const ImageShape& in) {
    const Operation* found = find_operation(op);
    EXPECT_NE(found, nullptr) << op;
    return found->output_shape_for(in, found->resolve(params));
  };
  EXPECT_EQ(shape("gray", {}, rgba), (ImageShape{640, 480, PixelFormat{ChannelType::U8, 1}}));
  EXPECT_EQ(shape("drop_alpha", {}, rgba), (ImageShape{640, 480, PixelFormat{ChannelType::U8, 3}}));
  EXPECT_EQ(shape("convert", {{"depth", "f32"}}, rgba), (ImageShape{640, 480, PixelFormat{ChannelType::F32, 4}}));
  EXPECT_EQ(shape("planar", {}, rgba), (ImageShape{640, 1920, PixelFormat{ChannelType::U8, 1}}));
  EXPECT_EQ(shape("interleaved", {{"channels", 4}}, ImageShape{640, 1920, PixelFormat{}}), rgba);
  EXPECT_THROW(shape("interleaved", {{"channels", 3}}, ImageShape{640, 1921, PixelFormat{}}), Error);
  EXPECT_EQ(shape("invert", {}, rgba), rgba);
  EXPECT_THROW(find_operation("convert")->resolve({}), Error) << "--depth is required";
  EXPECT_THROW(find_operation("gamma")->resolve({}), Error) << "--value is required";
  EXPECT_THROW(find_operation("levels")->resolve({{"in", std::vector<double>{0.6, 0.4}}}), Error);
  EXPECT_THROW(find_operation("swap_channels")->resolve({{"order", "rgx"}}), Error);
  EXPECT_EQ(find_operation("gray")->bytes_moved(100, 10, rgba.format, find_operation("gray")->resolve({})), 5000u);
  EXPECT_EQ(find_operation("convert")->bytes_moved(100, 10, rgba.format,
                                                   find_operation("convert")->resolve({{"depth", "u16"}})),
            12000u);
}

}  // namespace
}  // namespace gpufilter::point_reference_test

namespace gpufilter::point_reference_test {
namespace {

// The PointFunction the library hands the kernels, evaluated on the host as
// kernels/point/point_functions.cuh does (float math, u8 tables): checks the parameter
// derivation (tables, offsets, scales) against the reference without a GPU.
double emulate(const kernels::PointFunction& f, double x, ChannelType type) {
  const float m = static_cast<float>(PixelFormat{type, 1}.max_value());
  const bool is_float = type == ChannelType::F32;
  const auto saturate = [&](float y) {
    const float clamped = std::fmin(std::fmax(y, 0.0f), m);
    return is_float ? static_cast<double>(clamped) : std::nearbyint(static_cast<double>(clamped));
  };
  const float xf = static_cast<float>(x);
  switch (f.math) {
    case kernels::PointMath::Invert: return is_float ? saturate(1.0f - xf) : m - x;
    case kernels::PointMath::Add:
      return is_float ? saturate(xf + f.offset) : std::clamp(x + static_cast<int>(f.offset), 0.0, static_cast<double>(m));
    case kernels::PointMath::Linear:
      return saturate(std::fma(std::fmin(std::fmax(xf, f.lo), f.hi) - f.from, f.scale, f.to));
    case kernels::PointMath::Gamma: return saturate(m * std::pow(std::fmax(xf, 0.0f) * (1.0f / m), f.exponent));
    case kernels::PointMath::Table: return f.table[static_cast<int>(x)];
  }
  return -1.0;
}

struct FunctionCase {
  const char* name;
  kernels::PointFunction (*function)(ChannelType);
  void (*reference)(const ImageView&, const ImageView&);
};

const FunctionCase kFunctionCases[] = {
    {"invert", [](ChannelType) { return ops::invert_function(); },
     [](const ImageView& s, const ImageView& d) { reference::invert(s, d); }},
    {"brightness", [](ChannelType t) { return ops::brightness_function({-0.3}, t); },
     [](const ImageView& s, const ImageView& d) { reference::brightness(s, d, {-0.3}); }},
    {"contrast", [](ChannelType t) { return ops::contrast_function({1.7}, t); },
     [](const ImageView& s, const ImageView& d) { reference::contrast(s, d, {1.7}); }},
    {"gamma", [](ChannelType t) { return ops::gamma_function({2.2}, t); },
     [](const ImageView& s, const ImageView& d) { reference::gamma(s, d, {2.2}); }},
    {"gamma<1", [](ChannelType t) { return ops::gamma_function({0.4}, t); },
     [](const ImageView& s, const ImageView& d) { reference::gamma(s, d, {0.4}); }},
    {"levels", [](ChannelType t) { return ops::levels_function({0.1, 0.85, 0.95, 0.05}, t); },
     [](const ImageView& s, const ImageView& d) { reference::levels(s, d, {0.1, 0.85, 0.95, 0.05}); }},
};

TEST(PointFunctions, AgreeWithTheReference) {
  for (const FunctionCase& c : kFunctionCases)
    for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32}) {
      const PixelFormat format{type, 1};
      const int count = type == ChannelType::U8 ? 256 : type == ChannelType::U16 ? 65536 : 20000;
      cv::Mat src(1, count, CV_MAKETYPE(testing::cv_depth(type), 1)), expected = like(src);
      for (int i = 0; i < count; ++i) {
        if (type == ChannelType::U8) src.at<std::uint8_t>(0, i) = static_cast<std::uint8_t>(i);
        else if (type == ChannelType::U16) src.at<std::uint16_t>(0, i) = static_cast<std::uint16_t>(i);
        else src.at<float>(0, i) = static_cast<float>(i) / (count - 1);
      }
      c.reference(view_of(src, format), view_of(expected, format));
      const kernels::PointFunction f = c.function(type);
      const Tolerance tolerance = find_operation(std::string(c.name).substr(0, std::string(c.name).find('<')))
                                      ->tolerance(format);
      double worst = 0.0;
      int differing = 0;
      for (int i = 0; i < count; ++i) {
        const double x = testing::channel_value(view_of(src, format), i, 0, 0);
        const double want = testing::channel_value(view_of(expected, format), i, 0, 0);
        const double diff = std::fabs(emulate(f, x, type) - want);
        worst = std::max(worst, diff);
        differing += diff != 0.0;
      }
      EXPECT_LE(worst, tolerance.max_abs) << c.name << " " << to_string(type);
      EXPECT_LE(differing, std::max(2.0, tolerance.max_differing_share * count)) << c.name << " " << to_string(type);
    }
}

}  // namespace
}  // namespace gpufilter::point_reference_test
