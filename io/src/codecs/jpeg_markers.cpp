#include "gpufilter/io/jpeg_markers.hpp"

#include <cstdint>
#include <cstring>

namespace gpufilter::io {
namespace {

constexpr int kSoi = 0xD8;
constexpr int kEoi = 0xD9;
constexpr int kSos = 0xDA;
constexpr int kApp0 = 0xE0;
constexpr int kApp1 = 0xE1;
constexpr int kApp14 = 0xEE;
constexpr std::uint16_t kOrientationTag = 0x0112;

bool is_frame_marker(int marker) {
  // SOF0..SOF15 less DHT (C4), JPG (C8) and DAC (CC), which share the range.
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

JpegCoding coding_of(int marker) {
  switch (marker) {
    case 0xC0: return JpegCoding::Baseline;
    case 0xC1: return JpegCoding::ExtendedHuffman;
    case 0xC2: return JpegCoding::Progressive;
    default: return JpegCoding::Other;
  }
}

int big_endian16(const unsigned char* p) { return (p[0] << 8) | p[1]; }

// The frame header's payload: P, Y, X, Nf, then Nf times (C, HV, Tq).
bool read_frame(int marker, const unsigned char* payload, std::size_t size, JpegHeader& header) {
  if (size < 6) return false;
  header.coding = coding_of(marker);
  header.precision = payload[0];
  header.height = big_endian16(payload + 1);
  header.width = big_endian16(payload + 3);
  const std::size_t count = payload[5];
  if (size < 6 + 3 * count) return false;
  header.components.clear();
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* c = payload + 6 + 3 * i;
    header.components.push_back(JpegComponent{c[0], c[1] >> 4, c[1] & 0x0F});
  }
  return true;
}

// Reads TIFF's numbers in the byte order its header names.
class TiffReader {
 public:
  TiffReader(const unsigned char* tiff, std::size_t size, bool little) : tiff_(tiff), size_(size), little_(little) {}
  bool has(std::size_t offset, std::size_t bytes) const { return offset <= size_ && bytes <= size_ - offset; }
  std::uint16_t u16(std::size_t offset) const {
    const unsigned char* p = tiff_ + offset;
    return static_cast<std::uint16_t>(little_ ? p[0] | (p[1] << 8) : (p[0] << 8) | p[1]);
  }
  std::uint32_t u32(std::size_t offset) const {
    const unsigned char* p = tiff_ + offset;
    return little_ ? static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24)
                   : (static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
                         (static_cast<std::uint32_t>(p[2]) << 8) | static_cast<std::uint32_t>(p[3]);
  }

 private:
  const unsigned char* tiff_;
  std::size_t size_;
  bool little_;
};

}  // namespace

std::optional<std::size_t> exif_orientation_offset(const unsigned char* payload, std::size_t size,
                                                   bool& little_endian) {
  constexpr std::size_t kTiffStart = 6;  // after "Exif\0\0"
  if (size < kTiffStart + 8 || std::memcmp(payload, "Exif\0\0", 6) != 0) return std::nullopt;
  const unsigned char* tiff = payload + kTiffStart;
  const std::size_t tiff_size = size - kTiffStart;
  bool little = false;
  if (tiff[0] == 'I' && tiff[1] == 'I') {
    little = true;
  } else if (!(tiff[0] == 'M' && tiff[1] == 'M')) {
    return std::nullopt;
  }
  const TiffReader reader(tiff, tiff_size, little);
  if (reader.u16(2) != 42) return std::nullopt;
  const std::size_t ifd = reader.u32(4);
  if (!reader.has(ifd, 2)) return std::nullopt;
  const std::size_t entries = reader.u16(ifd);
  for (std::size_t i = 0; i < entries; ++i) {
    const std::size_t entry = ifd + 2 + 12 * i;  // tag, type, count, value (or its offset)
    if (!reader.has(entry, 12)) return std::nullopt;
    if (reader.u16(entry) != kOrientationTag) continue;
    // A SHORT, stored in the first two bytes of the value field.
    little_endian = little;
    return kTiffStart + entry + 8;
  }
  return std::nullopt;
}

int exif_orientation(const unsigned char* payload, std::size_t size) {
  bool little = false;
  const std::optional<std::size_t> at = exif_orientation_offset(payload, size, little);
  if (!at) return 1;
  const unsigned char* value = payload + *at;
  const int orientation = little ? value[0] | (value[1] << 8) : (value[0] << 8) | value[1];
  return orientation >= 1 && orientation <= 8 ? orientation : 1;
}

bool starts_like_jpeg(const unsigned char* data, std::size_t size) {
  return size >= 3 && data[0] == 0xFF && data[1] == kSoi && data[2] == 0xFF;
}

std::optional<JpegHeader> parse_jpeg_header(const unsigned char* data, std::size_t size) {
  if (size < 4 || data[0] != 0xFF || data[1] != kSoi) return std::nullopt;
  JpegHeader header;
  bool have_frame = false;
  bool seen_app1 = false;
  std::size_t at = 2;
  const auto cut_short = [&]() -> std::optional<JpegHeader> {
    if (have_frame) return header;
    return std::nullopt;
  };
  while (true) {
    if (at >= size || data[at] != 0xFF) return cut_short();
    while (at < size && data[at] == 0xFF) ++at;  // fill bytes
    if (at >= size) return cut_short();
    const int marker = data[at++];
    if (marker == kEoi) return cut_short();
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // TEM, RSTn: no length
    if (size - at < 2) return cut_short();
    const std::size_t length = static_cast<std::size_t>(big_endian16(data + at));
    if (length < 2 || length > size - at) return cut_short();
    const unsigned char* payload = data + at + 2;
    const std::size_t payload_size = length - 2;
    if (marker == kSos) {
      if (!have_frame) return std::nullopt;
      header.scan_at = at - 2;
      header.scan_data_at = at + length;
      return header;
    }
    if (is_frame_marker(marker) && !have_frame) {
      if (!read_frame(marker, payload, payload_size, header)) return std::nullopt;
      have_frame = true;
      header.frame_at = at - 2;
    } else if (marker == kApp0 && payload_size >= 5 && std::memcmp(payload, "JFIF\0", 5) == 0) {
      header.jfif = true;
    } else if (marker == kApp1 && !seen_app1) {
      // OpenCV reads the orientation from the first APP1 segment only.
      seen_app1 = true;
      header.orientation = exif_orientation(payload, payload_size);
    } else if (marker == kApp14 && payload_size >= 12 && std::memcmp(payload, "Adobe", 5) == 0) {
      header.adobe_transform = payload[11];
    }
    at += length;
  }
}

GpuJpegDecision gpu_jpeg_decision(const JpegHeader& header) {
  if (header.coding == JpegCoding::Other) return {false, "lossless, arithmetic-coded or hierarchical JPEG"};
  if (header.precision != 8) return {false, "not 8 bits per sample"};
  if (header.width <= 0 || header.height <= 0) return {false, "no size in the frame header"};
  if (header.components.size() == 1) return {true, "gray"};
  if (header.components.size() != 3) return {false, "neither 1 (gray) nor 3 (colour) components: CMYK or other"};
  // libjpeg reads colour as YCbCr unless an Adobe segment says "no transform" or, with no
  // JFIF or Adobe segment, the component ids spell R, G, B: those stay RGB, which nvJPEG
  // would convert as if they were YCbCr.
  if (header.adobe_transform == 0) return {false, "RGB-coded (Adobe transform 0)"};
  const auto& c = header.components;
  if (!header.jfif && header.adobe_transform < 0 && c[0].id == 'R' && c[1].id == 'G' && c[2].id == 'B')
    return {false, "RGB-coded (component ids R, G, B)"};
  // The subsamplings nvJPEG names (4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1, 4:1:0): full chroma
  // components and a luma factor it knows.
  for (int i = 1; i < 3; ++i)
    if (c[static_cast<std::size_t>(i)].horizontal != 1 || c[static_cast<std::size_t>(i)].vertical != 1)
      return {false, "unusual chroma subsampling"};
  const int h = c[0].horizontal;
  const int v = c[0].vertical;
  const bool known = (v == 1 && (h == 1 || h == 2 || h == 4)) || (v == 2 && (h == 1 || h == 2 || h == 4));
  if (!known) return {false, "unusual chroma subsampling"};
  return {true, "colour"};
}

}  // namespace gpufilter::io
