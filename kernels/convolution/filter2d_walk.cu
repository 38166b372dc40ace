// Which specs the column walk runs, and its launch by pixel type.
#include <algorithm>
#include <string>

#include "common/dispatch.cuh"
#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_tuning.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

bool filter2d_walk_fits(const FilterSpec& spec) {
  const int masks = static_cast<int>(spec.masks.size());
  if (masks != (spec.output == FilterOutput::Magnitude ? 2 : 1)) return false;
  return std::max(spec.width(), spec.height()) / 2 <= Filter2dWalkTuning::kMaxRadius;
}

void launch_filter2d_walk(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx) {
  if (!filter2d_walk_fits(spec))
    throw Error(ErrorCode::InvalidArgument, "filter2d_walk: runs masks up to " +
                                                std::to_string(2 * Filter2dWalkTuning::kMaxRadius + 1) + "x" +
                                                std::to_string(2 * Filter2dWalkTuning::kMaxRadius + 1));
  visit_channel_type(src.format, [&](auto tag) {
    walk::launch_typed<typename decltype(tag)::type>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels
