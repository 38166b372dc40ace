// The separable strip on element columns (separable_strip_elements.cuh): one kernel for
// each channel count (1, 3) and compiled radius of a channel type; the types' files
// (separable_strip_elements_<type>.cu) instantiate it side by side.
#include "convolution/separable_strip_elements.cuh"

#include <string>

#include "common/dispatch.cuh"

namespace gpufilter::kernels {

void launch_separable_strip_by_elements(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                        const Border& border, const ExecContext& ctx) {
  visit_channel_type(src.format, [&](auto tag) {
    strip::launch_elements<typename decltype(tag)::type>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels
