// The CPU side of gpufilter/jpeg_color.hpp, and the checks both sides share.
#include <cstdint>
#include <string>

#include "conversion/jpeg_color_checks.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/jpeg_color.hpp"
#include "kernels/conversion/jpeg_ycc_math.hpp"

namespace gpufilter {

void ycc_planes_to_rgb_cpu(const YccPlanes& planes, const ImageView& dst) {
  check_ycc_planes(planes, dst);
  const kernels::YccPlane cb = ycc_plane_of(planes.cb);
  const kernels::YccPlane cr = ycc_plane_of(planes.cr);
  for (int y = 0; y < dst.height; ++y) {
    const auto* luma = static_cast<const std::uint8_t*>(planes.y.data) + static_cast<std::size_t>(y) * planes.y.pitch;
    auto* out = static_cast<std::uint8_t*>(dst.data) + static_cast<std::size_t>(y) * dst.pitch;
    for (int x = 0; x < dst.width; ++x) {
      const kernels::RgbBytes rgb =
          kernels::ycc_to_rgb(luma[x], kernels::upsampled_chroma(cb, planes.h_factor, planes.v_factor, x, y),
                              kernels::upsampled_chroma(cr, planes.h_factor, planes.v_factor, x, y));
      out[3 * x] = rgb.r;
      out[3 * x + 1] = rgb.g;
      out[3 * x + 2] = rgb.b;
    }
  }
}

kernels::YccPlane ycc_plane_of(const ImageView& view) {
  return {static_cast<const std::uint8_t*>(view.data), view.pitch, view.width, view.height};
}

void check_ycc_planes(const YccPlanes& planes, const ImageView& dst) {
  const auto refuse = [](const std::string& why) { throw Error(ErrorCode::InvalidArgument, "ycc_planes_to_rgb: " + why); };
  const PixelFormat plane_format{ChannelType::U8, 1};
  if (planes.y.format != plane_format || planes.cb.format != plane_format || planes.cr.format != plane_format)
    refuse("Y, Cb and Cr must be u8x1 planes");
  if (dst.format != PixelFormat{ChannelType::U8, 3}) refuse("the destination must be u8x3, got " + dst.format.name());
  if (planes.y.data == nullptr || planes.cb.data == nullptr || planes.cr.data == nullptr || dst.data == nullptr)
    refuse("a plane or the destination has no memory");
  if (dst.width != planes.y.width || dst.height != planes.y.height || dst.width <= 0 || dst.height <= 0)
    refuse("the destination must be Y's size");
  const int h = planes.h_factor;
  const int v = planes.v_factor;
  if ((h != 1 && h != 2) || (v != 1 && v != 2)) refuse("the chroma factors must be 1 or 2");
  const int chroma_width = (planes.y.width + h - 1) / h;
  const int chroma_height = (planes.y.height + v - 1) / v;
  for (const ImageView* chroma : {&planes.cb, &planes.cr})
    if (chroma->width != chroma_width || chroma->height != chroma_height)
      refuse("Cb and Cr must be " + std::to_string(chroma_width) + "x" + std::to_string(chroma_height) + " for a " +
             std::to_string(planes.y.width) + "x" + std::to_string(planes.y.height) + " Y plane");
}

}  // namespace gpufilter
