// Crop: a rectangle of an image as a view of the same memory (no kernel).
#include <cctype>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"

namespace gpufilter {
namespace {

[[noreturn]] void bad_geometry(const std::string& text, const std::string& why) {
  throw Error(ErrorCode::InvalidArgument,
              "crop: geometry '" + text + "' " + why + "; write WxH+X+Y (e.g. 640x480+10+20) or WxH");
}

// Reads a whole number of at most 9 digits at `pos`; the sign is the caller's.
int read_number(const std::string& text, std::size_t& pos, const char* what) {
  const std::size_t start = pos;
  long long value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    if (pos - start >= 9) bad_geometry(text, std::string("has a ") + what + " too large");
    value = value * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos == start) bad_geometry(text, std::string("lacks a ") + what);
  return static_cast<int>(value);
}

}  // namespace

Rect parse_geometry(const std::string& text) {
  std::size_t pos = 0;
  Rect rect;
  rect.width = read_number(text, pos, "width");
  if (pos >= text.size() || (text[pos] != 'x' && text[pos] != 'X')) bad_geometry(text, "lacks the 'x' after the width");
  ++pos;
  rect.height = read_number(text, pos, "height");
  if (pos < text.size()) {
    for (int* offset : {&rect.x, &rect.y}) {
      if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-'))
        bad_geometry(text, offset == &rect.x ? "has something other than +X+Y after the size"
                                             : "lacks the +Y after +X");
      const bool negative = text[pos] == '-';
      ++pos;
      *offset = read_number(text, pos, offset == &rect.x ? "x offset" : "y offset");
      if (negative) *offset = -*offset;
    }
    if (pos != text.size()) bad_geometry(text, "has text after +X+Y");
  }
  if (rect.width <= 0 || rect.height <= 0) bad_geometry(text, "has an empty size");
  return rect;
}

ImageView crop(const ImageView& view, const Rect& rect) {
  const auto describe = [](const Rect& r) {
    return std::to_string(r.width) + "x" + std::to_string(r.height) + (r.x < 0 ? "" : "+") + std::to_string(r.x) +
           (r.y < 0 ? "" : "+") + std::to_string(r.y);
  };
  const std::string image = std::to_string(view.width) + "x" + std::to_string(view.height);
  if (rect.width <= 0 || rect.height <= 0)
    throw Error(ErrorCode::InvalidArgument, "crop: rectangle " + describe(rect) + " is empty");
  if (rect.x < 0 || rect.y < 0)
    throw Error(ErrorCode::InvalidArgument,
                "crop: rectangle " + describe(rect) + " starts outside the " + image + " image (negative offset)");
  if (rect.x >= view.width || rect.y >= view.height)
    throw Error(ErrorCode::InvalidArgument,
                "crop: rectangle " + describe(rect) + " starts outside the " + image + " image");
  if (rect.width > view.width - rect.x || rect.height > view.height - rect.y)
    throw Error(ErrorCode::InvalidArgument, "crop: rectangle " + describe(rect) + " reaches beyond the " + image +
                                                " image (its right edge is at " +
                                                std::to_string(static_cast<long long>(rect.x) + rect.width) +
                                                ", its bottom at " +
                                                std::to_string(static_cast<long long>(rect.y) + rect.height) + ")");
  return view.subview(rect.x, rect.y, rect.width, rect.height);
}

}  // namespace gpufilter
