#include "gray_alpha_png.hpp"

#include <png.h>
#include <zlib.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpufilter::cli {
namespace {

// Shared with libpng's callbacks, which report failures by longjmp: plain data only.
struct WriteState {
  TemporaryFile* file;
  char message[256];
};

void keep_message(png_structp png, const char* message) {
  auto* state = static_cast<WriteState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof state->message, "%s", message);
}

extern "C" void on_png_error(png_structp png, png_const_charp message) {
  keep_message(png, message);
  png_longjmp(png, 1);
}

extern "C" void on_png_warning(png_structp, png_const_charp) {}

extern "C" void on_png_write(png_structp png, png_bytep data, std::size_t length) {
  auto* state = static_cast<WriteState*>(png_get_io_ptr(png));
  const int error = state->file->append(data, length);
  if (error != 0) png_error(png, std::strerror(error));
}

extern "C" void on_png_flush(png_structp) {}

// Gray and alpha of row y, interleaved, into `row`.
template <class T>
void gray_alpha_row(const cv::Mat& bgra, int y, unsigned char* row) {
  const T* pixel = bgra.ptr<T>(y);
  T* out = reinterpret_cast<T*>(row);
  for (int x = 0; x < bgra.cols; ++x, pixel += 4, out += 2) {
    out[0] = pixel[0];
    out[1] = pixel[3];
  }
}

// Everything between setjmp and a possible longjmp back into it: no object with a
// destructor may live here, so the row buffer comes from the caller.
// `level` < 0: OpenCV's defaults when no compression level is asked for (tuned for
// speed); 0..9: that zlib level with the default strategy, as OpenCV does when asked.
bool encode(png_structp png, png_infop info, const cv::Mat& bgra, int level, unsigned char* row) {
  if (setjmp(png_jmpbuf(png))) return false;
  const bool sixteen = bgra.depth() == CV_16U;
  png_set_IHDR(png, info, static_cast<png_uint_32>(bgra.cols), static_cast<png_uint_32>(bgra.rows),
               sixteen ? 16 : 8, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (level < 0) {
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, Z_BEST_SPEED);
    png_set_compression_strategy(png, Z_RLE);
  } else {
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
  }
  png_write_info(png, info);
  if (sixteen && std::endian::native == std::endian::little) png_set_swap(png);  // PNG is big-endian
  for (int y = 0; y < bgra.rows; ++y) {
    if (sixteen) {
      gray_alpha_row<std::uint16_t>(bgra, y, row);
    } else {
      gray_alpha_row<std::uint8_t>(bgra, y, row);
    }
    png_write_row(png, row);
  }
  png_write_end(png, info);
  return true;
}

}  // namespace

std::string write_gray_alpha_png(const cv::Mat& bgra, std::optional<int> compression, TemporaryFile& file) {
  if (bgra.channels() != 4 || (bgra.depth() != CV_8U && bgra.depth() != CV_16U)) {
    return "a gray+alpha PNG holds 8- or 16-bit pixels from a 4-channel image";
  }
  WriteState state{&file, {}};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error, on_png_warning);
  if (png == nullptr) return "libpng could not start";
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    return "libpng could not start";
  }
  png_set_write_fn(png, &state, on_png_write, on_png_flush);
  std::vector<unsigned char> row(static_cast<std::size_t>(bgra.cols) * 2 * bgra.elemSize1());
  const bool written = encode(png, info, bgra, compression.value_or(-1), row.data());
  png_destroy_write_struct(&png, &info);
  return written ? std::string() : std::string(state.message[0] != '\0' ? state.message : "libpng failed");
}

}  // namespace gpufilter::cli
