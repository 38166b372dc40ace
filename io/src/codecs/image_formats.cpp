#include "codecs/image_formats.hpp"

#include <filesystem>

#include "gpufilter/io/file_suffix.hpp"

namespace gpufilter::io {

const std::vector<SuffixEntry>& suffix_entries() {
  // Formats the tool reads but does not write (DICOM) or that need their own settings to
  // write (JPEG 2000, Sun raster, PAM) have no entry: OpenCV reads them by content.
  static const std::vector<SuffixEntry> kEntries{
      // suffix  format               offered lossless content
      {".png", ImageFormat::Png, true, true, true},
      {".jpg", ImageFormat::Jpeg, true, false, true},
      {".jpeg", ImageFormat::Jpeg, true, false, false},
      {".jpe", ImageFormat::Jpeg, false, false, false},
      {".tif", ImageFormat::Tiff, true, false, true},
      {".tiff", ImageFormat::Tiff, true, true, false},
      {".bmp", ImageFormat::Bmp, true, false, true},
      {".webp", ImageFormat::WebP, true, true, true},
      {".pnm", ImageFormat::Pnm, true, true, false},
      {".ppm", ImageFormat::Pnm, true, false, true},
      {".pgm", ImageFormat::Pnm, true, false, true},
      {".pbm", ImageFormat::Pnm, false, false, true},
      {".pfm", ImageFormat::Pfm, false, false, true},
      {".exr", ImageFormat::Exr, true, true, true},
      {".hdr", ImageFormat::Hdr, true, false, true},
  };
  return kEntries;
}

const SuffixEntry* suffix_entry(const std::string& suffix) {
  for (const SuffixEntry& entry : suffix_entries())
    if (suffix == entry.suffix) return &entry;
  return nullptr;
}

namespace {

bool names(const std::filesystem::path& path, ImageFormat format) {
  const SuffixEntry* entry = suffix_entry(lower_suffix(path));
  return entry != nullptr && entry->format == format;
}

}  // namespace

bool is_png_path(const std::filesystem::path& path) { return names(path, ImageFormat::Png); }
bool is_jpeg_path(const std::filesystem::path& path) { return names(path, ImageFormat::Jpeg); }

}  // namespace gpufilter::io
