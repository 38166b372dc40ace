#include "gpufilter/io/codecs.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>  // the IMREAD_ and IMWRITE_ constants only

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <climits>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <future>
#include <mutex>
#include <optional>

#include "codecs/codec_module.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/image_size.hpp"
#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/jpeg_metadata.hpp"
#include "gpufilter/io/png_reader.hpp"
#include "gpufilter/io/png_writer.hpp"
#include "codecs/jpeg_cpu_codec.hpp"
#include "codecs/png_chunk_lengths.hpp"
#include "codecs/png_libpng_reader.hpp"

#ifndef GPUFILTER_CODEC_MODULE_NAME
#error "GPUFILTER_CODEC_MODULE_NAME must name the codec module's file"
#endif
#ifndef GPUFILTER_CODEC_MODULE_INSTALL_DIR
#error "GPUFILTER_CODEC_MODULE_INSTALL_DIR must name the installed module's directory, relative to the tool's"
#endif

namespace gpufilter::io::codecs {
namespace {

// The folder of the shared object this code is linked into: a library that links
// gpufilter_io (libgpufilter_c in the Python package) keeps the module beside itself.
// For a program that links it statically, the program's own folder.
std::filesystem::path code_directory() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&code_directory), &info) == 0 || info.dli_fname == nullptr) return {};
  return std::filesystem::weakly_canonical(info.dli_fname).parent_path();
}

std::filesystem::path executable_directory() {
  char path[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return {};
  return std::filesystem::path(std::string(path, static_cast<std::size_t>(length))).parent_path();
}

// Beside the library or the tool (the build tree, the Python package), then where
// `cmake --install` puts it, relative to the library (libgpufilter_c in lib/) or to the
// tool, so the installed tree can move.
const CodecModule* load() {
  const std::filesystem::path here = executable_directory();
  const std::filesystem::path code = code_directory();
  std::string errors;
  for (const std::filesystem::path& candidate :
       {code / GPUFILTER_CODEC_MODULE_NAME, here / GPUFILTER_CODEC_MODULE_NAME,
        code / GPUFILTER_CODEC_MODULE_DIR_FROM_LIBRARY / GPUFILTER_CODEC_MODULE_NAME,
        here / GPUFILTER_CODEC_MODULE_INSTALL_DIR / GPUFILTER_CODEC_MODULE_NAME}) {
    if (!std::filesystem::exists(candidate)) continue;
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      errors += std::string("; ") + ::dlerror();
      continue;
    }
    using Entry = const CodecModule* (*)();
    const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "gpufilter_codec_module"));
    const CodecModule* module = entry ? entry() : nullptr;
    if (module != nullptr && module->version == kCodecModuleVersion) return module;
    errors += "; " + candidate.string() + " is from another build";
  }
  throw IoError(Fault::Runtime, std::string("cannot load the image codecs (") + GPUFILTER_CODEC_MODULE_NAME +
                                        " beside the tool or in " + (here / GPUFILTER_CODEC_MODULE_INSTALL_DIR).string() +
                                        ")" + errors);
}

std::once_flag g_started;
std::shared_future<const CodecModule*> g_module;

const CodecModule& module() {
  start_loading();  // a no-op once started; makes every entry point safe to call first
  return *g_module.get();
}

std::atomic<unsigned> g_threads_per_file{0};

// IMWRITE_PNG_COMPRESSION's value among OpenCV-style (name, value) pairs.
std::optional<int> png_compression_in(const std::vector<int>& params) {
  std::optional<int> level;
  for (std::size_t i = 0; i + 1 < params.size(); i += 2)
    if (params[i] == cv::IMWRITE_PNG_COMPRESSION) level = params[i + 1];
  return level;
}

// IMWRITE_JPEG_QUALITY's value (OpenCV's default 95) where the pairs ask nothing else of
// a JPEG encoder (progressive, optimised, restart intervals, ...): what jpeg_cpu encodes.
std::optional<int> plain_jpeg_quality(const std::vector<int>& params) {
  int quality = 95;
  for (std::size_t i = 0; i + 1 < params.size(); i += 2) {
    if (params[i] == cv::IMWRITE_JPEG_QUALITY)
      quality = params[i + 1];
    else if (params[i] != cv::IMWRITE_PNG_COMPRESSION && params[i] != cv::IMWRITE_TIFF_COMPRESSION)
      return std::nullopt;
  }
  return quality;
}

// The read flags jpeg_cpu decodes as OpenCV would: UNCHANGED, or any depth and colour
// (which turns a photo upright by its EXIF orientation, as OpenCV does for every flag but
// UNCHANGED and IGNORE_ORIENTATION).
bool plain_jpeg_flags(int flags) {
  return flags == cv::IMREAD_UNCHANGED || flags == (cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR);
}

bool ends_with_eoi(const unsigned char* data, std::size_t size) {
  return size >= 2 && data[size - 2] == 0xFF && data[size - 1] == 0xD9;
}

std::optional<cv::Mat> decode_jpeg(const unsigned char* data, std::size_t size, int flags,
                                   std::vector<std::string>* notes) {
  if (!plain_jpeg_flags(flags) || !starts_like_jpeg(data, size)) return std::nullopt;
  const bool upright = flags != cv::IMREAD_UNCHANGED;
  if (std::optional<cv::Mat> image = jpeg_cpu::decode(data, size, upright, decoder_pixel_limit())) return image;
  // A file that ends without its end-of-image marker (EOI) makes libjpeg warn "Premature
  // end of JPEG file" whether or not its last scan is whole. With the marker put back, a
  // whole scan decodes without a warning, while one cut short still warns (the data
  // ends inside it): libjpeg-turbo's own tools decode the first with that warning.
  if (ends_with_eoi(data, size)) return std::nullopt;
  std::vector<unsigned char> completed(data, data + size);
  completed.insert(completed.end(), {0xFF, 0xD9});
  std::optional<cv::Mat> image = jpeg_cpu::decode(completed.data(), completed.size(), upright, decoder_pixel_limit());
  if (image && notes != nullptr)
    notes->push_back("the file ends without its end-of-image marker (EOI); every scan is whole, and decoded");
  return image;
}

// A PNG file that the tool's own reader declined: refused where a chunk's length runs
// past the end of the file (a codec would allocate it first), else read by libpng.
cv::Mat decode_declined_png(const unsigned char* data, std::size_t size, std::vector<std::string>* notes) {
  if (const std::string problem = png_chunk_length_problem(data, size); !problem.empty()) throw DecodeFailure(problem);
  LibpngDecodeResult result = decode_png_with_libpng(data, size, decoder_pixel_limit());
  if (!result.damage.empty()) throw DecodeFailure(result.damage);
  if (notes != nullptr) notes->insert(notes->end(), result.notes.begin(), result.notes.end());
  return result.image;
}

// The whole of the file at `path` where it starts like a PNG file; nullopt after its first
// bytes otherwise, or where it cannot be read.
std::optional<std::vector<unsigned char>> whole_png_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<char, 8> head{};
  if (!file.read(head.data(), head.size()) ||
      !looks_like_png(reinterpret_cast<const unsigned char*>(head.data()), head.size()))
    return std::nullopt;
  std::vector<unsigned char> bytes(head.begin(), head.end());
  bytes.insert(bytes.end(), std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (file.bad()) return std::nullopt;
  return bytes;
}

}  // namespace

void set_threads_per_file(unsigned threads) { g_threads_per_file = threads; }
unsigned threads_per_file() { return g_threads_per_file; }

void start_loading() {
  std::call_once(g_started, [] {
    try {
      g_module = std::async(std::launch::async, load).share();
    } catch (const std::system_error&) {
      g_module = std::async(std::launch::deferred, load).share();  // no thread to be had: load when first used
    }
  });
}

bool own_codec_takes(const std::filesystem::path& path) {
  return is_png_path(path) || (is_jpeg_path(path) && jpeg_cpu::available());
}

bool have_writer(const std::string& filename) {
  if (own_codec_takes(filename)) return true;
  return module().have_writer(filename);
}

bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
            const std::vector<int>& params) {
  if (is_png_path("image" + suffix) && png_writer_takes(image, false)) {
    PngWriteOptions options;
    options.compression = png_compression_in(params);
    options.threads = threads_per_file();
    try {
      bytes = encode_png(image, options);
      return true;
    } catch (const std::exception&) {
      // Out of memory for the strips: OpenCV's encoder needs less.
    }
  }
  if (is_jpeg_path("image" + suffix)) {
    const int threads = threads_per_file() > 0 ? static_cast<int>(threads_per_file()) : cv::getNumThreads();
    if (const std::optional<int> quality = plain_jpeg_quality(params);
        quality && jpeg_cpu::encode(image, *quality, bytes, threads))
      return true;
  }
  return module().encode(suffix, image, bytes, params);
}

cv::Mat decode(const std::vector<unsigned char>& bytes, int flags, std::vector<std::string>* notes) {
  if (flags == cv::IMREAD_UNCHANGED && looks_like_png(bytes.data(), bytes.size())) {
    PngDecodeResult result = decode_png(bytes.data(), bytes.size(), PngReadOptions{true, threads_per_file()});
    if (!result.image.empty()) return result.image;
    return decode_declined_png(bytes.data(), bytes.size(), notes);
  }
  if (std::optional<cv::Mat> image = decode_jpeg(bytes.data(), bytes.size(), flags, notes)) return *std::move(image);
  return module().decode(bytes, flags);
}

cv::Mat read(const std::string& path, int flags, std::vector<std::string>* notes) {
  if (flags == cv::IMREAD_UNCHANGED) {
    PngDecodeResult result = read_png_file(path, PngReadOptions{true, threads_per_file()});
    if (!result.image.empty()) return result.image;
    if (const std::optional<std::vector<unsigned char>> bytes = whole_png_file(path))
      return decode_declined_png(bytes->data(), bytes->size(), notes);
  }
  if (plain_jpeg_flags(flags) && jpeg_cpu::available()) {
    if (const auto bytes = read_jpeg_file(path)) {
      if (std::optional<cv::Mat> image = decode_jpeg(bytes->data(), bytes->size(), flags, notes))
        return *std::move(image);
    }
  }
  return module().read(path, flags);
}

}  // namespace gpufilter::io::codecs
