// TIFF: OpenCV's codec module encodes and decodes it; this codec adds, to an encoded
// four-sample file, the ExtraSamples tag that says the fourth sample is unassociated
// alpha (tiff_alpha.hpp), which OpenCV's encoder leaves out.
#include <cstring>

#include "codecs/codec.hpp"
#include "codecs/tiff_alpha.hpp"
#include "gpufilter/io/codecs.hpp"

namespace gpufilter::io::codecs {
namespace {

// Little- and big-endian TIFF, and BigTIFF.
bool starts_like_tiff(const unsigned char* data, std::size_t size) {
  if (size < 4) return false;
  return std::memcmp(data, "II*\0", 4) == 0 || std::memcmp(data, "MM\0*", 4) == 0 ||
         std::memcmp(data, "II+\0", 4) == 0 || std::memcmp(data, "MM\0+", 4) == 0;
}

class TiffFileCodec final : public Codec {
 public:
  std::string probe(const unsigned char* data, std::size_t size) const override {
    return starts_like_tiff(data, size) ? ".tif" : "";
  }
  // OpenCV's decoder turns the pixels upright by the orientation tag (EXIF's), whatever it
  // is asked; the byte order OpenCV chose for the file is EXIF's too.
  MetadataPlaces metadata_places(const std::string& suffix) const override {
    if (suffix != ".tif" && suffix != ".tiff") return {};
    MetadataPlaces places = MetadataPlaces::every_kind();
    places.exif_order_is_the_files = places.upright_on_read = true;
    return places;
  }
  // The module writes the file: OpenCV's module is needed for it.
  bool writes(const std::string&) const override { return false; }
  std::optional<cv::Mat> decode(const std::vector<unsigned char>&, int, std::vector<std::string>*) override {
    return std::nullopt;
  }
  std::optional<cv::Mat> read(const std::string&, int, std::vector<std::string>*) override { return std::nullopt; }
  bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
              const std::vector<int>& params) override {
    if (suffix != ".tif" && suffix != ".tiff") return false;
    if (!opencv_module_codec().encode(suffix, image, bytes, params)) throw EncodeFailure("the encoder failed");
    if (image.channels() == 4)
      if (const std::string failure = mark_tiff_alpha(bytes); !failure.empty()) throw EncodeFailure(failure);
    return true;
  }
};

}  // namespace

Codec& tiff_file_codec() {
  static TiffFileCodec codec;
  return codec;
}

}  // namespace gpufilter::io::codecs
