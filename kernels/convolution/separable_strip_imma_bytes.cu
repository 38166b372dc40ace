// The launch of separable_strip_imma on 8-bit gray and RGB (separable_strip_imma_bytes.cuh),
// in its own file so that the build compiles it beside the RGBA8 kernels.
#include <algorithm>
#include <cstdint>

#include "common/alignment.hpp"
#include "common/launch.cuh"
#include "convolution/separable_strip_imma_bytes.cuh"
#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/step_strip_grid.cuh"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels::strip_imma {

namespace {

template <int C, int R>
void launch_bytes_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_imma_bytes_kernel";
  const auto kernel = separable_strip_imma_bytes_kernel<C, R>;
  constexpr std::size_t kShared = Tuning::byte_shared_bytes(C, R);
  const StripGrid grid = step_strip_grid(src, Tuning::byte_band(C, R), reinterpret_cast<const void*>(kernel),
                                         Tuning::kThreads, kShared, Tuning::kStrips, kName);
  using P = std::uint8_t;
  kernel<<<grid.grid, Tuning::kThreads, kShared, ctx.stream>>>(
      pitched<P, C>(src), pitched<P, C>(dst), taps_of<R, false>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<P, C>(border), make_filter2d_output<P, C>(spec),
      spec.convex, grid.strip_rows, word_aligned(src.data, src.pitch), rows_aligned(dst.data, dst.pitch, 8));
  check_launch(kName, ctx);
}

}  // namespace

void launch_bytes(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  visit_imma_radius(Tuning::compiled_radius(std::max(spec.width(), spec.height()) / 2), [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (src.format.channels == 1) return launch_bytes_radius<1, R>(src, dst, spec, border, ctx);
    if (src.format.channels == 3) return launch_bytes_radius<3, R>(src, dst, spec, border, ctx);
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip_imma: byte columns run gray and RGB, not " + src.format.name());
  });
}

}  // namespace gpufilter::kernels::strip_imma
