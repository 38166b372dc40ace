// JPEG: libjpeg-turbo itself (jpeg_cpu_codec.hpp), where the build found it, for the
// common files: 8-bit gray or colour, undamaged, or lacking only the end-of-image marker.
// OpenCV takes the rest.
#include <opencv2/imgcodecs.hpp>  // the IMREAD_ and IMWRITE_ constants only

#include "codecs/codec.hpp"
#include "codecs/jpeg_cpu_codec.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/image_size.hpp"
#include "gpufilter/io/jpeg_file.hpp"
#include "gpufilter/io/jpeg_markers.hpp"

namespace gpufilter::io::codecs {
namespace {

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

class JpegFileCodec final : public Codec {
 public:
  std::string probe(const unsigned char* data, std::size_t size) const override {
    return starts_like_jpeg(data, size) ? ".jpg" : "";
  }

  // Its size only: the decoded bytes depend on the flags it is read with.
  std::optional<ImageHeader> header(const std::string& path) const override {
    const std::optional<JpegHeader> jpeg = read_jpeg_header(path);
    if (!jpeg) return std::nullopt;
    return ImageHeader{".jpg", static_cast<std::uint64_t>(jpeg->width), static_cast<std::uint64_t>(jpeg->height), 0};
  }

  MetadataPlaces metadata_places(const std::string& suffix) const override {
    return is_jpeg_path("image" + suffix) ? MetadataPlaces::every_kind() : MetadataPlaces{};
  }
  std::unique_ptr<GpuJpegCodec> gpu_codec(const std::string& suffix, int device, StreamHandle stream) const override {
    return is_jpeg_path("image" + suffix) ? make_gpu_jpeg_codec(device, stream) : nullptr;
  }
  bool writes(const std::string& suffix) const override {
    return is_jpeg_path("image" + suffix) && jpeg_cpu::available();
  }

  std::optional<cv::Mat> decode(const std::vector<unsigned char>& bytes, int flags,
                                std::vector<std::string>* notes) override {
    return decode_jpeg(bytes.data(), bytes.size(), flags, notes);
  }

  std::optional<cv::Mat> read(const std::string& path, int flags, std::vector<std::string>* notes) override {
    if (!plain_jpeg_flags(flags) || !jpeg_cpu::available()) return std::nullopt;
    const std::optional<std::vector<unsigned char>> bytes = read_jpeg_file(path);
    if (!bytes) return std::nullopt;
    return decode_jpeg(bytes->data(), bytes->size(), flags, notes);
  }

  bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
              const std::vector<int>& params) override {
    if (!is_jpeg_path("image" + suffix)) return false;
    const std::optional<int> quality = plain_jpeg_quality(params);
    const int threads = threads_per_file() > 0 ? static_cast<int>(threads_per_file()) : cv::getNumThreads();
    return quality && jpeg_cpu::encode(image, *quality, bytes, threads);
  }
};

}  // namespace

Codec& jpeg_file_codec() {
  static JpegFileCodec codec;
  return codec;
}

}  // namespace gpufilter::io::codecs
