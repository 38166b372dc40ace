#pragma once
// The operations. Every op has the shape op(src, dst, params, [border], variant, ctx):
// src and dst are device views of equal size and format, dst is written, src is not;
// the work is enqueued on ctx.stream and the call returns without waiting for it.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// ---- copy ---------------------------------------------------------------------
enum class CopyVariant {
  Scalar,      // one channel element per thread
  Vectorized,  // 16-byte loads and stores where src and dst rows allow them
};
void copy(const ImageView& src, const ImageView& dst, CopyVariant variant = CopyVariant::Vectorized,
          const ExecContext& ctx = {});
// "scalar" or "vectorized"; throws Error(InvalidArgument) naming the choices otherwise.
CopyVariant copy_variant_from_name(const std::string& name);

// ---- Gaussian blur ------------------------------------------------------------
struct GaussianParams {
  double sigma = 2.0;
  int radius = 0;  // taps each side of the centre, 0..kMaxRadius; 0 means ceil(3 * sigma)

  static constexpr double kMinSigma = 0.1;
  static constexpr double kMaxSigma = 10.0;
  static constexpr int kMaxRadius = 32;  // the mask has at most 2*32+1 taps

  int effective_radius() const;
};

enum class BlurVariant {
  Naive,  // 2-D mask in global memory, a border branch at every tap
  Tiled,  // 1-D masks in __constant__ memory, shared-memory tile with halo, two passes;
          // where the tile and halo exceed the GPU's shared memory per block, runs Naive
};
// "naive" or "tiled"; throws Error(InvalidArgument) naming the choices otherwise.
BlurVariant blur_variant_from_name(const std::string& name);

// The normalised 1-D Gaussian weights (2*radius+1 of them, summing to 1).
// Throws Error(InvalidArgument) on a sigma or radius out of range.
std::vector<float> gaussian_weights(const GaussianParams& params);

void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params,
                   const Border& border = {}, BlurVariant variant = BlurVariant::Tiled,
                   const ExecContext& ctx = {});

}  // namespace gpufilter
