// The OpenCV side of bench/cpu_speed/cpu-speed: the same ops as the tool's CPU path,
// timed inside one process (imread + the op + imwrite for each run), on every core.
//
//   gpufilter-opencv-peer make OUT.jpg WIDTH HEIGHT SAMPLE.png
//       a photo-like test image: SAMPLE scaled up (cubic) with +-8 noise, JPEG quality 95
//       (as bench/end_to_end makes its corpus)
//   gpufilter-opencv-peer time OP IN OUT RUNS
//       prints one JSON line: {"op": ..., "runs": N, "median_ms": ..., "min_ms": ...,
//       "op_median_ms": ..., ...}, the median and fastest of RUNS runs in milliseconds, and
//       the median of the op alone (without imread and imwrite)
//
// OPs: blur (GaussianBlur sigma 2, size from sigma), sharpen (unsharp mask: sigma 1,
// amount 1), median (3x3), resize-half (INTER_AREA), resize-linear and resize-cubic (to
// half, INTER_LINEAR and INTER_CUBIC), rotate90 (clockwise), gray (BT.601), histogram
// (calcHist of each channel, 256 bins; OUT gets the counts as CSV, one row a bin), box
// (blur 5x5), edge (Sobel x and y in float, their magnitude), emboss (filter2D, a 3x3
// relief mask), flip (left-right), transpose, invert (bitwise_not), brightness (+10% of
// the range), contrast (x1.5 about mid-grey), gamma (2.2 through a table), equalize
// (equalizeHist of each channel), threshold (128), normalize (each channel stretched
// from its minimum and maximum to 0..255).
// Exit status: 0 success, 1 an image could not be read or written, 2 usage.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kJpegQuality = 95;

int usage() {
  std::fprintf(stderr,
               "usage: gpufilter-opencv-peer make OUT.jpg WIDTH HEIGHT SAMPLE.png\n"
               "       gpufilter-opencv-peer time OP IN OUT RUNS\n"
               "OP: blur sharpen median resize-half resize-linear resize-cubic rotate90 gray histogram box edge\n"
               "    emboss flip transpose invert brightness contrast gamma equalize threshold normalize\n");
  return 2;
}

bool parse_positive(const char* text, int& value) {
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || parsed <= 0 || parsed > 1000000) return false;
  value = static_cast<int>(parsed);
  return true;
}

std::vector<int> jpeg_params() { return {cv::IMWRITE_JPEG_QUALITY, kJpegQuality}; }

int make_image(const std::string& out, int width, int height, const std::string& sample) {
  const cv::Mat base = cv::imread(sample, cv::IMREAD_COLOR);
  if (base.empty()) {
    std::fprintf(stderr, "gpufilter-opencv-peer: cannot read %s\n", sample.c_str());
    return 1;
  }
  cv::Mat big;
  cv::resize(base, big, cv::Size(width, height), 0, 0, cv::INTER_CUBIC);
  cv::Mat noise(big.size(), CV_16SC3);
  cv::RNG rng(0);  // the same file on every run
  rng.fill(noise, cv::RNG::UNIFORM, cv::Scalar::all(-8), cv::Scalar::all(9));
  cv::Mat noisy;
  big.convertTo(noisy, CV_16SC3);
  noisy += noise;
  noisy.convertTo(big, CV_8UC3);  // saturates to 0..255
  if (!cv::imwrite(out, big, jpeg_params())) {
    std::fprintf(stderr, "gpufilter-opencv-peer: cannot write %s\n", out.c_str());
    return 1;
  }
  return 0;
}

// Returns false for an unknown op.
bool apply(const std::string& op, const cv::Mat& src, cv::Mat& dst) {
  if (op == "blur") {
    cv::GaussianBlur(src, dst, cv::Size(0, 0), 2.0, 2.0, cv::BORDER_REFLECT_101);
  } else if (op == "sharpen") {
    cv::Mat blurred;
    cv::GaussianBlur(src, blurred, cv::Size(0, 0), 1.0, 1.0, cv::BORDER_REFLECT_101);
    // src + amount * (src - blurred), amount 1
    cv::addWeighted(src, 2.0, blurred, -1.0, 0.0, dst);
  } else if (op == "median") {
    cv::medianBlur(src, dst, 3);
  } else if (op == "resize-half") {
    cv::resize(src, dst, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
  } else if (op == "resize-linear") {
    cv::resize(src, dst, cv::Size(), 0.5, 0.5, cv::INTER_LINEAR);
  } else if (op == "resize-cubic") {
    cv::resize(src, dst, cv::Size(), 0.5, 0.5, cv::INTER_CUBIC);
  } else if (op == "histogram") {
    // One column of 256 float counts per channel, side by side.
    std::vector<cv::Mat> columns(static_cast<std::size_t>(src.channels()));
    const int size[] = {256};
    const float range[] = {0.0f, 256.0f};
    const float* ranges[] = {range};
    for (int c = 0; c < src.channels(); ++c)
      cv::calcHist(&src, 1, &c, cv::Mat(), columns[static_cast<std::size_t>(c)], 1, size, ranges);
    cv::hconcat(columns, dst);
  } else if (op == "box") {
    cv::blur(src, dst, cv::Size(5, 5), cv::Point(-1, -1), cv::BORDER_REFLECT_101);
  } else if (op == "edge") {
    cv::Mat dx, dy, magnitude;
    cv::Sobel(src, dx, CV_32F, 1, 0, 3, 1.0, 0.0, cv::BORDER_REFLECT_101);
    cv::Sobel(src, dy, CV_32F, 0, 1, 3, 1.0, 0.0, cv::BORDER_REFLECT_101);
    cv::magnitude(dx.reshape(1), dy.reshape(1), magnitude);
    magnitude.reshape(src.channels()).convertTo(dst, CV_8U);
  } else if (op == "emboss") {
    const cv::Matx33f relief(-2, -1, 0, -1, 1, 1, 0, 1, 2);
    cv::filter2D(src, dst, -1, relief, cv::Point(-1, -1), 0.0, cv::BORDER_REFLECT_101);
  } else if (op == "flip") {
    cv::flip(src, dst, 1);
  } else if (op == "transpose") {
    cv::transpose(src, dst);
  } else if (op == "invert") {
    cv::bitwise_not(src, dst);
  } else if (op == "brightness") {
    src.convertTo(dst, -1, 1.0, 25.5);
  } else if (op == "contrast") {
    src.convertTo(dst, -1, 1.5, 127.5 * (1.0 - 1.5));
  } else if (op == "gamma") {
    cv::Mat table(1, 256, CV_8U);
    for (int v = 0; v < 256; ++v) table.at<uchar>(v) = cv::saturate_cast<uchar>(255.0 * std::pow(v / 255.0, 1.0 / 2.2));
    cv::LUT(src, table, dst);
  } else if (op == "equalize" || op == "normalize") {
    std::vector<cv::Mat> planes;
    cv::split(src, planes);
    for (cv::Mat& plane : planes) {
      cv::Mat out;
      if (op == "equalize")
        cv::equalizeHist(plane, out);
      else
        cv::normalize(plane, out, 0, 255, cv::NORM_MINMAX);
      plane = out;
    }
    cv::merge(planes, dst);
  } else if (op == "threshold") {
    cv::threshold(src, dst, 128, 255, cv::THRESH_BINARY);
  } else if (op == "rotate90") {
    cv::rotate(src, dst, cv::ROTATE_90_CLOCKWISE);
  } else if (op == "gray") {
    cv::cvtColor(src, dst, cv::COLOR_BGR2GRAY);
  } else {
    return false;
  }
  return true;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The histogram's counts as CSV (one row a bin, one column a channel); other ops' images
// as JPEG.
bool write_result(const std::string& op, const std::string& out, const cv::Mat& dst) {
  if (op != "histogram") return cv::imwrite(out, dst, jpeg_params());
  std::FILE* file = std::fopen(out.c_str(), "w");
  if (file == nullptr) return false;
  for (int bin = 0; bin < dst.rows; ++bin)
    for (int c = 0; c < dst.cols; ++c) std::fprintf(file, c + 1 < dst.cols ? "%.0f," : "%.0f\n", dst.at<float>(bin, c));
  return std::fclose(file) == 0;
}

int time_op(const std::string& op, const std::string& in, const std::string& out, int runs) {
  using clock = std::chrono::steady_clock;
  cv::Mat probe;
  if (!apply(op, cv::Mat(8, 8, CV_8UC3, cv::Scalar::all(0)), probe)) {
    std::fprintf(stderr, "gpufilter-opencv-peer: unknown op %s\n", op.c_str());
    return usage();
  }
  std::vector<double> ms, op_ms;
  int width = 0;
  int height = 0;
  for (int run = 0; run < runs; ++run) {
    const auto start = clock::now();
    const cv::Mat src = cv::imread(in, cv::IMREAD_UNCHANGED);
    if (src.empty()) {
      std::fprintf(stderr, "gpufilter-opencv-peer: cannot read %s\n", in.c_str());
      return 1;
    }
    cv::Mat dst;
    const auto op_start = clock::now();
    apply(op, src, dst);
    op_ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - op_start).count());
    if (!write_result(op, out, dst)) {
      std::fprintf(stderr, "gpufilter-opencv-peer: cannot write %s\n", out.c_str());
      return 1;
    }
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - start).count());
    width = src.cols;
    height = src.rows;
  }
  std::printf("{\"op\": \"%s\", \"runs\": %d, \"median_ms\": %.1f, \"min_ms\": %.1f, \"op_median_ms\": %.2f, "
              "\"width\": %d, \"height\": %d, \"threads\": %d, \"opencv\": \"%s\"}\n",
              op.c_str(), runs, median_of(ms), *std::min_element(ms.begin(), ms.end()), median_of(op_ms), width,
              height, cv::getNumThreads(), CV_VERSION);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 5 && args[0] == "make") {
    int width = 0;
    int height = 0;
    if (!parse_positive(args[2].c_str(), width) || !parse_positive(args[3].c_str(), height)) return usage();
    return make_image(args[1], width, height, args[4]);
  }
  if (args.size() == 5 && args[0] == "time") {
    int runs = 0;
    if (!parse_positive(args[4].c_str(), runs)) return usage();
    return time_op(args[1], args[2], args[3], runs);
  }
  return usage();
}
