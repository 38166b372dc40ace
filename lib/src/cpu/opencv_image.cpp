#include "cpu/opencv_image.hpp"

#include <cstring>
#include <vector>

#include "reference/border_index.hpp"
#include "reference/pixel_access.hpp"

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

// One padded row: source columns through the border map, or the constant pixel.
void pad_row(const unsigned char* src_row, unsigned char* out_row, const std::vector<int>& columns,
             const unsigned char* constant, std::size_t pixel_bytes) {
  for (std::size_t x = 0; x < columns.size(); ++x) {
    const unsigned char* from = columns[x] < 0 ? constant : src_row + static_cast<std::size_t>(columns[x]) * pixel_bytes;
    std::memcpy(out_row + x * pixel_bytes, from, pixel_bytes);
  }
}

}  // namespace

cv::Mat padded(const cv::Mat& src, int rx, int ry, const Border& border) {
  cv::Mat out(src.rows + 2 * ry, src.cols + 2 * rx, src.type());
  const std::size_t pixel_bytes = src.elemSize();
  // The constant pixel, stored as the image's samples are (reference/pixel_access.hpp).
  std::vector<unsigned char> constant(pixel_bytes);
  const ImageView constant_view{constant.data(), 1, 1, pixel_bytes,
                                PixelFormat{src.depth() == CV_8U    ? ChannelType::U8
                                            : src.depth() == CV_16U ? ChannelType::U16
                                                                    : ChannelType::F32,
                                            src.channels()}};
  for (int c = 0; c < src.channels(); ++c)
    reference::write_channel(constant_view, 0, 0, c,
                             reference::stored_value(border.value[static_cast<std::size_t>(c)], constant_view.format.type));
  std::vector<int> columns(static_cast<std::size_t>(out.cols));
  for (int x = 0; x < out.cols; ++x) columns[static_cast<std::size_t>(x)] = reference::border_index(x - rx, src.cols, border.mode);
  cv::parallel_for_(cv::Range(0, out.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      const int sy = reference::border_index(y - ry, src.rows, border.mode);
      unsigned char* out_row = out.ptr<unsigned char>(y);
      if (sy < 0) {
        for (int x = 0; x < out.cols; ++x) std::memcpy(out_row + static_cast<std::size_t>(x) * pixel_bytes, constant.data(), pixel_bytes);
      } else {
        pad_row(src.ptr<unsigned char>(sy), out_row, columns, constant.data(), pixel_bytes);
      }
    }
  });
  return out;
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
