#include "common/opencv_image.hpp"

#include <cstring>
#include <vector>

#include "common/border_index.hpp"
#include "common/pixel_access.hpp"

namespace gpufilter::cpu {

int mat_type(PixelFormat format) {
  int depth = CV_32F;
  switch (format.type) {
    case ChannelType::U8: depth = CV_8U; break;
    case ChannelType::U16: depth = CV_16U; break;
    case ChannelType::F32: depth = CV_32F; break;
  }
  return CV_MAKETYPE(depth, format.channels);
}

cv::Mat as_mat(const ImageView& view) { return cv::Mat(view.height, view.width, mat_type(view.format), view.data, view.pitch); }

namespace {

// What padding a row of `src` needs: the constant pixel (stored as the image's samples
// are, reference/pixel_access.hpp) and where the rx columns on each side come from.
struct RowPadding {
  std::size_t pixel_bytes = 0;
  int rx = 0;
  int width = 0;
  std::vector<unsigned char> constant;
  std::vector<int> sides;  // source columns of the left rx, then the right rx, columns (-1: constant)

  RowPadding(const cv::Mat& src, int pad_x, const Border& border)
      : pixel_bytes(src.elemSize()), rx(pad_x), width(src.cols), constant(pixel_bytes) {
    const ImageView constant_view{constant.data(), 1, 1, pixel_bytes,
                                  PixelFormat{src.depth() == CV_8U    ? ChannelType::U8
                                              : src.depth() == CV_16U ? ChannelType::U16
                                                                      : ChannelType::F32,
                                              src.channels()}};
    for (int c = 0; c < src.channels(); ++c)
      reference::write_channel(constant_view, 0, 0, c,
                               reference::stored_value(border.value[static_cast<std::size_t>(c)], constant_view.format.type));
    for (int x = 0; x < rx; ++x) sides.push_back(reference::border_index(x - rx, width, border.mode));
    for (int x = 0; x < rx; ++x) sides.push_back(reference::border_index(width + x, width, border.mode));
  }

  // One padded row of rx + width + rx pixels: `src_row` (nullptr: a row of the constant)
  // copied whole into the middle, the sides through the border map.
  void fill(const unsigned char* src_row, unsigned char* out_row) const {
    auto put = [&](int at, int from) {
      const unsigned char* pixel = from < 0 || src_row == nullptr ? constant.data() : src_row + static_cast<std::size_t>(from) * pixel_bytes;
      std::memcpy(out_row + static_cast<std::size_t>(at) * pixel_bytes, pixel, pixel_bytes);
    };
    for (int x = 0; x < rx; ++x) put(x, sides[static_cast<std::size_t>(x)]);
    if (src_row != nullptr)
      std::memcpy(out_row + static_cast<std::size_t>(rx) * pixel_bytes, src_row, static_cast<std::size_t>(width) * pixel_bytes);
    else
      for (int x = 0; x < width; ++x) put(rx + x, -1);
    for (int x = 0; x < rx; ++x) put(rx + width + x, sides[static_cast<std::size_t>(rx + x)]);
  }
};

const unsigned char* source_row(const cv::Mat& src, int y, BorderMode mode) {
  const int sy = reference::border_index(y, src.rows, mode);
  return sy < 0 ? nullptr : src.ptr<unsigned char>(sy);
}

}  // namespace

cv::Mat padded(const cv::Mat& src, int rx, int ry, const Border& border) {
  cv::Mat out(src.rows + 2 * ry, src.cols + 2 * rx, src.type());
  const RowPadding padding(src, rx, border);
  cv::parallel_for_(cv::Range(0, out.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) padding.fill(source_row(src, y - ry, border.mode), out.ptr<unsigned char>(y));
  });
  return out;
}

void padded_rows(const cv::Mat& src, int rx, int first, int count, const Border& border, cv::Mat& out) {
  out.create(count, src.cols + 2 * rx, src.type());
  const RowPadding padding(src, rx, border);
  for (int i = 0; i < count; ++i) padding.fill(source_row(src, first + i, border.mode), out.ptr<unsigned char>(i));
}

bool opencv_border_matches(BorderMode mode, int width, int height, int rx, int ry) {
  const bool reflects = mode == BorderMode::Reflect101 || mode == BorderMode::Replicate || mode == BorderMode::Reflect;
  return reflects && width > rx && height > ry;
}

int opencv_border(BorderMode mode) {
  switch (mode) {
    case BorderMode::Replicate: return cv::BORDER_REPLICATE;
    case BorderMode::Reflect: return cv::BORDER_REFLECT;
    default: break;
  }
  return cv::BORDER_REFLECT_101;
}

}  // namespace gpufilter::cpu
