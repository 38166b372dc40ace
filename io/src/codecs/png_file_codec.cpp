// PNG: the tool's own reader and writer (png_reader.hpp, png_writer.hpp) on several
// threads; what the reader declines (palettes, interlacing, damage) libpng reads as
// OpenCV would, once the chunk lengths are found to fit the file.
#include <opencv2/imgcodecs.hpp>  // the IMREAD_ and IMWRITE_ constants only

#include <array>
#include <exception>
#include <fstream>
#include <iterator>

#include "codecs/codec.hpp"
#include "codecs/png_chunk_lengths.hpp"
#include "codecs/png_header.hpp"
#include "codecs/png_libpng_reader.hpp"
#include "codecs/written_metadata_mends.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/image_size.hpp"
#include "gpufilter/io/png_reader.hpp"
#include "gpufilter/io/png_writer.hpp"

namespace gpufilter::io::codecs {
namespace {

// IMWRITE_PNG_COMPRESSION's value among OpenCV-style (name, value) pairs.
std::optional<int> png_compression_in(const std::vector<int>& params) {
  std::optional<int> level;
  for (std::size_t i = 0; i + 1 < params.size(); i += 2)
    if (params[i] == cv::IMWRITE_PNG_COMPRESSION) level = params[i + 1];
  return level;
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

class PngFileCodec final : public Codec {
 public:
  std::string probe(const unsigned char* data, std::size_t size) const override {
    return looks_like_png(data, size) ? ".png" : "";
  }

  std::optional<ImageHeader> header(const std::string& path) const override {
    const std::optional<PngHeader> png = read_png_header(path);
    if (!png) return std::nullopt;
    return ImageHeader{".png", png->width, png->height, png->decoded_bytes(),
                       png->colour_type == PngColourType::GrayAlpha ? ChannelLayout::GrayAlpha
                                                                     : ChannelLayout::AsDecoded};
  }

  bool writes(const std::string& suffix) const override { return is_png_path("image" + suffix); }
  MetadataPlaces metadata_places(const std::string& suffix) const override {
    return is_png_path("image" + suffix) ? MetadataPlaces::every_kind() : MetadataPlaces{};
  }
  void mend_written_metadata(const std::string&, std::vector<unsigned char>& encoded) const override {
    name_png_icc_profile(encoded);
  }

  // Only with IMREAD_UNCHANGED (the pixels as stored); a PNG file is never left to
  // OpenCV: what neither reader takes is damage.
  std::optional<cv::Mat> decode(const std::vector<unsigned char>& bytes, int flags,
                                std::vector<std::string>* notes) override {
    if (flags != cv::IMREAD_UNCHANGED || !looks_like_png(bytes.data(), bytes.size())) return std::nullopt;
    PngDecodeResult result = decode_png(bytes.data(), bytes.size(), PngReadOptions{true, threads_per_file()});
    if (!result.image.empty()) return result.image;
    return decode_declined_png(bytes.data(), bytes.size(), notes);
  }

  std::optional<cv::Mat> read(const std::string& path, int flags, std::vector<std::string>* notes) override {
    if (flags != cv::IMREAD_UNCHANGED) return std::nullopt;
    PngDecodeResult result = read_png_file(path, PngReadOptions{true, threads_per_file()});
    if (!result.image.empty()) return result.image;
    if (const std::optional<std::vector<unsigned char>> bytes = whole_png_file(path))
      return decode_declined_png(bytes->data(), bytes->size(), notes);
    return std::nullopt;
  }

  bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
              const std::vector<int>& params) override {
    if (!writes(suffix) || !png_writer_takes(image, false)) return false;
    PngWriteOptions options;
    options.compression = png_compression_in(params);
    options.threads = threads_per_file();
    try {
      bytes = encode_png(image, options);
      return true;
    } catch (const std::exception&) {
      return false;  // out of memory for the strips: OpenCV's encoder needs less
    }
  }
};

}  // namespace

Codec& png_file_codec() {
  static PngFileCodec codec;
  return codec;
}

}  // namespace gpufilter::io::codecs
