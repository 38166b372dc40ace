// The separable strip on byte columns (separable_strip_bytes.cuh): 8-bit gray and RGB,
// one kernel for each compiled radius.
#include <string>

#include "convolution/separable_strip_bytes.cuh"

namespace gpufilter::kernels::strip {

void launch_bytes(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  const int radius = std::max(spec.width(), spec.height()) / 2;
  visit_compiled_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (src.format.channels == 1) return launch_bytes_radius<1, R>(src, dst, spec, border, ctx);
    if (src.format.channels == 3) return launch_bytes_radius<3, R>(src, dst, spec, border, ctx);
    throw Error(ErrorCode::UnsupportedFormat, "separable_strip: byte columns run gray and RGB, not " +
                                                  src.format.name());
  });
}

}  // namespace gpufilter::kernels::strip
