// libpng reports errors by calling the error handler, which must not return: it jumps
// back with longjmp, so the functions that call libpng hold nothing with a destructor
// between setjmp and the calls.
#include "codecs/png_libpng_reader.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <exception>

namespace gpufilter::io {
namespace {

struct MemorySource {
  const unsigned char* data;
  std::size_t size;
  std::size_t at;
};

// What libpng said while decoding; its handlers add to it.
struct LibpngMessages {
  std::string damage;
  std::vector<std::string> notes;
};

// The PNG specification's naming rule: bit 5 of a chunk type's first byte (a lower-case
// first letter) marks an ancillary chunk.
bool is_ancillary(png_uint_32 chunk) { return ((chunk >> 29) & 1u) != 0; }

// libpng's message with the chunk it was reading named first, where the message does
// not already name it ("malformed sPLT chunk": "sPLT: malformed sPLT chunk").
std::string with_chunk(png_const_structrp png, const char* message) {
  const png_uint_32 chunk = png_get_io_chunk_type(png);
  if (chunk == 0) return message;
  const char name[5] = {static_cast<char>(chunk >> 24), static_cast<char>(chunk >> 16), static_cast<char>(chunk >> 8),
                        static_cast<char>(chunk), '\0'};
  if (std::strncmp(message, name, 4) == 0) return message;
  return std::string(name) + ": " + message;
}

void add_damage(LibpngMessages& messages, const std::string& text) {
  if (!messages.damage.empty()) messages.damage += "; ";
  messages.damage += text;
}

void on_warning(png_structp png, png_const_charp message) {
  auto* messages = static_cast<LibpngMessages*>(png_get_error_ptr(png));
  try {
    const std::string text = "libpng warning: " + with_chunk(png, message);
    if (is_ancillary(png_get_io_chunk_type(png))) {
      messages->notes.push_back(text);
    } else {
      add_damage(*messages, text);
    }
  } catch (const std::exception&) {
    // Out of memory for the message: the decode fails on its own soon enough.
  }
}

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* messages = static_cast<LibpngMessages*>(png_get_error_ptr(png));
  try {
    add_damage(*messages, "libpng error: " + with_chunk(png, message));
  } catch (const std::exception&) {
    // The jump below still fails the decode.
  }
  png_longjmp(png, 1);
}

void read_from_source(png_structp png, png_bytep out, png_size_t length) {
  auto* source = static_cast<MemorySource*>(png_get_io_ptr(png));
  if (length > source->size - source->at) png_error(png, "Read Error");  // as libpng's own file reader says
  std::memcpy(out, source->data + source->at, length);
  source->at += length;
}

struct PngInfo {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int colour_type = 0;
  int type = 0;  // the Mat's type, as OpenCV's decoder picks it
};

// The header, and the Mat type OpenCV gives it with IMREAD_UNCHANGED (grfmt_png.cpp's
// readHeader): RGB and palettes as 3 channels, 4 with a tRNS chunk; gray+alpha and RGBA
// as 4; gray as 1 (its tRNS dropped); 16-bit kept, lower depths as 8-bit.
bool read_info(png_structp png, png_infop info, PngInfo& out) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_read_info(png, info);
  png_get_IHDR(png, info, &out.width, &out.height, &out.bit_depth, &out.colour_type, nullptr, nullptr, nullptr);
  int channels = 1;
  switch (out.colour_type) {
    case PNG_COLOR_TYPE_RGB:
    case PNG_COLOR_TYPE_PALETTE: {
      png_bytep alpha = nullptr;
      int transparent = 0;
      png_color_16p colour = nullptr;
      png_get_tRNS(png, info, &alpha, &transparent, &colour);
      channels = transparent > 0 ? 4 : 3;
      break;
    }
    case PNG_COLOR_TYPE_GRAY_ALPHA:
    case PNG_COLOR_TYPE_RGB_ALPHA: channels = 4; break;
    default: channels = 1;
  }
  out.type = CV_MAKETYPE(out.bit_depth == 16 ? CV_16U : CV_8U, channels);
  return true;
}

// The pixels into `rows`, with the transformations OpenCV's readData sets, in its order.
bool read_pixels(png_structp png, png_infop info, png_infop end, const PngInfo& header, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  const int channels = CV_MAT_CN(header.type);
  const bool colour = channels > 1;
  png_set_swap(png);  // 16-bit samples in native order (little-endian hosts only; 8-bit ones are left alone)
  if (channels < 4) {
    png_set_strip_alpha(png);
  } else {
    png_set_tRNS_to_alpha(png);
  }
  if (header.colour_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if ((header.colour_type & PNG_COLOR_MASK_COLOR) == 0 && header.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if ((header.colour_type & PNG_COLOR_MASK_COLOR) != 0 && colour) {
    png_set_bgr(png);
  } else if (colour) {
    png_set_gray_to_rgb(png);
  } else {
    png_set_rgb_to_gray(png, 1, 0.299, 0.587);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  png_read_image(png, rows);
  png_read_end(png, end);
  return true;
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "read_pixels swaps 16-bit samples to little-endian");

}  // namespace

LibpngDecodeResult decode_png_with_libpng(const unsigned char* data, std::size_t size, std::uint64_t max_pixels) {
  LibpngDecodeResult result;
  LibpngMessages messages;
  MemorySource source{data, size, 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &messages, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  png_infop end = png ? png_create_info_struct(png) : nullptr;
  struct Cleanup {
    png_structp* png;
    png_infop* info;
    png_infop* end;
    ~Cleanup() { png_destroy_read_struct(png, info, end); }
  } cleanup{&png, &info, &end};
  if (png == nullptr || info == nullptr || end == nullptr) {
    result.damage = "libpng could not start (out of memory)";
    return result;
  }
  png_set_read_fn(png, &source, read_from_source);
  PngInfo header;
  if (read_info(png, info, header)) {
    if (std::uint64_t{header.width} * header.height > max_pixels) {
      add_damage(messages, "the image has more pixels than the decoder's limit");
    } else {
      cv::Mat image(static_cast<int>(header.height), static_cast<int>(header.width), header.type);
      std::vector<png_bytep> rows(header.height);
      for (png_uint_32 y = 0; y < header.height; ++y) rows[y] = image.ptr(static_cast<int>(y));
      if (read_pixels(png, info, end, header, rows.data()) && messages.damage.empty()) result.image = image;
    }
  }
  if (result.image.empty() && messages.damage.empty()) messages.damage = "libpng could not decode the file";
  result.damage = std::move(messages.damage);
  result.notes = std::move(messages.notes);
  return result;
}

}  // namespace gpufilter::io
