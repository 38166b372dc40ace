#include "gpufilter/io/image_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/codec_messages.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/jpeg_file.hpp"
#include "gpufilter/io/quiet_stderr.hpp"
#include "gpufilter/io/standard_streams.hpp"
#include "codecs/codec.hpp"
#include "codecs/image_formats.hpp"
#include "files/quoted_path.hpp"

namespace gpufilter::io {
namespace fs = std::filesystem;
namespace {


// OpenCV stores 3-channel float TIFF as LogLuv, which rounds the values; LZW keeps them.
constexpr int kTiffCompressionLzw = 5;

std::string join_choices(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? " or " : ", ";
    text += items[i];
  }
  return text;
}

bool have_writer(const std::string& filename) {
  QuietStderr quiet;
  try {
    return codecs::have_writer(filename);
  } catch (const cv::Exception&) {
    return false;
  }
}

std::vector<std::string> writable_suffixes() {
  std::vector<std::string> suffixes;
  // Offered in the table's order, each only where this OpenCV build can write it.
  for (const std::string& suffix : suffixes_where([](const SuffixEntry& entry) { return entry.offered; })) {
    if (have_writer("image" + suffix)) suffixes.push_back(suffix);
  }
  return suffixes;
}

// Round-trips a tiny image through the encoder: the only reliable way to learn whether a
// format keeps a depth and channel count, since imwrite silently converts what it cannot
// store (16-bit to 8-bit for JPEG, BGRA to BGR for BMP).
bool format_holds(const std::string& suffix, int cv_type) {
  cv::Mat probe(2, 3, cv_type, cv::Scalar::all(1));
  QuietStderr quiet;
  try {
    std::vector<uchar> bytes;
    if (!codecs::encode(suffix, probe, bytes, encoder_params())) return false;
    const cv::Mat decoded = codecs::decode(bytes, cv::IMREAD_UNCHANGED);
    return !decoded.empty() && decoded.type() == probe.type();
  } catch (const cv::Exception&) {
    return false;
  } catch (const codecs::DecodeFailure&) {
    return false;
  } catch (const codecs::EncodeFailure&) {
    return false;
  }
}

const char* depth_name(int depth) {
  switch (depth) {
    case CV_8U: return "8-bit unsigned";
    case CV_8S: return "8-bit signed";
    case CV_16U: return "16-bit unsigned";
    case CV_16S: return "16-bit signed";
    case CV_32S: return "32-bit integer";
    case CV_32F: return "32-bit float";
    case CV_64F: return "64-bit float";
    default: return "16-bit float";
  }
}

}  // namespace

const std::vector<int>& encoder_params() {
  static const std::vector<int> params{cv::IMWRITE_TIFF_COMPRESSION, kTiffCompressionLzw};
  return params;
}

void silence_codec_logging() {
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
}

cv::Mat read_image(const fs::path& path, bool autorotate) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error && error != std::errc::no_such_file_or_directory) {
    throw IoError(Fault::Input, "cannot read " + quoted(path) + ": " + error.message());
  }
  if (!fs::exists(status)) throw IoError(Fault::Input, "cannot read " + quoted(path) + ": no such file");
  if (fs::is_directory(status)) {
    throw IoError(Fault::Input, "cannot read " + quoted(path) + ": it is a directory");
  }
  if (::access(path.c_str(), R_OK) != 0) {
    throw IoError(Fault::Input, "cannot read " + quoted(path) + ": " + std::strerror(errno));
  }
  // IMREAD_UNCHANGED keeps depth and alpha but ignores a photo's EXIF orientation.
  // A JPEG has no alpha, and any-depth any-colour decoding turns it upright as every
  // viewer shows it (phone photos are stored sideways with an orientation tag).
  const bool upright = autorotate && starts_like_jpeg(path);
  const int flags = upright ? cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR : cv::IMREAD_UNCHANGED;
  std::vector<std::string> own_notes;  // from the tool's own readers, which print nothing
  auto [decoded, messages] = run_with_codec_messages([&]() -> std::pair<cv::Mat, std::string> {
    own_notes.clear();  // a decode may be run twice, to take its messages alone
    try {
      return {codecs::read(path.string(), flags, &own_notes), std::string()};
    } catch (const cv::Exception& exception) {
      return {cv::Mat(), exception.err};
    } catch (const codecs::DecodeFailure& failure) {
      return {cv::Mat(), failure.what()};
    }
  });
  auto& [image, failure] = decoded;
  CodecComplaints complaints = sort_codec_messages(messages);
  complaints.notes.insert(complaints.notes.end(), own_notes.begin(), own_notes.end());
  // A decoder that warned about the pixels filled what it could not read (a truncated
  // JPEG comes out grey below the break): that image is not the file's either.
  if (image.empty() || !complaints.damage.empty()) {
    const std::string reason = !failure.empty()             ? failure
                               : !complaints.damage.empty() ? complaints.damage
                                                            : "not an image format OpenCV reads, or the file is "
                                                              "truncated or corrupt";
    throw IoError(Fault::Input, "cannot decode " + quoted(path) + ": " + reason);
  }
  for (const std::string& note : complaints.notes) write_stderr("gpufilter: note: " + quoted(path) + ": " + note + "\n");
  return image;
}

PixelFormat pixel_format_of(const cv::Mat& image, const fs::path& source) {
  PixelFormat format;
  bool known_depth = true;
  switch (image.depth()) {
    case CV_8U: format.type = ChannelType::U8; break;
    case CV_16U: format.type = ChannelType::U16; break;
    case CV_32F: format.type = ChannelType::F32; break;
    default: known_depth = false;
  }
  format.channels = image.channels();
  const bool known_channels = format.channels == 1 || format.channels == 3 || format.channels == 4;
  if (!known_depth || !known_channels || image.dims != 2) {
    throw IoError(Fault::Input, "unsupported pixel format in " + quoted(source) + ": " +
                                        depth_name(image.depth()) + " with " +
                                        std::to_string(image.channels()) +
                                        " channel(s); gpufilter takes 8-bit, 16-bit or 32-bit float "
                                        "pixels with 1, 3 or 4 channels");
  }
  return format;
}

int cv_type_of(PixelFormat format) {
  const int depth = format.type == ChannelType::U8 ? CV_8U : format.type == ChannelType::U16 ? CV_16U : CV_32F;
  return CV_MAKETYPE(depth, format.channels);
}

ImageView host_view(const cv::Mat& image, PixelFormat format) {
  ImageView view;
  view.data = image.data;
  view.width = image.cols;
  view.height = image.rows;
  view.pitch = image.step[0];
  view.format = format;
  return view;
}

void check_output_target(const fs::path& output, const std::string& format) {
  const std::string suffix = format.empty() ? output.extension().string() : format;
  if (suffix.empty() || suffix == ".") {
    throw IoError(Fault::Request, "OUT " + quoted(output) + " has no suffix to pick a format by; use " +
                                        join_choices(writable_suffixes()) + ", or name one with --format");
  }
  if (!have_writer(format.empty() ? output.string() : "image" + format)) {
    throw IoError(Fault::Request, "unsupported output suffix '" + suffix + "'; use " +
                                        join_choices(writable_suffixes()));
  }
  if (is_standard_output(output)) return;  // no file, no directory
  const fs::path directory = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  std::error_code error;
  const fs::file_status status = fs::status(directory, error);
  if (!fs::exists(status)) {
    throw IoError(Fault::Output, "output directory " + quoted(directory) + " does not exist");
  }
  if (!fs::is_directory(status)) {
    throw IoError(Fault::Output, "output directory " + quoted(directory) + " is not a directory");
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    throw IoError(Fault::Output, "output directory " + quoted(directory) + " is not writable: " +
                                         std::strerror(errno));
  }
  if (fs::is_directory(output, error)) {
    throw IoError(Fault::Output, "OUT " + quoted(output) + " is a directory");
  }
}

bool same_file(const fs::path& input, const fs::path& output) {
  struct stat in {};
  struct stat out {};
  return ::stat(input.c_str(), &in) == 0 && ::lstat(output.c_str(), &out) == 0 && in.st_dev == out.st_dev &&
         in.st_ino == out.st_ino;
}

bool output_exists(const fs::path& output) {
  struct stat status {};
  return ::lstat(output.c_str(), &status) == 0;
}

void refuse_existing_output(const fs::path& output, bool replace_existing, const std::string& name) {
  if (!replace_existing && output_exists(output))
    throw IoError(Fault::Request, name + " " + quoted(output) + " exists; pass -y to replace it");
}

OutputFit check_output_holds(const fs::path& output, PixelFormat format, const std::string& output_format) {
  const int type = cv_type_of(format);
  const std::string suffix = output_format.empty() ? output.extension().string() : output_format;
  if (format_holds(suffix, type)) return OutputFit::AsIs;
  if (format.channels == 4 && format.type != ChannelType::F32 &&
      format_holds(suffix, cv_type_of(PixelFormat{format.type, 3})))
    return OutputFit::FlattenAlpha;
  std::vector<std::string> alternatives;
  for (const std::string& candidate : suffixes_where([](const SuffixEntry& entry) { return entry.lossless_choice; })) {
    if (have_writer("image" + candidate) && format_holds(candidate, type)) alternatives.push_back(candidate);
  }
  std::string message = "cannot write " + format.name() + " pixels as " + suffix;
  message += alternatives.empty() ? "; no output format here holds them" : "; use " + join_choices(alternatives);
  throw IoError(Fault::Output, message);
}

}  // namespace gpufilter::io
