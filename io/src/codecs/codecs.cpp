#include "gpufilter/io/codecs.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <climits>
#include <cstring>
#include <exception>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>

#include "codecs/codec.hpp"
#include "codecs/codec_module.hpp"
#include "codecs/written_metadata_mends.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/io_error.hpp"

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

bool signature_at(const unsigned char* data, std::size_t size, std::size_t offset, const char* text, std::size_t length) {
  return size >= offset + length && std::memcmp(data + offset, text, length) == 0;
}

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Netpbm (P1-P6), PAM (P7) and PFM (Pf, PF): the letter, the kind, then white space.
const char* netpbm_suffix(const unsigned char* data, std::size_t size) {
  if (size < 3 || data[0] != 'P' || !is_space(data[2])) return "";
  switch (data[1]) {
    case '1':
    case '4': return ".pbm";
    case '2':
    case '5': return ".pgm";
    case '3':
    case '6': return ".ppm";
    case '7': return ".pam";
    case 'f':
    case 'F': return ".pfm";
    default: return "";
  }
}

// OpenCV's codec module as the table's last codec: it takes every format it knows.
class OpenCvModuleCodec final : public Codec {
 public:
  // The signatures its decoders look for, of the formats the codecs before it leave.
  std::string probe(const unsigned char* data, std::size_t size) const override {
    const auto has = [&](std::size_t offset, const char* text, std::size_t length) {
      return signature_at(data, size, offset, text, length);
    };
    if (has(0, "RIFF", 4) && has(8, "WEBP", 4)) return ".webp";
    if (has(0, "BM", 2)) return ".bmp";
    if (has(0, "\x76\x2f\x31\x01", 4)) return ".exr";
    if (has(0, "#?RGBE", 6) || has(0, "#?RADIANCE", 10)) return ".hdr";
    if (has(0, "\xff\x4f\xff\x51", 4)) return ".j2k";
    if (has(0, "\0\0\0\x0cjP  \r\n\x87\n", 12)) return ".jp2";
    if (has(0, "\x59\xa6\x6a\x95", 4)) return ".ras";
    if (has(128, "DICM", 4)) return ".dcm";
    return netpbm_suffix(data, size);
  }
  // Not the tool's own: writing through it needs the module.
  bool writes(const std::string&) const override { return false; }
  std::optional<cv::Mat> decode(const std::vector<unsigned char>& bytes, int flags,
                                std::vector<std::string>*) override {
    return module().decode(bytes, flags);
  }
  std::optional<cv::Mat> read(const std::string& path, int flags, std::vector<std::string>*) override {
    return module().read(path, flags);
  }
  bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
              const std::vector<int>& params) override {
    return module().encode(suffix, image, bytes, params);
  }
  // Of the formats it writes, WebP keeps metadata: EXIF, XMP and the profile; IPTC has no
  // place there.
  MetadataPlaces metadata_places(const std::string& suffix) const override {
    if (suffix != ".webp") return {};
    MetadataPlaces places;
    places.exif = places.xmp = places.icc = true;
    return places;
  }
  void mend_written_metadata(const std::string& suffix, std::vector<unsigned char>& encoded) const override {
    if (suffix == ".webp") fix_webp_icc_chunk_name(encoded);
  }
};

// Every codec, asked in this order (codec.hpp). A new format is one file with its Codec
// and a line here, before OpenCV's module, which takes what the others leave.
const std::array<Codec*, 4>& codec_table() {
  static const std::array<Codec*, 4> kCodecs{&png_file_codec(), &jpeg_file_codec(), &tiff_file_codec(),
                                             &opencv_module_codec()};
  return kCodecs;
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

Codec& opencv_module_codec() {
  static OpenCvModuleCodec codec;
  return codec;
}

std::string probe(const unsigned char* data, std::size_t size) {
  for (const Codec* codec : codec_table())
    if (std::string suffix = codec->probe(data, size); !suffix.empty()) return suffix;
  return "";
}

std::optional<ImageHeader> header(const std::string& path) {
  for (const Codec* codec : codec_table())
    if (std::optional<ImageHeader> found = codec->header(path)) return found;
  return std::nullopt;
}

namespace {
const Codec* metadata_codec(const std::string& suffix) {
  for (const Codec* codec : codec_table())
    if (codec->metadata_places(suffix).any()) return codec;
  return nullptr;
}
}  // namespace

MetadataPlaces metadata_places(const std::string& suffix) {
  const Codec* codec = metadata_codec(suffix);
  return codec != nullptr ? codec->metadata_places(suffix) : MetadataPlaces{};
}

void mend_written_metadata(const std::string& suffix, std::vector<unsigned char>& encoded) {
  if (const Codec* codec = metadata_codec(suffix)) codec->mend_written_metadata(suffix, encoded);
}

std::unique_ptr<GpuJpegCodec> gpu_codec(const std::string& suffix, int device, StreamHandle stream) {
  for (const Codec* codec : codec_table())
    if (std::unique_ptr<GpuJpegCodec> gpu = codec->gpu_codec(suffix, device, stream)) return gpu;
  return nullptr;
}

bool own_codec_takes(const std::filesystem::path& path) {
  const std::string suffix = lower_suffix(path);
  return std::any_of(codec_table().begin(), codec_table().end(),
                     [&](const Codec* codec) { return codec->writes(suffix); });
}

bool have_writer(const std::string& filename) {
  if (own_codec_takes(filename)) return true;
  return module().have_writer(filename);
}

bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
            const std::vector<int>& params) {
  const std::string lower = lower_suffix("image" + suffix);  // OpenCV's encoders take any case alike
  for (Codec* codec : codec_table())
    if (codec->encode(lower, image, bytes, params)) return true;
  return false;
}

cv::Mat decode(const std::vector<unsigned char>& bytes, int flags, std::vector<std::string>* notes) {
  for (Codec* codec : codec_table())
    if (std::optional<cv::Mat> image = codec->decode(bytes, flags, notes)) return *std::move(image);
  return cv::Mat();
}

cv::Mat read(const std::string& path, int flags, std::vector<std::string>* notes) {
  for (Codec* codec : codec_table())
    if (std::optional<cv::Mat> image = codec->read(path, flags, notes)) return *std::move(image);
  return cv::Mat();
}

}  // namespace gpufilter::io::codecs
