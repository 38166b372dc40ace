#include "gpufilter/io/write_output.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "gpufilter/io/io_error.hpp"
#include "codecs/gray_alpha_png.hpp"
#include "gpufilter/io/image_files.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/quiet_stderr.hpp"
#include "gpufilter/io/standard_streams.hpp"
#include "gpufilter/io/stop_request.hpp"
#include "gpufilter/io/temp_file.hpp"
#include "files/quoted_path.hpp"
#include "codecs/codec.hpp"

namespace gpufilter::io {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPauseBeforeCommit = "GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS";
constexpr const char* kPauseAfterEncode = "GPUFILTER_TEST_PAUSE_AFTER_ENCODE_MS";

void pause_for_tests(const char* hook) {
  const char* text = std::getenv(hook);
  if (text == nullptr) return;
  int ms = 0;
  const char* end = text + std::strlen(text);
  if (std::from_chars(text, end, ms).ptr != end || ms <= 0) return;
  // In short steps: a server's caller that goes away meanwhile ends the pause, so a test
  // can hold a run at this point for as long as it needs without waiting it out.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until && !cancel_request().load())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// OpenCV's encoders, into memory. Returns why it failed, or an empty string; what the
// codec library printed meanwhile is added to the failure, or else to `notes` as a line
// naming OUT (never dropped).
std::string encode_with_opencv(const cv::Mat& image, const std::string& suffix, const EncodeOptions& options,
                               std::vector<unsigned char>& bytes, const fs::path& output, std::string& notes) {
  std::vector<int> params = encoder_params();
  params.insert(params.end(), {cv::IMWRITE_JPEG_QUALITY, options.jpeg_quality});
  if (options.png_compression) params.insert(params.end(), {cv::IMWRITE_PNG_COMPRESSION, *options.png_compression});
  auto [failure, messages] = run_with_codec_messages([&]() -> std::string {
    bytes.clear();
    try {
      return codecs::encode(suffix, image, bytes, params) ? std::string() : std::string("the encoder failed");
    } catch (const cv::Exception& exception) {
      return exception.err;
    } catch (const codecs::EncodeFailure& refused) {
      return refused.what();
    }
  });
  std::string said;
  for (const char c : messages) said += c == '\n' ? ' ' : c;
  while (!said.empty() && said.back() == ' ') said.pop_back();
  if (said.empty()) return failure;
  if (!failure.empty()) return failure + " (" + said + ")";
  notes += "gpufilter: note: " + quoted(output) + ": the encoder said: " + said + "\n";
  return failure;
}

// IN's metadata added to the encoded OUT: the warnings for what could not be read or
// written, one line each (the file keeps its pixels either way).
std::string add_metadata(std::vector<unsigned char>& bytes, const fs::path& output, const std::string& suffix,
                         const ImageMetadata* metadata, int width, int height) {
  if (metadata == nullptr || !suffix_holds_metadata(suffix)) return "";
  std::string warnings;
  if (!metadata->problem().empty())
    warnings += "gpufilter: warning: " + metadata->problem() + " (" + quoted(output) + " carries what was read)\n";
  const std::string failure = write_metadata(bytes, suffix, *metadata, width, height);
  if (!failure.empty())
    warnings += "gpufilter: warning: " + quoted(output) + " is written without IN's metadata: " + failure + "\n";
  return warnings;
}

// The complete file, already in memory, into a temporary file renamed onto OUT (or onto
// the standard output for OUT '-').
void commit_bytes(const fs::path& output, const std::vector<unsigned char>& bytes, bool replace_existing,
                  const std::string& cannot_write) {
  if (is_standard_output(output)) {
    write_standard_output(bytes);
    return;
  }
  pause_for_tests(kPauseAfterEncode);
  try {
    TemporaryFile temporary(output);
    const int error = temporary.append(bytes.data(), bytes.size());
    if (error != 0) throw IoError(Fault::Output, cannot_write + std::strerror(error));
    pause_for_tests(kPauseBeforeCommit);
    throw_if_cancelled();  // a server's caller gone meanwhile: OUT stays as it was
    temporary.commit(replace_existing);
  } catch (const std::system_error& error) {
    throw IoError(Fault::Output, cannot_write + error.what());
  }
}

}  // namespace

std::string write_image_atomically(const fs::path& output, const cv::Mat& image, PixelFormat format,
                                   ChannelLayout layout, const EncodeOptions& options, const ImageMetadata* metadata) {
  const std::string suffix = output_suffix(output, options.format);
  const std::string cannot_write = "cannot write " + format.name() + " pixels as " + suffix + " to " + quoted(output) + ": ";
  std::vector<unsigned char> bytes;
  std::string notes;
  const std::string failure = layout == ChannelLayout::GrayAlpha && suffix == ".png"
                            ? encode_gray_alpha_png(image, options.png_compression, bytes)
                            : encode_with_opencv(image, suffix, options, bytes, output, notes);
  if (!failure.empty()) throw IoError(Fault::Output, cannot_write + failure);
  const std::string warnings = notes + add_metadata(bytes, output, suffix, metadata, image.cols, image.rows);
  commit_bytes(output, bytes, options.replace_existing, cannot_write);
  return warnings;
}

std::string write_encoded_atomically(const fs::path& output, std::vector<unsigned char> bytes,
                                     const std::string& what, bool replace_existing, const ImageMetadata* metadata,
                                     int width, int height, const std::string& format) {
  const std::string cannot_write = "cannot write the " + what + " file " + quoted(output) + ": ";
  const std::string warnings = add_metadata(bytes, output, output_suffix(output, format), metadata, width, height);
  commit_bytes(output, bytes, replace_existing, cannot_write);
  return warnings;
}

}  // namespace gpufilter::io
