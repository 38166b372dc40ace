#pragma once
/// @file
/// A JPEG's header segments, read from its bytes without decoding: the frame (coding
/// process, precision, size, components and their sampling), the colour hints (JFIF,
/// Adobe's transform) and the EXIF orientation. From these the tool decides which files
/// the GPU decoder (nvJPEG) takes; every other file keeps OpenCV's decoder. Plain C++:
/// no GPU, no file access, tested on the CPU.
#include <cstddef>
#include <optional>
#include <vector>

namespace gpufilter::io {

/// The frame's coding process, from its SOFn marker.
enum class JpegCoding {
  Baseline,         // SOF0
  ExtendedHuffman,  // SOF1: sequential, Huffman, 8 or 12 bits
  Progressive,      // SOF2: progressive, Huffman
  Other,            // lossless, arithmetic-coded or hierarchical (SOF3, SOF5..SOF15)
};

struct JpegComponent {
  int id = 0;
  int horizontal = 0;  ///< sampling factors, 1..4
  int vertical = 0;
};

struct JpegHeader {
  JpegCoding coding = JpegCoding::Other;
  int precision = 0;  ///< bits per sample: 8 or 12 (16 for lossless)
  int width = 0;
  int height = 0;     ///< 0 when a DNL segment after the first scan gives it
  std::vector<JpegComponent> components;
  bool jfif = false;         ///< an APP0 "JFIF" segment: the components are YCbCr (or gray)
  int adobe_transform = -1;  ///< APP14 "Adobe" colour transform (0: none, RGB or CMYK); -1: no such segment
  int orientation = 1;       ///< EXIF orientation 1..8 from the first APP1 segment; 1 when absent or invalid
  /// Where, in the bytes parsed, the frame header's marker and the first scan header's
  /// marker are, and where that scan's entropy-coded data begins; 0 for what the bytes end
  /// before.
  std::size_t frame_at = 0;
  std::size_t scan_at = 0;
  std::size_t scan_data_at = 0;
};

/// Whether the bytes start like a JPEG's: SOI, then a marker.
bool starts_like_jpeg(const unsigned char* data, std::size_t size);

/// The segments from SOI up to the first scan (SOS). nullopt when the bytes do not start
/// like a JPEG or end (or break) before a frame header; bytes that end after the frame
/// header still give it (a size for the pixel limit).
std::optional<JpegHeader> parse_jpeg_header(const unsigned char* data, std::size_t size);

/// The orientation tag of an APP1 payload (the bytes after the segment's length): "Exif\0\0",
/// a TIFF header ("II" or "MM", 42) and IFD0's entries, as OpenCV's EXIF reader reads
/// them. 1 when the payload is no EXIF, breaks off, or holds no tag in 1..8.
int exif_orientation(const unsigned char* payload, std::size_t size);

/// Where in the APP1 payload IFD0's orientation value lies (two bytes, in the TIFF's byte
/// order, which `little_endian` receives), or nullopt when there is no such tag.
std::optional<std::size_t> exif_orientation_offset(const unsigned char* payload, std::size_t size,
                                                   bool& little_endian);

/// Whether nvJPEG decodes the file into what OpenCV's decoder gives (8-bit gray, or 8-bit
/// YCbCr turned into RGB), and if not, why: the reason is for tests and debugging only.
struct GpuJpegDecision {
  bool gpu = false;
  const char* reason = "";
};
GpuJpegDecision gpu_jpeg_decision(const JpegHeader& header);

}  // namespace gpufilter::io
