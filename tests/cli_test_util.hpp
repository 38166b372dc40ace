#pragma once
// Helpers for the end-to-end tests of the gpufilter tool: a scratch directory, running the
// built binary with stdout and stderr captured apart (and signalling it mid-run), random
// images and PNG files OpenCV cannot write.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

#ifndef GPUFILTER_CLI_PATH
#error "GPUFILTER_CLI_PATH must name the built gpufilter binary"
#endif

namespace gpufilter::cli_test {

struct ProcessResult {
  int exit_code = -1;     // -1 when the process did not exit normally
  int signal = 0;         // the signal that ended it, 0 when it exited
  long max_rss_kib = 0;   // its peak resident memory, from wait4()
  std::string out;
  std::string err;

  std::vector<std::string> err_lines() const;
};

// A fresh directory under the system temp dir, removed with everything in it.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Names of the entries in the directory, sorted.
  std::vector<std::string> entries() const;

 private:
  std::filesystem::path path_;
};

struct ProcessOptions {
  std::vector<std::string> env;     // "NAME=value", set in the child's environment
  std::vector<int> ignored_signals;  // set to SIG_IGN in the child, as nohup does for SIGHUP
  // Runs in the child between fork and exec, e.g. to plant files named after its pid.
  std::function<void()> before_exec;
};

// A started process; its destructor kills and reaps it if it still runs.
class ChildProcess {
 public:
  // Runs `program` with `args`, without a shell; captures go to files in `capture_dir`.
  // The signals the tool cleans up after start with their default action unless ignored.
  ChildProcess(const std::string& program, const std::vector<std::string>& args,
               const std::filesystem::path& capture_dir, const ProcessOptions& options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  void send(int signal_number) const;
  ProcessResult wait();

 private:
  void reap(int flags);

  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  long max_rss_kib_ = 0;
  std::filesystem::path out_path_;
  std::filesystem::path err_path_;
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& capture_dir, const ProcessOptions& options = {});

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Polls `condition` every few milliseconds until it holds (true) or `timeout` passes (false).
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout);

// Uniform random pixels in [1, max] (f32: [0.01, 1]), so no image is all zeros.
cv::Mat random_image(int rows, int cols, int cv_type, unsigned seed);
PixelFormat format_of(const cv::Mat& image);
ImageView view_of(const cv::Mat& image);
cv::Mat read_unchanged(const std::filesystem::path& path);
// Throws when the file cannot be read or written, so a test cannot compare nothing.
std::string read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::string& bytes);
// Largest per-channel difference, or -1 when size or type differ or either is empty.
double max_difference(const cv::Mat& a, const cv::Mat& b);

// A gray+alpha PNG (colour type 4) from a 2-channel 8- or 16-bit image, which OpenCV
// cannot write.
void write_gray_alpha_png(const std::filesystem::path& path, const cv::Mat& gray_alpha);
// A PNG chunk: length, type, data, and the CRC of type and data.
std::string png_chunk(const std::string& type, const std::string& data);
// A PNG's signature, IHDR chunk and IEND chunk, and no pixels: a small file whose header
// claims any size.
std::string png_header_only(std::uint32_t width, std::uint32_t height, int bit_depth, int colour_type);
struct PngIhdr {
  int bit_depth = -1;
  int colour_type = -1;
};
// From the file's IHDR chunk; -1s when it is not a PNG.
PngIhdr read_png_ihdr(const std::filesystem::path& path);

}  // namespace gpufilter::cli_test
