#include "point/point_cpu.hpp"

#include <cstdint>

#include <opencv2/core.hpp>

#include "common/opencv_image.hpp"
#include "common/overlap_copy.hpp"

namespace gpufilter::cpu {

bool table_maps(const ImageView& src, const ImageView& dst) {
  const bool same_or_apart = src.data == dst.data ? src.pitch == dst.pitch : !reference::may_overlap(src, dst);
  return src.format.type == ChannelType::U8 && dst.format == src.format && src.width == dst.width &&
         src.height == dst.height && same_or_apart;
}

void point_op(const ImageView& src, const ImageView& dst,
              const std::function<void(const ImageView&, const ImageView&)>& reference) {
  if (!table_maps(src, dst)) {
    reference(src, dst);
    return;
  }
  const int channels = src.format.channels;
  // A 256x1 image whose pixel v holds v in every channel, through the op: the table.
  cv::Mat ramp(1, 256, CV_MAKETYPE(CV_8U, channels)), table(1, 256, CV_MAKETYPE(CV_8U, channels));
  for (int v = 0; v < 256; ++v)
    for (int c = 0; c < channels; ++c) ramp.ptr<std::uint8_t>(0)[v * channels + c] = static_cast<std::uint8_t>(v);
  const PixelFormat format = src.format;
  reference(ImageView{ramp.data, 256, 1, ramp.step[0], format}, ImageView{table.data, 256, 1, table.step[0], format});
  cv::Mat out = as_mat(dst);
  cv::LUT(as_mat(src), table, out);
}

}  // namespace gpufilter::cpu
