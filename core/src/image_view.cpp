#include "gpufilter/image_view.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter {

ImageView ImageView::subview(int x, int y, int w, int h) const {
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x > width - w || y > height - h)
    throw Error(ErrorCode::InvalidArgument,
                "subview " + std::to_string(w) + "x" + std::to_string(h) + "+" + std::to_string(x) +
                    "+" + std::to_string(y) + " leaves the " + std::to_string(width) + "x" +
                    std::to_string(height) + " view");
  ImageView sub = *this;
  sub.data = static_cast<unsigned char*>(data) + static_cast<std::size_t>(y) * pitch +
             static_cast<std::size_t>(x) * format.pixel_bytes();
  sub.width = w;
  sub.height = h;
  return sub;
}

void validate_view(const ImageView& view, const char* role) {
  if (view.data == nullptr || view.width <= 0 || view.height <= 0)
    throw Error(ErrorCode::InvalidArgument, std::string(role) + " image is empty");
  // Before row_bytes(), which a wild channel count would overflow.
  if (view.format.channels != 1 && view.format.channels != 3 && view.format.channels != 4)
    throw Error(ErrorCode::UnsupportedFormat,
                std::string(role) + " image has " + std::to_string(view.format.channels) +
                    " channels; 1, 3 or 4 are supported");
  const std::size_t row = view.row_bytes();
  if (view.pitch < row)
    throw Error(ErrorCode::InvalidArgument, std::string(role) + " image pitch " +
                                                std::to_string(view.pitch) + " is shorter than a row (" +
                                                std::to_string(row) + " bytes)");
  // The last row ends pitch * (height - 1) + row bytes past data. A pitch so large that
  // this overflows, or passes the end of the address space, wraps pointer arithmetic
  // round to memory that is not the image's (callers from C or Python pass any number).
  const std::size_t rows_before_last = static_cast<std::size_t>(view.height) - 1;
  const std::size_t most = static_cast<std::size_t>(PTRDIFF_MAX);
  const bool spans_too_far =
      rows_before_last > 0 && view.pitch > (most - row) / rows_before_last;
  if (spans_too_far || reinterpret_cast<std::uintptr_t>(view.data) >
                           UINTPTR_MAX - (rows_before_last * view.pitch + row))
    throw Error(ErrorCode::InvalidArgument,
                std::string(role) + " image pitch " + std::to_string(view.pitch) + " over " +
                    std::to_string(view.height) + " rows reaches past the end of the address space");
}

void validate_pair(const ImageView& src, const ImageView& dst, const char* what) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  const auto shape = [](const ImageView& v) {
    return std::to_string(v.width) + "x" + std::to_string(v.height) + " " + v.format.name();
  };
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw Error(ErrorCode::InvalidArgument,
                std::string(what) + ": source is " + shape(src) + " but destination is " + shape(dst));
}

}  // namespace gpufilter
