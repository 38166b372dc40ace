// The conversion family's lab variants: staged (the pixel maps through shared memory)
// and vec16 (vec16_warp without the warp's stage), both superseded by vec16_warp. Each
// makes the op's pixel map of its parameters and checks dst against the op's output.
#include <string>
#include <utility>

#include "conversion/conversion_launch.hpp"
#include "conversion/pixel_mappings.hpp"
#include "gpufilter/conversions.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/conversion/conversion_lab_launch.hpp"
#include "lab/lab_families.hpp"

namespace gpufilter::lab {
namespace {

using kernels::PixelMap;

const char* const kPixelMaps[] = {"gray", "add_alpha", "drop_alpha", "swap_channels", "convert"};

// The views as the op gives them: dst of the op's output shape for src.
void check_output(const std::string& op, const ImageView& src, const ImageView& dst, const ParamValues& params) {
  check_device_views(op.c_str(), src, dst);
  const ImageShape out = find_operation(op)->output_shape_for(ImageShape{src.width, src.height, src.format}, params);
  if (out != ImageShape{dst.width, dst.height, dst.format})
    throw Error(ErrorCode::InvalidArgument, op + ": the destination is not the op's output for this source");
}

kernels::PixelMapping mapping_for(const std::string& op, const ImageView& src, const ParamValues& params) {
  if (op == "gray") return kernels::gray_mapping(gray_weights_from_name(params.text("weights")));
  if (op == "add_alpha") return kernels::map_only(PixelMap::AddAlpha);
  if (op == "drop_alpha") return kernels::map_only(PixelMap::DropAlpha);
  if (op == "swap_channels")
    return kernels::swap_mapping(ChannelOrder::parse(params.has("order") ? params.text("order") : "",
                                                     src.format.channels));
  return kernels::map_only(PixelMap::Depth);  // convert
}

kernels::PlaneSet plane_set(const PlanarView& planar) {
  kernels::PlaneSet set;
  for (int c = 0; c < planar.channels; ++c) set.planes[c] = planar.planes[c];
  set.pitch = planar.pitch;
  return set;
}

LabVariant variant_of(std::string op, std::string name, std::string help, ImageRun run) {
  LabVariant v;
  v.op = std::move(op);
  v.variant = std::move(name);
  v.help = std::move(help);
  v.run = std::move(run);
  return v;
}

LabVariant staged(const std::string& op) {
  return variant_of(op, "staged", "a row segment through shared memory, 16-byte global accesses",
                    [op](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border&,
                         const ExecContext& ctx) {
                      check_output(op, src, dst, params);
                      launch_convert_staged(src, dst, mapping_for(op, src, params), ctx);
                    });
}

// Where the vec16 kernels do not apply (other types, rows off 16-byte boundaries), the
// library's unroll4 kernels run, as for vec16_warp.
LabVariant vec16(const std::string& op) {
  const char* help = "8-bit: 16 pixels a thread in 16-byte words, each lane its own chunks";
  if (op == "planar")
    return variant_of(op, "vec16", help,
                      [op](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border&,
                           const ExecContext& ctx) {
                        check_output(op, src, dst, params);
                        const kernels::PlaneSet planes = plane_set(planar_view(dst, src.format.channels));
                        if (!launch_to_planar_vec16_plain(src, planes, ctx)) kernels::launch_to_planar(src, planes, 4, ctx);
                      });
  if (op == "interleaved")
    return variant_of(op, "vec16", help,
                      [op](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border&,
                           const ExecContext& ctx) {
                        check_output(op, src, dst, params);
                        const kernels::PlaneSet planes = plane_set(planar_view(src, dst.format.channels));
                        if (!launch_to_interleaved_vec16_plain(planes, dst, ctx))
                          kernels::launch_to_interleaved(planes, dst, 4, ctx);
                      });
  return variant_of(op, "vec16", help,
                    [op](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border&,
                         const ExecContext& ctx) {
                      check_output(op, src, dst, params);
                      const kernels::PixelMapping m = mapping_for(op, src, params);
                      if (!launch_convert_vec16_plain(src, dst, m, ctx))
                        kernels::launch_convert_pixels(src, dst, m, kernels::PixelKernel::Unroll4, ctx);
                    });
}

}  // namespace

std::vector<LabVariant> conversion_lab_variants() {
  std::vector<LabVariant> list;
  for (const char* op : kPixelMaps) {
    list.push_back(staged(op));
    list.push_back(vec16(op));
  }
  list.push_back(vec16("planar"));
  list.push_back(vec16("interleaved"));
  return list;
}

}  // namespace gpufilter::lab
