#pragma once
// Launchers of the lab's conversion kernels. src and dst (or the planes) are validated
// device views of the shapes the op gives; `mapping` as the library's map kernels take it
// (kernels/conversion/pixel_mappings.hpp).
#include "conversion/conversion_launch.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

// staged: a row segment through shared memory, 16-byte global accesses whatever the
// pixel size (pixel maps only). Throws Error(UnsupportedFormat) for a pair of formats
// the map has no kernel for.
void launch_convert_staged(const ImageView& src, const ImageView& dst, const kernels::PixelMapping& mapping,
                           const ExecContext& ctx);

// vec16: the library's vec16_warp kernels without the warp's stage (8-bit images, rows at
// 16-byte boundaries); false, launching nothing, where they do not apply.
bool launch_convert_vec16_plain(const ImageView& src, const ImageView& dst, const kernels::PixelMapping& mapping,
                                const ExecContext& ctx);
bool launch_to_planar_vec16_plain(const ImageView& src, const kernels::PlaneSet& dst, const ExecContext& ctx);
bool launch_to_interleaved_vec16_plain(const kernels::PlaneSet& src, const ImageView& dst, const ExecContext& ctx);

}  // namespace gpufilter::lab
