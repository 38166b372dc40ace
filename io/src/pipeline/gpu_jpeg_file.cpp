#include "gpufilter/io/gpu_jpeg_file.hpp"

#include <utility>

#include "gpufilter/io/jpeg_file.hpp"
#include "gpufilter/io/jpeg_orientation.hpp"

namespace gpufilter::io {
namespace {

// Whether the last bytes, past any zero padding, are the EOI marker (FF D9).
bool ends_with_end_of_image(const std::vector<unsigned char>& bytes) {
  std::size_t end = bytes.size();
  while (end > 0 && bytes[end - 1] == 0x00) --end;
  return end >= 2 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9;
}

}  // namespace

PixelFormat GpuJpegFile::format() const {
  return PixelFormat{ChannelType::U8, header.components.size() == 1 ? 1 : 3};
}

ImageShape GpuJpegFile::upright_shape() const {
  const bool swapped = orientation_swaps_sides(orientation);
  return ImageShape{swapped ? header.height : header.width, swapped ? header.width : header.height, format()};
}

GpuJpegInput GpuJpegFile::input() const {
  GpuJpegInput input;
  input.file = JpegBytes{bytes.data(), bytes.size()};
  input.stored_width = header.width;
  input.stored_height = header.height;
  input.format = format();
  input.orientation = orientation;
  return input;
}

std::optional<GpuJpegFile> read_gpu_jpeg_file(const std::filesystem::path& path, const JpegHeader& header,
                                              bool autorotate) {
  if (!gpu_jpeg_decision(header).gpu) return std::nullopt;
  std::optional<std::vector<unsigned char>> bytes = read_jpeg_file(path);
  // nvJPEG decodes a truncated file without a word, filling what is missing; OpenCV's
  // decoder takes any file that does not end in its EOI marker, and reports the damage.
  if (!bytes || !ends_with_end_of_image(*bytes)) return std::nullopt;
  GpuJpegFile jpeg;
  jpeg.bytes = std::move(*bytes);
  jpeg.header = header;
  jpeg.orientation = autorotate ? jpeg.header.orientation : 1;
  return jpeg;
}

}  // namespace gpufilter::io
