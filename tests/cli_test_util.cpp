#include "cli_test_util.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gpufilter::cli_test {
namespace fs = std::filesystem;
namespace {

// The signals the tool removes its temporary file on.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// In the forked child: set up and exec, or exit 127. The parent is single-threaded
// when tests run, so the child may allocate.
[[noreturn]] void exec_child(std::vector<std::string> argv_storage, const fs::path& out_path,
                             const fs::path& err_path, const ProcessOptions& options) {
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0 || err < 0 || ::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) ::_exit(127);
  ::close(out);
  ::close(err);
  // Whatever the test runner inherited (a shell's background jobs ignore SIGINT), the
  // tool starts as from a terminal, except for what the test asks to be ignored.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int signal_number : kCleanupSignals) {
    const bool ignore = std::find(options.ignored_signals.begin(), options.ignored_signals.end(), signal_number) !=
                        options.ignored_signals.end();
    ::signal(signal_number, ignore ? SIG_IGN : SIG_DFL);
  }
  for (const std::string& entry : options.env) ::putenv(::strdup(entry.c_str()));
  if (options.before_exec) options.before_exec();
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

}  // namespace

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

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args,
                           const fs::path& capture_dir, const ProcessOptions& options)
    : out_path_(capture_dir / "stdout.txt"), err_path_(capture_dir / "stderr.txt") {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("cannot fork to start " + program);
  if (pid_ == 0) exec_child(std::move(argv), out_path_, err_path_, options);
}

ChildProcess::~ChildProcess() {
  if (reaped_) return;
  ::kill(pid_, SIGKILL);
  reap(0);
}

void ChildProcess::reap(int flags) {
  rusage usage{};
  pid_t done = -1;
  do {
    done = ::wait4(pid_, &status_, flags, &usage);
  } while (done < 0 && errno == EINTR);
  if (done < 0) throw std::runtime_error(std::string("wait4 failed: ") + std::strerror(errno));
  if (done == pid_) {
    reaped_ = true;
    max_rss_kib_ = usage.ru_maxrss;
  }
}

bool ChildProcess::running() {
  if (!reaped_) reap(WNOHANG);
  return !reaped_;
}

void ChildProcess::send(int signal_number) const {
  if (!reaped_) ::kill(pid_, signal_number);
}

ProcessResult ChildProcess::wait() {
  if (!reaped_) reap(0);
  ProcessResult result;
  result.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
  result.signal = WIFSIGNALED(status_) ? WTERMSIG(status_) : 0;
  result.max_rss_kib = max_rss_kib_;
  result.out = read_bytes(out_path_);
  result.err = read_bytes(err_path_);
  return result;
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const fs::path& capture_dir, const ProcessOptions& options) {
  return ChildProcess(program, args, capture_dir, options).wait();
}

bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
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
  if (!file) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush()) throw std::runtime_error("cannot write " + path.string());
}

double max_difference(const cv::Mat& a, const cv::Mat& b) {
  if (a.empty() || b.empty() || a.size() != b.size() || a.type() != b.type()) return -1.0;
  return cv::norm(a, b, cv::NORM_INF);
}

namespace {

void put_big_endian_32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xff);
}

std::string png_signature_and_ihdr(std::uint32_t width, std::uint32_t height, int bit_depth, int colour_type) {
  std::string ihdr;
  put_big_endian_32(ihdr, width);
  put_big_endian_32(ihdr, height);
  ihdr += static_cast<char>(bit_depth);
  ihdr += static_cast<char>(colour_type);
  ihdr += std::string(3, '\0');  // deflate, adaptive filtering, no interlace
  return std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr);
}

}  // namespace

std::string png_chunk(const std::string& type, const std::string& data) {
  std::string out;
  put_big_endian_32(out, static_cast<std::uint32_t>(data.size()));
  const std::string body = type + data;
  out += body;
  put_big_endian_32(out, static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                                            static_cast<uInt>(body.size()))));
  return out;
}

// Written by hand (filter 0 on every row, one zlib stream), independent of the libpng
// code the tool writes gray+alpha with.
void write_gray_alpha_png(const fs::path& path, const cv::Mat& gray_alpha) {
  if (gray_alpha.channels() != 2 || (gray_alpha.depth() != CV_8U && gray_alpha.depth() != CV_16U))
    throw std::invalid_argument("write_gray_alpha_png takes an 8- or 16-bit 2-channel image");
  const bool sixteen = gray_alpha.depth() == CV_16U;
  std::string rows;
  for (int y = 0; y < gray_alpha.rows; ++y) {
    rows += '\0';  // filter type: none
    for (int x = 0; x < gray_alpha.cols * 2; ++x) {
      if (sixteen) {
        const std::uint16_t value = gray_alpha.ptr<std::uint16_t>(y)[x];
        rows += static_cast<char>(value >> 8);
        rows += static_cast<char>(value & 0xff);
      } else {
        rows += static_cast<char>(gray_alpha.ptr<std::uint8_t>(y)[x]);
      }
    }
  }
  std::string compressed(::compressBound(static_cast<uLong>(rows.size())), '\0');
  uLongf compressed_size = static_cast<uLongf>(compressed.size());
  if (::compress(reinterpret_cast<Bytef*>(compressed.data()), &compressed_size,
                 reinterpret_cast<const Bytef*>(rows.data()), static_cast<uLong>(rows.size())) != Z_OK)
    throw std::runtime_error("zlib could not compress the test image");
  compressed.resize(compressed_size);
  write_bytes(path, png_signature_and_ihdr(static_cast<std::uint32_t>(gray_alpha.cols),
                                           static_cast<std::uint32_t>(gray_alpha.rows), sixteen ? 16 : 8, 4) +
                        png_chunk("IDAT", compressed) + png_chunk("IEND", ""));
}

std::string png_header_only(std::uint32_t width, std::uint32_t height, int bit_depth, int colour_type) {
  return png_signature_and_ihdr(width, height, bit_depth, colour_type) + png_chunk("IEND", "");
}

PngIhdr read_png_ihdr(const fs::path& path) {
  const std::string bytes = read_bytes(path);
  if (bytes.size() < 26 || bytes.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0 ||
      bytes.compare(12, 4, "IHDR") != 0)
    return {};
  return {static_cast<unsigned char>(bytes[24]), static_cast<unsigned char>(bytes[25])};
}

}  // namespace gpufilter::cli_test
