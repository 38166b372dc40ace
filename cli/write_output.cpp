#include "write_output.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "exit_codes.hpp"
#include "gray_alpha_png.hpp"
#include "image_files.hpp"
#include "codecs.hpp"
#include "quiet_stderr.hpp"
#include "temp_file.hpp"

namespace gpufilter::cli {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPauseHook = "GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS";

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::string lower_suffix(const fs::path& path) {
  std::string suffix = path.extension().string();
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return suffix;
}

void pause_for_tests() {
  const char* text = std::getenv(kPauseHook);
  if (text == nullptr) return;
  int ms = 0;
  const char* end = text + std::strlen(text);
  if (std::from_chars(text, end, ms).ptr != end || ms <= 0) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// OpenCV's encoders, into memory, with `jpeg_metadata` inserted into a JPEG. Returns why
// it failed, or an empty string.
std::string encode_with_opencv(const cv::Mat& image, const std::string& suffix, const EncodeOptions& options,
                               const std::vector<JpegSegment>& jpeg_metadata, TemporaryFile& file) {
  std::vector<int> params = encoder_params();
  params.insert(params.end(), {cv::IMWRITE_JPEG_QUALITY, options.jpeg_quality});
  if (options.png_compression) params.insert(params.end(), {cv::IMWRITE_PNG_COMPRESSION, *options.png_compression});
  std::vector<uchar> bytes;
  std::string failure;
  {
    QuietStderr quiet;
    try {
      if (!codecs::encode(suffix, image, bytes, params)) failure = "the encoder failed";
    } catch (const cv::Exception& exception) {
      failure = exception.err;
    }
  }
  if (!failure.empty()) return failure;
  insert_jpeg_segments(bytes, jpeg_metadata);
  const int error = file.append(bytes.data(), bytes.size());
  return error == 0 ? std::string() : std::strerror(error);
}

}  // namespace

void write_image_atomically(const fs::path& output, const cv::Mat& image, PixelFormat format,
                            ChannelLayout layout, const EncodeOptions& options,
                            const std::vector<JpegSegment>& jpeg_metadata) {
  const std::string cannot_write = "cannot write " + format.name() + " pixels as " + output.extension().string() +
                                   " to " + quoted(output) + ": ";
  try {
    TemporaryFile temporary(output);
    const std::string suffix = lower_suffix(output);
    const std::string failure = layout == ChannelLayout::GrayAlpha && suffix == ".png"
                                    ? write_gray_alpha_png(image, options.png_compression, temporary)
                                    : encode_with_opencv(image, suffix, options,
                                                         is_jpeg_output(output) ? jpeg_metadata : std::vector<JpegSegment>{},
                                                         temporary);
    if (!failure.empty()) throw CliError(ExitCode::Output, cannot_write + failure);
    pause_for_tests();
    temporary.commit();
  } catch (const std::system_error& error) {
    throw CliError(ExitCode::Output, cannot_write + error.what());
  }
}

void write_encoded_atomically(const fs::path& output, const std::vector<unsigned char>& bytes,
                              const std::string& what) {
  const std::string cannot_write = "cannot write the " + what + " file " + quoted(output) + ": ";
  try {
    TemporaryFile temporary(output);
    const int error = temporary.append(bytes.data(), bytes.size());
    if (error != 0) throw CliError(ExitCode::Output, cannot_write + std::strerror(error));
    pause_for_tests();
    temporary.commit();
  } catch (const std::system_error& error) {
    throw CliError(ExitCode::Output, cannot_write + error.what());
  }
}

}  // namespace gpufilter::cli
