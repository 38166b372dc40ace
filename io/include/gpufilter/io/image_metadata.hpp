#pragma once
/// @file
/// The metadata an image file carries beside its pixels (EXIF, IPTC, XMP and the ICC colour
/// profile), read from IN once with Exiv2 and written into OUT's encoded bytes where OUT's
/// format holds it: JPEG, PNG and TIFF hold all four, WebP all but IPTC, BMP and PNM none.
/// Exiv2 stays behind this header: the rest of the tool never sees its types.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace gpufilter::io {

struct MetadataContents;  // Exiv2's containers (image_metadata.cpp)

class ImageMetadata {
 public:
  ImageMetadata() = default;
  /// IN's metadata where IN is a JPEG, PNG, TIFF or WebP file; empty for other formats.
  /// A TIFF's orientation is reset already (OpenCV turns its pixels upright on read); a
  /// JPEG's is the caller's to reset (only with autorotate). Never throws: metadata Exiv2
  /// cannot read is left out, and problem() says why.
  static ImageMetadata read(const std::filesystem::path& input);

  bool empty() const noexcept { return contents_ == nullptr; }
  /// A one-line warning (naming IN) when IN's metadata could not be read in full; else "".
  const std::string& problem() const noexcept { return problem_; }
  /// Sets the orientation (EXIF, and XMP's copy where present) to 1, upright: for pixels
  /// that were turned upright on read.
  void reset_orientation();

  const MetadataContents* contents() const noexcept { return contents_.get(); }

 private:
  std::shared_ptr<MetadataContents> contents_;
  std::string problem_;
};

/// Whether a file with this (lower-case) suffix can hold metadata: .jpg, .png, .tif, .webp...
bool suffix_holds_metadata(const std::string& suffix);

/// Writes `metadata` into `encoded`, a complete file of OUT's format (its lower-case
/// `suffix`) whose image is `width` x `height`: the EXIF and XMP pixel dimensions are set
/// to that size, and IN's image-structure tags (its own size, strips, compression) are
/// left out. Kinds the format cannot hold are dropped. Returns "" on success, else why it
/// failed, with `encoded` unchanged.
std::string write_metadata(std::vector<unsigned char>& encoded, const std::string& suffix,
                           const ImageMetadata& metadata, int width, int height);

}  // namespace gpufilter::io
