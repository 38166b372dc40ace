#pragma once
// Launchers for the convolution family (seed 004). src and dst are validated device
// views of equal size and format that do not overlap; `weights` is the normalised
// 1-D Gaussian (2*radius+1 taps) and the blur is its outer product with itself.
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One thread per pixel; the 2-D mask in global memory; the border mode decided at
// every tap. The baseline the bench measures the others against.
void launch_gaussian_naive(const ImageView& src, const ImageView& dst, const std::vector<float>& weights,
                           const Border& border, const ExecContext& ctx);

// Whether the tiled kernel's tile, halo and row buffer fit in the shared memory one
// block may use on the current device (see common/device_limits.hpp).
bool gaussian_tiled_fits(PixelFormat format, int radius);

// The 1-D mask in __constant__ memory; each block loads its tile plus a halo of
// `radius` pixels into shared memory once, then filters rows and columns there.
// Throws Error(UnsupportedFormat) where gaussian_tiled_fits() is false.
void launch_gaussian_tiled(const ImageView& src, const ImageView& dst, const std::vector<float>& weights,
                           const Border& border, const ExecContext& ctx);

}  // namespace gpufilter::kernels
