#include "jpeg_header.hpp"

#include <cstdio>
#include <cstring>
#include <memory>

namespace gpufilter::cli {
namespace {

constexpr unsigned char kExifId[] = {'E', 'x', 'i', 'f', 0, 0};
constexpr unsigned char kIccId[] = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};
constexpr std::size_t kSegmentPrefix = 4;  // FF, marker, two length bytes
constexpr std::uint16_t kOrientationTag = 0x0112;
constexpr std::uint16_t kTiffShort = 3;

template <std::size_t N>
bool payload_starts_with(const unsigned char* payload, std::size_t size, const unsigned char (&id)[N]) {
  return size >= N && std::memcmp(payload, id, N) == 0;
}

bool is_frame_marker(int marker) {  // SOF0..SOF15 but DHT, JPG and DAC
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// The TIFF structure inside an Exif segment, read in its own byte order. Offsets are
// from the start of the segment.
class TiffView {
 public:
  explicit TiffView(const JpegSegment& segment) : segment_(segment) {
    if (segment.size() < kTiffStart + 8) return;
    if (segment[kTiffStart] == 'I' && segment[kTiffStart + 1] == 'I') little_ = true;
    else if (segment[kTiffStart] != 'M' || segment[kTiffStart + 1] != 'M') return;
    valid_ = u16(kTiffStart + 2) == 42;
  }

  // Where IFD0's orientation value lies in the segment, or nullopt.
  std::optional<std::size_t> orientation_offset() const {
    if (!valid_) return std::nullopt;
    const std::uint64_t ifd = kTiffStart + std::uint64_t{u32(kTiffStart + 4)};
    if (ifd + 2 > segment_.size()) return std::nullopt;
    const std::uint64_t entries = u16(ifd);
    for (std::uint64_t i = 0; i < entries; ++i) {
      const std::uint64_t entry = ifd + 2 + 12 * i;
      if (entry + 12 > segment_.size()) return std::nullopt;
      if (u16(entry) == kOrientationTag && u16(entry + 2) == kTiffShort && u32(entry + 4) == 1)
        return static_cast<std::size_t>(entry + 8);
    }
    return std::nullopt;
  }

  std::uint16_t u16(std::uint64_t at) const {
    const unsigned a = segment_[at], b = segment_[at + 1];
    return static_cast<std::uint16_t>(little_ ? a | (b << 8) : (a << 8) | b);
  }
  bool little_endian() const { return little_; }

 private:
  static constexpr std::size_t kTiffStart = kSegmentPrefix + sizeof kExifId;

  std::uint32_t u32(std::uint64_t at) const {
    const std::uint32_t first = u16(at), second = u16(at + 2);
    return little_ ? (second << 16) | first : (first << 16) | second;
  }

  const JpegSegment& segment_;
  bool little_ = false;
  bool valid_ = false;
};

bool is_exif_segment(const JpegSegment& segment) {
  return segment.size() > kSegmentPrefix && segment[1] == 0xE1 &&
         payload_starts_with(segment.data() + kSegmentPrefix, segment.size() - kSegmentPrefix, kExifId);
}

}  // namespace

std::optional<JpegHeader> read_jpeg_header(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, FileCloser> owner(std::fopen(path.c_str(), "rb"));
  std::FILE* file = owner.get();
  if (file == nullptr) return std::nullopt;
  if (std::fgetc(file) != 0xFF || std::fgetc(file) != 0xD8) return std::nullopt;
  JpegHeader header;
  bool have_frame = false;
  // A file cut short after its frame header still tells its size (the pixel limit needs
  // no more).
  const auto cut_short = [&]() -> std::optional<JpegHeader> {
    if (have_frame) return header;
    return std::nullopt;
  };
  while (true) {
    int marker = std::fgetc(file);
    if (marker != 0xFF) return cut_short();
    while (marker == 0xFF) marker = std::fgetc(file);  // fill bytes
    if (marker == EOF || marker == 0xD9) return cut_short();
    if (marker == 0xDA) break;                                            // scan data follows
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    const int high = std::fgetc(file), low = std::fgetc(file);
    if (high == EOF || low == EOF) return cut_short();
    const std::size_t length = static_cast<std::size_t>((high << 8) | low);
    if (length < 2) return cut_short();
    const std::size_t payload = length - 2;
    if (is_frame_marker(marker) && !have_frame) {
      unsigned char sof[6];
      if (payload < sizeof sof || std::fread(sof, 1, sizeof sof, file) != sizeof sof) return std::nullopt;
      header.precision = sof[0];
      header.height = static_cast<std::uint64_t>((sof[1] << 8) | sof[2]);
      header.width = static_cast<std::uint64_t>((sof[3] << 8) | sof[4]);
      header.components = sof[5];
      header.progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
      header.arithmetic = marker >= 0xC9;
      have_frame = true;
      if (std::fseek(file, static_cast<long>(payload - sizeof sof), SEEK_CUR) != 0) return cut_short();
      continue;
    }
    if (marker == 0xE1 || marker == 0xE2) {
      JpegSegment segment(kSegmentPrefix + payload);
      segment[0] = 0xFF;
      segment[1] = static_cast<unsigned char>(marker);
      segment[2] = static_cast<unsigned char>(high);
      segment[3] = static_cast<unsigned char>(low);
      if (std::fread(segment.data() + kSegmentPrefix, 1, payload, file) != payload) return cut_short();
      const unsigned char* body = segment.data() + kSegmentPrefix;
      const bool exif = marker == 0xE1 && payload_starts_with(body, payload, kExifId);
      const bool icc = marker == 0xE2 && payload_starts_with(body, payload, kIccId);
      if (exif && header.orientation == 1) header.orientation = exif_orientation(segment);
      if (exif || icc) header.metadata.push_back(std::move(segment));
      continue;
    }
    if (std::fseek(file, static_cast<long>(payload), SEEK_CUR) != 0) return cut_short();
  }
  if (!have_frame) return std::nullopt;
  return header;
}

int exif_orientation(const JpegSegment& segment) {
  if (!is_exif_segment(segment)) return 1;
  const TiffView tiff(segment);
  const std::optional<std::size_t> at = tiff.orientation_offset();
  const int orientation = at ? tiff.u16(*at) : 1;
  return orientation >= 1 && orientation <= 8 ? orientation : 1;
}

void reset_exif_orientation(JpegSegment& segment) {
  if (!is_exif_segment(segment)) return;
  const std::optional<std::size_t> at = TiffView(segment).orientation_offset();
  if (!at) return;
  const bool little = TiffView(segment).little_endian();
  segment[*at + (little ? 0 : 1)] = 1;
  segment[*at + (little ? 1 : 0)] = 0;
}

void insert_jpeg_segments(std::vector<unsigned char>& jpeg, const std::vector<JpegSegment>& segments) {
  if (segments.empty() || jpeg.size() < 2 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return;
  std::size_t at = 2;
  // After a JFIF APP0, which must come first.
  if (jpeg.size() >= at + kSegmentPrefix && jpeg[at] == 0xFF && jpeg[at + 1] == 0xE0) {
    const std::size_t length = static_cast<std::size_t>((jpeg[at + 2] << 8) | jpeg[at + 3]);
    if (at + 2 + length <= jpeg.size()) at += 2 + length;
  }
  std::vector<unsigned char> joined;
  for (const JpegSegment& segment : segments) joined.insert(joined.end(), segment.begin(), segment.end());
  jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(at), joined.begin(), joined.end());
}

}  // namespace gpufilter::cli
