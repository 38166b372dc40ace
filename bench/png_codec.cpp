// PNG encode and decode times: the tool's codec (cli/png_writer, cli/png_reader) against
// OpenCV's imencode/imdecode at its default, on a photo-like image, in memory (no disk).
//
//   build/bench/png_codec_bench [--width 6000] [--height 4000] [--runs 5] [--threads N]
//                               [--image FILE] [--clean] [--quick]
//
// The image is a sample photo scaled up with sensor-like noise (as bench/end_to_end makes
// its corpus); --clean leaves the noise out, --image takes a file instead; --quick times
// OpenCV's default and the tool's default alone, not the other settings. Prints a
// Markdown table: median milliseconds, file size and ratio for each setting, then decode
// times for OpenCV's file and for the tool's.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "png_filters.hpp"
#include "png_reader.hpp"
#include "png_writer.hpp"

#ifndef GPUFILTER_SAMPLES_DIR
#error "GPUFILTER_SAMPLES_DIR must name the sample images' directory"
#endif

namespace {

using gpufilter::cli::PngEncoding;
namespace png = gpufilter::cli::png;

struct Options {
  int width = 6000;
  int height = 4000;
  int runs = 5;
  unsigned threads = 0;
  bool clean = false;
  bool quick = false;  // OpenCV's default and ours only
  std::string image;
};

double process_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Median wall-clock milliseconds of `runs` calls; `cpu_ms` gets the median CPU time of
// all threads together (on a shared machine, the steadier figure).
double median_ms(int runs, const std::function<void()>& work, double* cpu_ms = nullptr) {
  std::vector<double> times;
  std::vector<double> cpu;
  for (int i = 0; i < runs; ++i) {
    const double cpu_start = process_cpu_ms();
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    cpu.push_back(process_cpu_ms() - cpu_start);
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  if (cpu_ms != nullptr) *cpu_ms = cpu[cpu.size() / 2];
  return times[times.size() / 2];
}

cv::Mat photo_like(const Options& options) {
  if (!options.image.empty()) return cv::imread(options.image, cv::IMREAD_UNCHANGED);
  const cv::Mat base = cv::imread(std::string(GPUFILTER_SAMPLES_DIR) + "/astronaut.png", cv::IMREAD_COLOR);
  if (base.empty()) return base;
  cv::Mat big;
  cv::resize(base, big, cv::Size(options.width, options.height), 0, 0, cv::INTER_CUBIC);
  if (options.clean) return big;
  cv::Mat noise(big.size(), CV_16SC3);
  cv::randu(noise, cv::Scalar::all(-8), cv::Scalar::all(9));
  cv::Mat noisy;
  big.convertTo(noisy, CV_16SC3);
  noisy += noise;
  noisy.convertTo(big, CV_8UC3);  // saturates to 0..255
  return big;
}

struct Setting {
  std::string name;
  std::function<std::vector<unsigned char>(const cv::Mat&)> encode;
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (arg == "--width") options.width = std::atoi(next().c_str());
    else if (arg == "--height") options.height = std::atoi(next().c_str());
    else if (arg == "--runs") options.runs = std::max(1, std::atoi(next().c_str()));
    else if (arg == "--threads") options.threads = static_cast<unsigned>(std::atoi(next().c_str()));
    else if (arg == "--image") options.image = next();
    else if (arg == "--clean") options.clean = true;
    else if (arg == "--quick") options.quick = true;
    else {
      std::fprintf(stderr, "usage: %s [--width W] [--height H] [--runs N] [--threads N] [--image FILE] [--clean] [--quick]\n",
                   argv[0]);
      return 2;
    }
  }
  const cv::Mat image = photo_like(options);
  if (image.empty()) {
    std::fprintf(stderr, "cannot read the sample image\n");
    return 1;
  }
  const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  std::printf("# PNG codec: %dx%d, %d channel(s), %d-bit, %s; %u threads (OpenCV: %d); median of %d\n\n", image.cols,
              image.rows, image.channels(), image.depth() == CV_16U ? 16 : 8,
              options.image.empty() ? (options.clean ? "photo, no noise" : "photo with noise") : options.image.c_str(),
              threads, cv::getNumThreads(), options.runs);
  gpufilter::cli::PngWriteOptions write;
  write.threads = threads;
  const auto ours = [&](PngEncoding encoding) {
    return [encoding, write](const cv::Mat& m) { return gpufilter::cli::encode_png(m, encoding, write); };
  };
  const auto opencv = [](std::vector<int> params) {
    return [params](const cv::Mat& m) {
      std::vector<unsigned char> bytes;
      cv::imencode(".png", m, bytes, params);
      return bytes;
    };
  };
  const unsigned sub = png::filter_bit(png::Filter::Sub);
  const unsigned paeth = png::filter_bit(png::Filter::Paeth);
  const unsigned up = png::filter_bit(png::Filter::Up);
  std::vector<Setting> settings{
      {"OpenCV imencode, default (Sub, zlib 1, Z_RLE)", opencv({})},
      {"OpenCV imencode, --png-compression 1", opencv({cv::IMWRITE_PNG_COMPRESSION, 1})},
      {"ours: default", [&](const cv::Mat& m) { return gpufilter::cli::encode_png(m, write); }},
      {"ours: Sub, zlib 1, Z_RLE (OpenCV's default)", ours({1, Z_RLE, sub})},
      {"ours: Up, zlib 1, Z_RLE", ours({1, Z_RLE, up})},
      {"ours: Paeth, zlib 1, Z_RLE", ours({1, Z_RLE, paeth})},
      {"ours: adaptive, zlib 1, Z_RLE", ours({1, Z_RLE, png::kAllFilters})},
      {"ours: adaptive, Huffman only", ours({1, Z_HUFFMAN_ONLY, png::kAllFilters})},
      {"ours: adaptive, zlib 1", ours({1, Z_DEFAULT_STRATEGY, png::kAllFilters})},
      {"ours: adaptive, zlib 3, Z_FILTERED", ours({3, Z_FILTERED, png::kAllFilters})},
  };
  if (options.quick) settings = {settings[0], settings[2]};
  for (int level : options.quick ? std::vector<int>{} : std::vector<int>{0, 1, 2, 3, 6, 9}) {
    settings.push_back({"ours: --png-compression " + std::to_string(level),
                        ours(gpufilter::cli::png_encoding_for(level))});
  }
  const double raw_bytes = static_cast<double>(image.total() * image.elemSize());
  std::printf("| encoder | ms | CPU ms | MB | ratio | decodes as the input |\n|---|---:|---:|---:|---:|---|\n");
  std::vector<unsigned char> opencv_file;
  std::vector<unsigned char> our_file;
  for (const Setting& setting : settings) {
    std::vector<unsigned char> bytes;
    double cpu = 0;
    const double ms = median_ms(options.runs, [&] { bytes = setting.encode(image); }, &cpu);
    const cv::Mat back = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
    const bool same = !back.empty() && back.type() == image.type() && cv::norm(back, image, cv::NORM_INF) == 0;
    std::printf("| %s | %.1f | %.1f | %.2f | %.3f | %s |\n", setting.name.c_str(), ms, cpu,
                static_cast<double>(bytes.size()) / 1e6,
                static_cast<double>(bytes.size()) / raw_bytes, same ? "yes (OpenCV)" : "NO");
    if (opencv_file.empty()) opencv_file = bytes;
    if (setting.name == "ours: default") our_file = bytes;
    std::fflush(stdout);
  }

  std::printf("\n| decoder | file | ms | CPU ms | matches OpenCV |\n|---|---|---:|---:|---|\n");
  gpufilter::cli::PngReadOptions read;
  read.threads = threads;
  for (const auto& [file_name, file] :
       std::vector<std::pair<std::string, const std::vector<unsigned char>*>>{{"OpenCV's", &opencv_file},
                                                                               {"ours", &our_file}}) {
    cv::Mat reference;
    double cpu = 0;
    const double opencv_ms =
        median_ms(options.runs, [&] { reference = cv::imdecode(*file, cv::IMREAD_UNCHANGED); }, &cpu);
    std::printf("| OpenCV imdecode | %s | %.1f | %.1f | - |\n", file_name.c_str(), opencv_ms, cpu);
    gpufilter::cli::PngDecodeResult result;
    const double our_ms = median_ms(
        options.runs, [&] { result = gpufilter::cli::decode_png(file->data(), file->size(), read); }, &cpu);
    const bool same = !result.image.empty() && cv::norm(result.image, reference, cv::NORM_INF) == 0;
    std::printf("| ours | %s | %.1f | %.1f | %s |\n", file_name.c_str(), our_ms, cpu,
                result.image.empty() ? ("declined: " + result.declined).c_str() : same ? "yes" : "NO");
    std::fflush(stdout);
  }
  return 0;
}
