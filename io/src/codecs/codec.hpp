#pragma once
// One image format's reader and writer (codecs.cpp asks them in the order of its table:
// the tool's own PNG and JPEG codecs, TIFF, then OpenCV's codec module, which takes
// whatever the others leave). A codec answers nullopt or false for what it leaves to the
// next: another format, flags or parameters it does not serve, a file its library declines.
#include <opencv2/core.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpufilter/io/channel_layout.hpp"
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::io::codecs {

// What a file's header says before its pixels are decoded.
struct ImageHeader {
  std::string format;  // its suffix (".png")
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  std::uint64_t decoded_bytes = 0;  // the pixels' bytes once decoded; 0 where the header does not say
  ChannelLayout layout = ChannelLayout::AsDecoded;  // GrayAlpha: gray+alpha pixels, decoded as BGRA
};

// Where a format keeps the metadata a run carries from IN to OUT (image_metadata.hpp),
// and what its decoder does with the orientation tag.
struct MetadataPlaces {
  bool exif = false;
  bool iptc = false;
  bool xmp = false;
  bool icc = false;  // the colour profile
  bool exif_order_is_the_files = false;  // EXIF's byte order is the whole file's (TIFF): left as encoded
  bool upright_on_read = false;  // the decoder turns the pixels upright by the tag, whatever it is asked
  bool any() const { return exif || iptc || xmp || icc; }
  static MetadataPlaces every_kind() { return {true, true, true, true, false, false}; }
};

class Codec {
 public:
  virtual ~Codec() = default;
  // The suffix of the format (".png") that `data`, a file's first bytes (at most
  // kImageSignatureBytes, image_signatures.hpp), says the file is in, where it is one of
  // this codec's formats; "" otherwise.
  virtual std::string probe(const unsigned char* data, std::size_t size) const = 0;
  // The header of the file at `path`, read without its pixels, where it is one of this
  // codec's files and the codec reads headers; nullopt otherwise.
  virtual std::optional<ImageHeader> header(const std::string&) const { return std::nullopt; }
  // Whether it writes files of this lower-case suffix (".png") itself.
  virtual bool writes(const std::string& suffix) const = 0;
  // The file's bytes decoded; `notes` takes what it found that leaves the pixels whole.
  // May throw DecodeFailure (codecs.hpp) for a file of its format that no codec should try.
  virtual std::optional<cv::Mat> decode(const std::vector<unsigned char>& bytes, int flags,
                                        std::vector<std::string>* notes) = 0;
  // The same for the file at `path`, read no further than it takes to know it is not one
  // of its files.
  virtual std::optional<cv::Mat> read(const std::string& path, int flags, std::vector<std::string>* notes) = 0;
  // `image` encoded for `suffix` (lower case) with OpenCV-style (name, value) `params`.
  // May throw EncodeFailure for a file of its format that it could not write.
  virtual bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
                      const std::vector<int>& params) = 0;
  // The metadata hooks. Where files of this lower-case suffix keep metadata; nothing for a
  // suffix that is not the codec's or a format that keeps none.
  virtual MetadataPlaces metadata_places(const std::string&) const { return {}; }
  // Mends `encoded`, a file of the codec's `suffix` once the metadata writer put IN's
  // metadata in, where that writer gets the format wrong.
  virtual void mend_written_metadata(const std::string&, std::vector<unsigned char>&) const {}
  // The codec's GPU side for files of the lower-case `suffix`, for one workspace (its
  // `device`, its `stream`): it decodes files into device memory and encodes from it
  // (nvJPEG for JPEG). nullptr for another suffix, a format without one, a build without
  // it, or a device it cannot start on.
  virtual std::unique_ptr<GpuJpegCodec> gpu_codec(const std::string& /*suffix*/, int /*device*/,
                                                  StreamHandle /*stream*/) const {
    return nullptr;
  }
};

// Why a codec could not encode a file it takes (the message goes after "cannot write ...: ").
class EncodeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The table's codecs, in its order (png_file_codec.cpp, jpeg_file_codec.cpp,
// tiff_file_codec.cpp; the last, OpenCV's module, in codecs.cpp).
Codec& png_file_codec();
Codec& jpeg_file_codec();
Codec& tiff_file_codec();
Codec& opencv_module_codec();

// The first codec's answer, in the table's order: the format `data` starts like ("" for
// none), and the header of the file at `path` (nullopt where no codec reads it).
std::string probe(const unsigned char* data, std::size_t size);
std::optional<ImageHeader> header(const std::string& path);
// Where files of the lower-case `suffix` keep metadata (the first codec that says it keeps
// any), and that codec's mend of a file the metadata writer wrote.
MetadataPlaces metadata_places(const std::string& suffix);
void mend_written_metadata(const std::string& suffix, std::vector<unsigned char>& encoded);
// The GPU side of the first codec that has one for the lower-case `suffix` (Codec::gpu_codec).
std::unique_ptr<GpuJpegCodec> gpu_codec(const std::string& suffix, int device, StreamHandle stream);

}  // namespace gpufilter::io::codecs
