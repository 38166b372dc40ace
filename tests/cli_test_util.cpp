#include "cli_test_util.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace gpufilter::cli_test {
namespace fs = std::filesystem;

std::vector<std::string> ProcessResult::err_lines() const {
  std::vector<std::string> lines;
  std::istringstream stream(err);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

ScratchDir::ScratchDir() {
  std::string pattern = (fs::temp_directory_path() / "gpufilter-cli-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::vector<std::string> ScratchDir::entries() const {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(path_)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const fs::path& capture_dir) {
  const fs::path out_path = capture_dir / "stdout.txt";
  const fs::path err_path = capture_dir / "stderr.txt";
  std::vector<std::string> storage{program};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot start " + program);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_bytes(out_path);
  result.err = read_bytes(err_path);
  return result;
}

cv::Mat random_image(int rows, int cols, int cv_type, unsigned seed) {
  cv::Mat image(rows, cols, cv_type);
  cv::RNG rng(seed);
  switch (CV_MAT_DEPTH(cv_type)) {
    case CV_8U: rng.fill(image, cv::RNG::UNIFORM, 1, 256); break;
    case CV_16U: rng.fill(image, cv::RNG::UNIFORM, 1, 65536); break;
    default: rng.fill(image, cv::RNG::UNIFORM, 0.01, 1.0); break;
  }
  return image;
}

PixelFormat format_of(const cv::Mat& image) {
  PixelFormat format;
  format.type = image.depth() == CV_8U ? ChannelType::U8 : image.depth() == CV_16U ? ChannelType::U16 : ChannelType::F32;
  format.channels = image.channels();
  return format;
}

ImageView view_of(const cv::Mat& image) {
  ImageView view;
  view.data = image.data;
  view.width = image.cols;
  view.height = image.rows;
  view.pitch = image.step[0];
  view.format = format_of(image);
  return view;
}

cv::Mat read_unchanged(const fs::path& path) { return cv::imread(path.string(), cv::IMREAD_UNCHANGED); }

std::string read_bytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

double max_difference(const cv::Mat& a, const cv::Mat& b) {
  if (a.size() != b.size() || a.type() != b.type()) return -1.0;
  return cv::norm(a, b, cv::NORM_INF);
}

}  // namespace gpufilter::cli_test
