#include "png_peers.hpp"

#include <opencv2/imgproc.hpp>

#include <csetjmp>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef GPUFILTER_BENCH_HAVE_LIBPNG
#include <png.h>
#endif
#ifdef GPUFILTER_BENCH_HAVE_LIBSPNG
#include <spng.h>
#endif

namespace gpufilter::bench {
namespace {

bool eight_bit_gray_or_colour(const cv::Mat& image) {
  return image.depth() == CV_8U && (image.channels() == 1 || image.channels() == 3 || image.channels() == 4);
}

}  // namespace

#ifdef GPUFILTER_BENCH_HAVE_LIBPNG
namespace {

void append_to_vector(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + length);
}

void no_flush(png_structp /*png*/) {}

// libpng reports errors by longjmp to here; no C++ object lives between the two frames.
bool write_with_libpng(png_structp png, png_infop info, const cv::Mat& image, int level, int strategy,
                       std::vector<std::uint8_t>* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, out, append_to_vector, no_flush);
  const int colour = image.channels() == 1   ? PNG_COLOR_TYPE_GRAY
                     : image.channels() == 3 ? PNG_COLOR_TYPE_RGB
                                             : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.cols), static_cast<png_uint_32>(image.rows), 8, colour,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
  png_set_compression_level(png, level);
  png_set_compression_strategy(png, strategy);
  png_write_info(png, info);
  if (image.channels() >= 3) png_set_bgr(png);
  for (int y = 0; y < image.rows; ++y) png_write_row(png, image.ptr<png_byte>(y));
  png_write_end(png, info);
  return true;
}

}  // namespace

bool have_libpng() { return true; }

std::vector<std::uint8_t> libpng_encode(const cv::Mat& image, int level, int strategy) {
  std::vector<std::uint8_t> out;
  if (!eight_bit_gray_or_colour(image)) return out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    throw std::runtime_error("libpng: out of memory");
  }
  out.reserve(image.total() * image.elemSize() / 2);
  const bool written = write_with_libpng(png, info, image, level, strategy, &out);
  png_destroy_write_struct(&png, &info);
  if (!written) throw std::runtime_error("libpng failed to encode");
  return out;
}
#else
bool have_libpng() { return false; }
std::vector<std::uint8_t> libpng_encode(const cv::Mat&, int, int) { return {}; }
#endif

#ifdef GPUFILTER_BENCH_HAVE_LIBSPNG
namespace {

void check(int status, const char* what) {
  if (status != 0) throw std::runtime_error(std::string("libspng: ") + what + ": " + spng_strerror(status));
}

}  // namespace

bool have_libspng() { return true; }

std::vector<std::uint8_t> libspng_encode(const cv::Mat& image, int level, int strategy) {
  if (!eight_bit_gray_or_colour(image)) return {};
  // libspng takes R, G, B(, A): the swap is part of its cost, as it is of the tool's.
  cv::Mat rgb;
  if (image.channels() == 3) cv::cvtColor(image, rgb, cv::COLOR_BGR2RGB);
  else if (image.channels() == 4) cv::cvtColor(image, rgb, cv::COLOR_BGRA2RGBA);
  else rgb = image.isContinuous() ? image : image.clone();
  spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  if (ctx == nullptr) throw std::runtime_error("libspng: out of memory");
  std::vector<std::uint8_t> out;
  try {
    check(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), "buffer");
    check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, level), "level");
    check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_STRATEGY, strategy), "strategy");
    check(spng_set_option(ctx, SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_ALL), "filters");
    spng_ihdr ihdr{};
    ihdr.width = static_cast<std::uint32_t>(rgb.cols);
    ihdr.height = static_cast<std::uint32_t>(rgb.rows);
    ihdr.bit_depth = 8;
    ihdr.color_type = static_cast<std::uint8_t>(rgb.channels() == 1   ? SPNG_COLOR_TYPE_GRAYSCALE
                                                : rgb.channels() == 3 ? SPNG_COLOR_TYPE_TRUECOLOR
                                                                      : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA);
    check(spng_set_ihdr(ctx, &ihdr), "header");
    check(spng_encode_image(ctx, rgb.data, rgb.total() * rgb.elemSize(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE),
          "encode");
    std::size_t length = 0;
    int status = 0;
    void* buffer = spng_get_png_buffer(ctx, &length, &status);
    check(status, "buffer");
    const auto* bytes = static_cast<const std::uint8_t*>(buffer);
    out.assign(bytes, bytes + length);
    std::free(buffer);  // allocated by libspng with malloc
  } catch (...) {
    spng_ctx_free(ctx);
    throw;
  }
  spng_ctx_free(ctx);
  return out;
}
#else
bool have_libspng() { return false; }
std::vector<std::uint8_t> libspng_encode(const cv::Mat&, int, int) { return {}; }
#endif

}  // namespace gpufilter::bench
