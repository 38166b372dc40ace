// PNG encode and decode times: the tool's codec (io: png_writer, png_reader) against
// OpenCV's imencode/imdecode at its default and against libpng and libspng (png_peers.hpp),
// on a photo-like image, in memory (no disk).
//
//   build/bench/png_codec_bench [--width 6000] [--height 4000] [--runs 5] [--threads N]
//                               [--image FILE | --source FILE] [--clean] [--repeat PX]
//                               [--quick | --peers] [--batch]
//
// The image is a sample photo (--source FILE: another one) scaled up with sensor-like
// noise (as bench/end_to_end makes its corpus); --clean leaves the noise out, --image
// takes a file as it is; --repeat PX tiles the image's left PX columns across its width
// (content that repeats at a distance, as in screenshots, scans and textures). --quick
// times OpenCV's default and the tool's default alone; --peers the tool's default and
// levels against libpng and libspng. --batch encodes one file per thread at once (N files,
// one thread each, as a batch does) and reports milliseconds per file. Prints a Markdown
// table: median milliseconds, file size and ratio for each setting, then decode times for
// OpenCV's file and for the tool's.
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

#include "codecs/png_filters.hpp"
#include "png_peers.hpp"
#include "gpufilter/io/png_reader.hpp"
#include "gpufilter/io/png_writer.hpp"

#ifndef GPUFILTER_SAMPLES_DIR
#error "GPUFILTER_SAMPLES_DIR must name the sample images' directory"
#endif

namespace {

using gpufilter::io::PngEncoding;
namespace png = gpufilter::io::png;

struct Options {
  int width = 6000;
  int height = 4000;
  int runs = 5;
  unsigned threads = 0;
  int repeat = 0;  // columns tiled across the width; 0: none
  bool clean = false;
  bool quick = false;  // OpenCV's default and ours only
  bool peers = false;  // ours against libpng and libspng
  bool batch = false;  // one file per thread, one thread per file
  std::string image;
  std::string source = std::string(GPUFILTER_SAMPLES_DIR) + "/astronaut.png";
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

// Median milliseconds per file of `files` encodes run at once, each on a thread of its own.
double batch_ms_per_file(int runs, unsigned files, const std::function<void()>& work, double* cpu_ms) {
  const double ms = median_ms(
      runs,
      [&] {
        std::vector<std::thread> workers;
        for (unsigned i = 0; i < files; ++i) workers.emplace_back(work);
        for (std::thread& worker : workers) worker.join();
      },
      cpu_ms);
  *cpu_ms /= files;
  return ms / files;
}

// The image's left `columns` columns repeated across its width.
cv::Mat tiled(const cv::Mat& image, int columns) {
  cv::Mat out(image.size(), image.type());
  const cv::Mat strip = image.colRange(0, std::min(columns, image.cols));
  for (int x = 0; x < out.cols; x += strip.cols) {
    const int width = std::min(strip.cols, out.cols - x);
    strip.colRange(0, width).copyTo(out.colRange(x, x + width));
  }
  return out;
}

cv::Mat scaled_photo(const Options& options) {
  if (!options.image.empty()) return cv::imread(options.image, cv::IMREAD_UNCHANGED);
  const cv::Mat base = cv::imread(options.source, cv::IMREAD_COLOR);
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

cv::Mat photo_like(const Options& options) {
  const cv::Mat photo = scaled_photo(options);
  return options.repeat > 0 && !photo.empty() ? tiled(photo, options.repeat) : photo;
}

// An encoder at one setting, given the threads it may use.
struct Setting {
  std::string name;
  std::function<std::vector<unsigned char>(const cv::Mat&, unsigned threads)> encode;
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
    else if (arg == "--source") options.source = next();
    else if (arg == "--repeat") options.repeat = std::max(0, std::atoi(next().c_str()));
    else if (arg == "--clean") options.clean = true;
    else if (arg == "--quick") options.quick = true;
    else if (arg == "--peers") options.peers = true;
    else if (arg == "--batch") options.batch = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--width W] [--height H] [--runs N] [--threads N] [--image FILE | --source FILE] "
                   "[--clean] [--repeat PX] [--quick | --peers] [--batch]\n",
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
  const std::string content = options.image.empty()
                                  ? options.source + (options.clean ? ", scaled, no noise" : ", scaled, with noise")
                                  : options.image;
  std::printf("# PNG codec: %dx%d, %d channel(s), %d-bit, %s%s; %s; median of %d\n\n", image.cols, image.rows,
              image.channels(), image.depth() == CV_16U ? 16 : 8, content.c_str(),
              options.repeat > 0 ? (", left " + std::to_string(options.repeat) + " px tiled across").c_str() : "",
              options.batch ? (std::to_string(threads) + " files at once, 1 thread each; ms per file").c_str()
                            : (std::to_string(threads) + " threads for one file").c_str(),
              options.runs);
  const auto ours = [](PngEncoding encoding) {
    return [encoding](const cv::Mat& m, unsigned encode_threads) {
      gpufilter::io::PngWriteOptions write;
      write.threads = encode_threads;
      return gpufilter::io::encode_png(m, encoding, write);
    };
  };
  const auto library = [](auto encode, int level, int strategy) {
    return [encode, level, strategy](const cv::Mat& m, unsigned) { return encode(m, level, strategy); };
  };
  const auto opencv = [](std::vector<int> params) {
    return [params](const cv::Mat& m, unsigned) {
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
      {"ours: default", ours(gpufilter::io::png_encoding_for(std::nullopt))},
      {"ours: Sub, zlib 1, Z_RLE (OpenCV's default)", ours({1, Z_RLE, sub})},
      {"ours: Up, zlib 1, Z_RLE", ours({1, Z_RLE, up})},
      {"ours: Paeth, zlib 1, Z_RLE", ours({1, Z_RLE, paeth})},
      {"ours: adaptive, zlib 1, Z_RLE", ours({1, Z_RLE, png::kAllFilters})},
      {"ours: adaptive, Huffman only", ours({1, Z_HUFFMAN_ONLY, png::kAllFilters})},
      {"ours: adaptive, zlib 1", ours({1, Z_DEFAULT_STRATEGY, png::kAllFilters})},
      {"ours: adaptive, zlib 3, Z_FILTERED", ours({3, Z_FILTERED, png::kAllFilters})},
      {"ours: adaptive, zlib 2", ours({2, Z_DEFAULT_STRATEGY, png::kAllFilters})},
      {"ours: adaptive, zlib 4, Z_FILTERED", ours({4, Z_FILTERED, png::kAllFilters})},
      {"ours: adaptive, zlib 4, Z_FILTERED, chain 4", ours({4, Z_FILTERED, png::kAllFilters, {4, 4, 16, 4}})},
      {"ours: adaptive, zlib 4, Z_FILTERED, chain 2", ours({4, Z_FILTERED, png::kAllFilters, {4, 4, 16, 2}})},
      {"ours: adaptive, zlib 4, chain 4", ours({4, Z_DEFAULT_STRATEGY, png::kAllFilters, {4, 4, 16, 4}})},
      {"ours: adaptive, zlib 9, chain 32", ours({9, Z_DEFAULT_STRATEGY, png::kAllFilters, {8, 32, 128, 32}})},
      {"ours: adaptive, zlib 9, chain 128", ours({9, Z_DEFAULT_STRATEGY, png::kAllFilters, {32, 128, 258, 128}})},
      {"ours: adaptive, zlib 9, Z_FILTERED, chain 128", ours({9, Z_FILTERED, png::kAllFilters, {32, 128, 258, 128}})},
  };
  if (options.quick) settings = {settings[0], settings[2]};
  if (options.peers) settings = {settings[2], settings[6]};
  for (int level : options.quick   ? std::vector<int>{}
                   : options.peers ? std::vector<int>{1, 6, 9}
                                   : std::vector<int>{0, 1, 2, 3, 6, 9}) {
    settings.push_back({"ours: --png-compression " + std::to_string(level),
                        ours(gpufilter::io::png_encoding_for(level))});
  }
  if (options.peers) {
    // All five filters, adaptively, in each; libpng's and libspng's default level is 6.
    settings.push_back({"libpng 1.6: level 1, Z_RLE", library(gpufilter::bench::libpng_encode, 1, Z_RLE)});
    for (int level : {1, 6, 9}) {
      settings.push_back({"libpng 1.6: level " + std::to_string(level),
                          library(gpufilter::bench::libpng_encode, level, Z_DEFAULT_STRATEGY)});
    }
    for (int level : {1, 6, 9}) {
      settings.push_back({"libspng 0.7: level " + std::to_string(level),
                          library(gpufilter::bench::libspng_encode, level, Z_DEFAULT_STRATEGY)});
    }
  }
  const double raw_bytes = static_cast<double>(image.total() * image.elemSize());
  std::printf("| encoder | ms | CPU ms | MB | ratio | decodes as the input |\n|---|---:|---:|---:|---:|---|\n");
  std::vector<unsigned char> opencv_file;
  std::vector<unsigned char> our_file;
  for (const Setting& setting : settings) {
    std::vector<unsigned char> bytes;
    double cpu = 0;
    const double ms = options.batch ? batch_ms_per_file(
                                          options.runs, threads, [&] { (void)setting.encode(image, 1); }, &cpu)
                                    : median_ms(options.runs, [&] { bytes = setting.encode(image, threads); }, &cpu);
    if (options.batch) bytes = setting.encode(image, 1);
    if (bytes.empty()) continue;  // a library the build did not find
    const cv::Mat back = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
    const bool same = !back.empty() && back.type() == image.type() && cv::norm(back, image, cv::NORM_INF) == 0;
    std::printf("| %s | %.1f | %.1f | %.2f | %.3f | %s |\n", setting.name.c_str(), ms, cpu,
                static_cast<double>(bytes.size()) / 1e6,
                static_cast<double>(bytes.size()) / raw_bytes, same ? "yes (OpenCV)" : "NO");
    if (opencv_file.empty()) opencv_file = bytes;
    if (setting.name == "ours: default") our_file = bytes;
    std::fflush(stdout);
  }

  if (options.peers || options.batch) return 0;  // decoding is timed with the full list, one file
  std::printf("\n| decoder | file | ms | CPU ms | matches OpenCV |\n|---|---|---:|---:|---|\n");
  gpufilter::io::PngReadOptions read;
  read.threads = threads;
  for (const auto& [file_name, file] :
       std::vector<std::pair<std::string, const std::vector<unsigned char>*>>{{"OpenCV's", &opencv_file},
                                                                               {"ours", &our_file}}) {
    cv::Mat reference;
    double cpu = 0;
    const double opencv_ms =
        median_ms(options.runs, [&] { reference = cv::imdecode(*file, cv::IMREAD_UNCHANGED); }, &cpu);
    std::printf("| OpenCV imdecode | %s | %.1f | %.1f | - |\n", file_name.c_str(), opencv_ms, cpu);
    gpufilter::io::PngDecodeResult result;
    const double our_ms = median_ms(
        options.runs, [&] { result = gpufilter::io::decode_png(file->data(), file->size(), read); }, &cpu);
    const bool same = !result.image.empty() && cv::norm(result.image, reference, cv::NORM_INF) == 0;
    std::printf("| ours | %s | %.1f | %.1f | %s |\n", file_name.c_str(), our_ms, cpu,
                result.image.empty() ? ("declined: " + result.declined).c_str() : same ? "yes" : "NO");
    std::fflush(stdout);
  }
  return 0;
}
