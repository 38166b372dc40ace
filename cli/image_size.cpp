#include "image_size.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>


namespace gpufilter::cli {
namespace {

int next_byte(std::FILE* file) { return std::fgetc(file); }

// Walks the JPEG's segments to the first SOFn (0xC0..0xCF except DHT 0xC4, JPG 0xC8 and
// DAC 0xCC), whose payload holds precision, height and width.
std::optional<HeaderSize> jpeg_size(std::FILE* file) {
  if (next_byte(file) != 0xFF || next_byte(file) != 0xD8) return std::nullopt;
  while (true) {
    int marker = next_byte(file);
    if (marker != 0xFF) return std::nullopt;
    while (marker == 0xFF) marker = next_byte(file);  // fill bytes
    if (marker == EOF || marker == 0xD9 || marker == 0xDA) return std::nullopt;  // end, or scan data first
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;          // no length
    const int high = next_byte(file), low = next_byte(file);
    if (high == EOF || low == EOF) return std::nullopt;
    const int length = (high << 8) | low;
    if (length < 2) return std::nullopt;
    const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame) {
      unsigned char sof[5];
      if (std::fread(sof, 1, sizeof sof, file) != sizeof sof) return std::nullopt;
      return HeaderSize{static_cast<std::uint64_t>((sof[3] << 8) | sof[4]),
                        static_cast<std::uint64_t>((sof[1] << 8) | sof[2])};
    }
    if (std::fseek(file, length - 2, SEEK_CUR) != 0) return std::nullopt;
  }
}

}  // namespace

std::optional<HeaderSize> read_jpeg_size(const std::filesystem::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  const std::optional<HeaderSize> size = jpeg_size(file);
  std::fclose(file);
  return size;
}

void set_decoder_pixel_limit(std::uint64_t max_pixels) {
  // OpenCV's limits are size_t; "no limit" is the largest it takes.
  const std::string limit = std::to_string(max_pixels);
  ::setenv("OPENCV_IO_MAX_IMAGE_PIXELS", limit.c_str(), /*overwrite=*/1);
  // A side may be as long as the whole limit allows (a 1-row panorama), and never less
  // than OpenCV's own 2^20.
  const std::string side = std::to_string(max_pixels > (1u << 20) ? max_pixels : (1u << 20));
  ::setenv("OPENCV_IO_MAX_IMAGE_WIDTH", side.c_str(), 1);
  ::setenv("OPENCV_IO_MAX_IMAGE_HEIGHT", side.c_str(), 1);
}

}  // namespace gpufilter::cli
