// JPEG through libjpeg directly (jpeg_cpu_codec.hpp). libjpeg reports errors by calling
// error_exit, which must not return: it jumps back with longjmp, so the functions that
// call libjpeg hold nothing with a destructor between setjmp and the calls.
#include "codecs/jpeg_cpu_codec.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <csetjmp>
#include <cstdio>  // jpeglib.h needs FILE
#include <cstdlib>

#include <jpeglib.h>

#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/jpeg_orientation.hpp"

namespace gpufilter::io::jpeg_cpu {
namespace {

// libjpeg's error manager with where to jump on an error and a count of its warnings
// (corrupt data, a premature end: the pixels are then not the file's).
struct Errors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  int warnings;
};

[[noreturn]] void jump_back(j_common_ptr info) { std::longjmp(reinterpret_cast<Errors*>(info->err)->jump, 1); }

// Level -1 is a warning; higher levels are trace messages. Nothing is printed.
void count_warning(j_common_ptr info, int level) {
  if (level < 0) ++reinterpret_cast<Errors*>(info->err)->warnings;
}

void print_nothing(j_common_ptr) {}

void use(Errors& errors, jpeg_error_mgr*& slot) {
  slot = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = jump_back;
  errors.manager.emit_message = count_warning;
  errors.manager.output_message = print_nothing;
  errors.warnings = 0;
}

// The image turned upright by its EXIF orientation, step by step as OpenCV turns it.
cv::Mat upright_by(int orientation, const cv::Mat& stored) {
  cv::Mat image = stored;
  for (const OrientationStep step : orientation_steps(orientation)) {
    cv::Mat turned;
    switch (step) {
      case OrientationStep::Transpose: cv::transpose(image, turned); break;
      case OrientationStep::Rotate90: cv::rotate(image, turned, cv::ROTATE_90_CLOCKWISE); break;
      case OrientationStep::Rotate270: cv::rotate(image, turned, cv::ROTATE_90_COUNTERCLOCKWISE); break;
      case OrientationStep::FlipHorizontal: cv::flip(image, turned, 1); break;
      case OrientationStep::FlipVertical: cv::flip(image, turned, 0); break;
      case OrientationStep::FlipBoth: cv::flip(image, turned, -1); break;
    }
    image = turned;
  }
  return image;
}

// Decodes into `image` (allocated here); false on any error, warning or declined kind.
bool decode_into(jpeg_decompress_struct& info, Errors& errors, const unsigned char* data, std::size_t size,
                 std::uint64_t max_pixels, cv::Mat& image) {
  use(errors, info.err);
  if (setjmp(errors.jump) != 0) return false;
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, static_cast<unsigned long>(size));
  if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) return false;
  if (info.data_precision != 8 || (info.num_components != 1 && info.num_components != 3)) return false;
  if (std::uint64_t{info.image_width} * info.image_height > max_pixels) return false;
  const int channels = info.num_components;
  info.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
  jpeg_start_decompress(&info);
  image.create(static_cast<int>(info.output_height), static_cast<int>(info.output_width), CV_8UC(channels));
  JSAMPROW rows[16];
  while (info.output_scanline < info.output_height) {
    const JDIMENSION first = info.output_scanline;
    const JDIMENSION count = std::min<JDIMENSION>(16, info.output_height - first);
    for (JDIMENSION i = 0; i < count; ++i) rows[i] = image.ptr(static_cast<int>(first + i));
    if (jpeg_read_scanlines(&info, rows, count) == 0) return false;
  }
  jpeg_finish_decompress(&info);
  return errors.warnings == 0;
}

// Encodes into libjpeg's own buffer (`buffer`, freed by the caller whatever happens).
bool encode_into(jpeg_compress_struct& info, Errors& errors, const cv::Mat& image, int quality,
                 unsigned char*& buffer, unsigned long& length) {
  use(errors, info.err);
  if (setjmp(errors.jump) != 0) return false;
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, &buffer, &length);
  info.image_width = static_cast<JDIMENSION>(image.cols);
  info.image_height = static_cast<JDIMENSION>(image.rows);
  info.input_components = image.channels();
  info.in_color_space = image.channels() == 1 ? JCS_GRAYSCALE : image.channels() == 3 ? JCS_EXT_BGR : JCS_EXT_BGRX;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);  // baseline tables, as OpenCV asks
  jpeg_start_compress(&info, TRUE);
  JSAMPROW rows[16];
  while (info.next_scanline < info.image_height) {
    const JDIMENSION first = info.next_scanline;
    const JDIMENSION count = std::min<JDIMENSION>(16, info.image_height - first);
    for (JDIMENSION i = 0; i < count; ++i) rows[i] = const_cast<JSAMPROW>(image.ptr(static_cast<int>(first + i)));
    jpeg_write_scanlines(&info, rows, count);
  }
  jpeg_finish_compress(&info);
  return true;
}

// One JPEG of the whole of `image`.
bool encode_whole(const cv::Mat& image, int quality, std::vector<unsigned char>& bytes) {
  jpeg_compress_struct info{};
  Errors errors{};
  unsigned char* buffer = nullptr;
  unsigned long length = 0;
  const bool encoded = encode_into(info, errors, image, quality, buffer, length);
  jpeg_destroy_compress(&info);
  if (encoded) bytes.assign(buffer, buffer + length);
  std::free(buffer);
  return encoded;
}

// Bands of whole MCU rows, one JPEG each, joined by restart markers into one: what
// libjpeg writes for the whole image with that restart interval, made on several cores.
struct StripPlan {
  int strips = 1;
  int rows = 0;              // image rows a strip (the last may have fewer)
  int restart_interval = 0;  // MCUs a strip
};

constexpr int kMinStripRows = 128;  // smaller strips do not pay for their thread

StripPlan strip_plan(const cv::Mat& image, int threads) {
  StripPlan plan;
  if (threads < 2) return plan;
  // jpeg_set_defaults: gray in 8x8 blocks; colour as YCbCr 4:2:0, MCUs of 16x16.
  const int mcu = image.channels() == 1 ? 8 : 16;
  const int mcus_a_row = (image.cols + mcu - 1) / mcu;
  const int mcu_rows = (image.rows + mcu - 1) / mcu;
  const int strips = std::min(threads, image.rows / kMinStripRows);
  if (strips < 2) return plan;
  // DRI holds the interval in 16 bits.
  const int strip_mcu_rows = std::min((mcu_rows + strips - 1) / strips, 65535 / mcus_a_row);
  if (strip_mcu_rows < 1) return plan;
  plan.rows = strip_mcu_rows * mcu;
  plan.strips = (image.rows + plan.rows - 1) / plan.rows;
  plan.restart_interval = strip_mcu_rows * mcus_a_row;
  return plan;
}

// The strips' JPEGs as one: the first's header with the whole height and a DRI segment
// before SOS, then each strip's entropy-coded data, RSTn between them, and EOI.
bool stitch(const std::vector<std::vector<unsigned char>>& parts, int height, int restart_interval,
            std::vector<unsigned char>& bytes) {
  // Each part's header, parsed by the marker reader the rest of the tool uses.
  std::vector<JpegHeader> headers;
  for (const std::vector<unsigned char>& part : parts) {
    const std::optional<JpegHeader> header = parse_jpeg_header(part.data(), part.size());
    if (!header || header->scan_data_at == 0 || part.size() < header->scan_data_at + 2 ||
        part[part.size() - 2] != 0xFF || part.back() != 0xD9)
      return false;
    headers.push_back(*header);
  }
  const JpegHeader& first = headers.front();
  const auto in_first = [&](std::size_t offset) { return parts.front().begin() + static_cast<std::ptrdiff_t>(offset); };
  bytes.assign(parts.front().begin(), in_first(first.scan_at));
  bytes[first.frame_at + 5] = static_cast<unsigned char>(height >> 8);  // SOFn: length, precision, height
  bytes[first.frame_at + 6] = static_cast<unsigned char>(height & 0xFF);
  const unsigned char dri[] = {0xFF, 0xDD, 0x00, 0x04, static_cast<unsigned char>(restart_interval >> 8),
                               static_cast<unsigned char>(restart_interval & 0xFF)};
  bytes.insert(bytes.end(), std::begin(dri), std::end(dri));
  bytes.insert(bytes.end(), in_first(first.scan_at), in_first(first.scan_data_at));
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::vector<unsigned char>& part = parts[i];
    bytes.insert(bytes.end(), part.begin() + static_cast<std::ptrdiff_t>(headers[i].scan_data_at), part.end() - 2);
    if (i + 1 < parts.size()) bytes.insert(bytes.end(), {0xFF, static_cast<unsigned char>(0xD0 + i % 8)});
  }
  bytes.insert(bytes.end(), {0xFF, 0xD9});
  return true;
}

}  // namespace

bool available() { return true; }

std::optional<cv::Mat> decode(const unsigned char* data, std::size_t size, bool upright, std::uint64_t max_pixels) {
  jpeg_decompress_struct info{};
  Errors errors{};
  cv::Mat image;
  const bool decoded = decode_into(info, errors, data, size, max_pixels, image);
  jpeg_destroy_decompress(&info);
  if (!decoded) return std::nullopt;
  if (!upright) return image;
  const std::optional<JpegHeader> header = parse_jpeg_header(data, size);
  return upright_by(header ? header->orientation : 1, image);
}

bool encode(const cv::Mat& image, int quality, std::vector<unsigned char>& bytes, int threads) {
  if (image.depth() != CV_8U || image.dims != 2 || image.empty() ||
      (image.channels() != 1 && image.channels() != 3 && image.channels() != 4))
    return false;
  quality = std::clamp(quality, 0, 100);
  const StripPlan plan = strip_plan(image, threads);
  if (plan.strips < 2) return encode_whole(image, quality, bytes);
  std::vector<std::vector<unsigned char>> parts(static_cast<std::size_t>(plan.strips));
  std::atomic<bool> encoded{true};
  cv::parallel_for_(cv::Range(0, plan.strips), [&](const cv::Range& range) {
    for (int i = range.start; i < range.end; ++i) {
      const cv::Mat rows = image.rowRange(i * plan.rows, std::min(image.rows, (i + 1) * plan.rows));
      if (!encode_whole(rows, quality, parts[static_cast<std::size_t>(i)])) encoded = false;
    }
  });
  return encoded && stitch(parts, image.rows, plan.restart_interval, bytes);
}

}  // namespace gpufilter::io::jpeg_cpu
