#include "codecs/tiff_alpha.hpp"

#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace gpufilter::io {
namespace {

// libtiff's client I/O over the encoded bytes, which grow as it appends the new
// directory.
struct MemoryFile {
  std::vector<unsigned char>* bytes;
  std::uint64_t at = 0;
  std::string error;  // libtiff's first error message
};

MemoryFile& file_of(thandle_t handle) { return *static_cast<MemoryFile*>(handle); }

tmsize_t read_bytes(thandle_t handle, void* data, tmsize_t size) {
  MemoryFile& file = file_of(handle);
  const std::uint64_t total = file.bytes->size();
  const std::uint64_t count = file.at >= total ? 0 : std::min<std::uint64_t>(static_cast<std::uint64_t>(size), total - file.at);
  std::memcpy(data, file.bytes->data() + file.at, count);
  file.at += count;
  return static_cast<tmsize_t>(count);
}

tmsize_t write_bytes(thandle_t handle, void* data, tmsize_t size) {
  MemoryFile& file = file_of(handle);
  const std::uint64_t end = file.at + static_cast<std::uint64_t>(size);
  if (end > file.bytes->size()) file.bytes->resize(end);
  std::memcpy(file.bytes->data() + file.at, data, static_cast<std::size_t>(size));
  file.at = end;
  return size;
}

toff_t seek_to(thandle_t handle, toff_t offset, int whence) {
  MemoryFile& file = file_of(handle);
  const std::int64_t base = whence == SEEK_CUR ? static_cast<std::int64_t>(file.at)
                            : whence == SEEK_END ? static_cast<std::int64_t>(file.bytes->size())
                                                 : 0;
  const std::int64_t target = base + static_cast<std::int64_t>(offset);
  if (target < 0) return static_cast<toff_t>(-1);
  file.at = static_cast<std::uint64_t>(target);
  return file.at;
}

int close_file(thandle_t) { return 0; }
toff_t size_of(thandle_t handle) { return file_of(handle).bytes->size(); }
int no_map(thandle_t, void**, toff_t*) { return 0; }
void no_unmap(thandle_t, void*, toff_t) {}

// Per-file handlers (libtiff 4.5): the global ones belong to OpenCV's codecs, and
// libtiff's defaults print to stderr. Errors are kept; warnings (such as the very
// missing tag this fixes) are dropped.
int keep_error(TIFF*, void* user, const char*, const char* format, va_list args) {
  std::string& error = static_cast<MemoryFile*>(user)->error;
  if (error.empty()) {
    char text[256];
    std::vsnprintf(text, sizeof text, format, args);
    error = text;
  }
  return 1;
}
int drop_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

std::string mark_tiff_alpha(std::vector<unsigned char>& tiff) {
  // libtiff appends the new directory and repoints the header at it: done in place (no
  // copy of a file of tens of megabytes), and undone by restoring both on failure.
  const std::size_t original_size = tiff.size();
  unsigned char header[8] = {};
  if (original_size < sizeof header) return "the encoded TIFF is too short";
  std::copy(tiff.begin(), tiff.begin() + sizeof header, header);
  tiff.reserve(original_size + 4096);
  const auto undo = [&] {
    tiff.resize(original_size);
    std::copy(header, header + sizeof header, tiff.begin());
  };
  std::vector<unsigned char>& bytes = tiff;
  MemoryFile file{&bytes, 0, {}};
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(options, keep_error, &file);
  TIFFOpenOptionsSetWarningHandlerExtR(options, drop_warning, &file);
  TIFF* handle = TIFFClientOpenExt("OUT", "r+m", &file, read_bytes, write_bytes, seek_to, close_file, size_of, no_map,
                                   no_unmap, options);
  TIFFOpenOptionsFree(options);
  if (handle == nullptr) {
    undo();
    return "libtiff cannot open the encoded TIFF: " + file.error;
  }
  std::uint16_t samples = 0, photometric = 0;
  TIFFGetField(handle, TIFFTAG_SAMPLESPERPIXEL, &samples);
  TIFFGetField(handle, TIFFTAG_PHOTOMETRIC, &photometric);
  std::uint16_t extra_count = 0;
  std::uint16_t* extra = nullptr;
  // libtiff reports a missing tag as EXTRASAMPLE_UNSPECIFIED samples of its own.
  const bool told = TIFFGetField(handle, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) == 1 && extra_count == 1 &&
                    extra[0] != EXTRASAMPLE_UNSPECIFIED;
  bool changed = false;
  if (samples == 4 && photometric == PHOTOMETRIC_RGB && !told) {
    std::uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
    changed = TIFFSetField(handle, TIFFTAG_EXTRASAMPLES, 1, &alpha) == 1 && TIFFRewriteDirectory(handle) == 1;
    if (!changed) {
      TIFFClose(handle);
      undo();
      return "libtiff cannot add the ExtraSamples tag: " + file.error;
    }
  }
  TIFFClose(handle);
  if (!file.error.empty()) {
    undo();
    return "libtiff: " + file.error;
  }
  return "";
}

}  // namespace gpufilter::io
