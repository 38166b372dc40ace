#pragma once
// Helpers for the end-to-end tests of the gpufilter tool: a scratch directory, running the
// built binary with stdout and stderr captured apart, and random images.
#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cli_test {

struct ProcessResult {
  int exit_code = -1;  // -1 when the process did not exit normally
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

// Runs `program` with `args`, without a shell; captures go to files in `capture_dir`.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& capture_dir);

// Uniform random pixels in [1, max] (f32: [0.01, 1]), so no image is all zeros.
cv::Mat random_image(int rows, int cols, int cv_type, unsigned seed);
PixelFormat format_of(const cv::Mat& image);
ImageView view_of(const cv::Mat& image);
cv::Mat read_unchanged(const std::filesystem::path& path);
std::string read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::string& bytes);
// Largest per-channel difference, or -1 when size or type differ.
double max_difference(const cv::Mat& a, const cv::Mat& b);

}  // namespace gpufilter::cli_test
