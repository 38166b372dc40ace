#include "gpufilter/image_view.hpp"

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
  if (view.pitch < view.row_bytes())
    throw Error(ErrorCode::InvalidArgument, std::string(role) + " image pitch " +
                                                std::to_string(view.pitch) + " is shorter than a row (" +
                                                std::to_string(view.row_bytes()) + " bytes)");
  if (view.format.channels != 1 && view.format.channels != 3 && view.format.channels != 4)
    throw Error(ErrorCode::UnsupportedFormat,
                std::string(role) + " image has " + std::to_string(view.format.channels) +
                    " channels; 1, 3 or 4 are supported");
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
