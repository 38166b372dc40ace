// The lab's bilinear rotation through a texture object (seed 001: the read-only/texture
// path; slower than the library's tiled kernel, docs/lab.md, "Which variants stay"): the
// tiled kernel's layout and arithmetic (rotate_tile.cuh) with its four taps read by
// point-sampled tex2D fetches over the source view as pitched 2-D memory. The texture unit
// does the addressing, answers 0 outside the image (border mode), so the taps need no
// clamping, and returns 8- and 16-bit channels as normalised floats, so they need no
// conversion; the weights stay the kernel's own float weights, because the hardware's
// linear filter keeps only 8 bits of each fraction: a difference of 255 between neighbours
// would be off by up to half a level before rounding, and random test images (and sharp
// edges) would leave the op's tolerance. Pitched textures take 1-, 2- and 4-channel texels
// only and want the view's start and pitch aligned (textureAlignment,
// texturePitchAlignment): 3-channel formats and other views are declined (the caller runs
// the tiled kernel).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "geometry/rotate_tile.cuh"
#include "lab/geometry/geometry_lab_launch.hpp"
#include "lab/geometry/texture_cache.hpp"

namespace gpufilter::lab {
namespace {

using namespace gpufilter::kernels;  // the tiled kernel's layout and arithmetic (rotate_tile.cuh)

// The texel as stored (the resource's channel format) and as read: 8- and 16-bit
// channels come back normalised to [0, 1] floats (the texture unit converts them for
// free), floats as they are.
template <class T, int C>
struct Texel;
template <>
struct Texel<std::uint8_t, 1> {
  using stored = unsigned char;
  using read = float;
};
template <>
struct Texel<std::uint8_t, 4> {
  using stored = uchar4;
  using read = float4;
};
template <>
struct Texel<std::uint16_t, 1> {
  using stored = unsigned short;
  using read = float;
};
template <>
struct Texel<std::uint16_t, 4> {
  using stored = ushort4;
  using read = float4;
};
template <>
struct Texel<float, 1> {
  using stored = float;
  using read = float;
};
template <>
struct Texel<float, 4> {
  using stored = float4;
  using read = float4;
};

template <class T, int C>
__device__ __forceinline__ Accum<C> fetch(cudaTextureObject_t texture, float u, float v) {
  const auto t = tex2D<typename Texel<T, C>::read>(texture, u, v);
  Accum<C> a;
  if constexpr (C == 1) {
    a.c[0] = t;
  } else {
    a.c[0] = t.x;
    a.c[1] = t.y;
    a.c[2] = t.z;
    a.c[3] = t.w;
  }
  return a;
}

// What a normalised texel of T is multiplied by to be in T's units again.
template <class T>
constexpr float texel_scale() {
  return std::is_same_v<T, std::uint8_t> ? 255.0f : std::is_same_v<T, std::uint16_t> ? 65535.0f : 1.0f;
}

template <class T, int C>
__global__ void __launch_bounds__(32 * RotateTile::kWarpsX)
    rotate_bilinear_texture_kernel(cudaTextureObject_t texture, int src_width, int src_height, PitchedView<T, C> dst,
                                   RotateMap map, Accum<C> fill) {
  const RotateStart start = rotate_start<1>(map);
  if (start.x >= dst.width) return;
#pragma unroll
  for (int s = 0; s < RotateTile::kSteps; ++s) {
    const int y = start.y + s * RotateTile::kLanesY;
    if (y >= dst.height) break;
    const BilinearTaps t =
        bilinear_taps(step_position(start.fixed_x, map.row_step_x, map.down_step_x, 0, s),
                      step_position(start.fixed_y, map.row_step_y, map.down_step_y, 0, s), src_width, src_height);
    // Texel (i, j) covers [i, i + 1) x [j, j + 1): its centre is an exact float for any
    // index a texture can have; indices far outside land outside and read 0.
    const float u = static_cast<float>(t.ix) + 0.5f, v = static_cast<float>(t.iy) + 0.5f;
    const Accum<C> p00 = fetch<T, C>(texture, u, v), p01 = fetch<T, C>(texture, u + 1.0f, v);
    const Accum<C> p10 = fetch<T, C>(texture, u, v + 1.0f), p11 = fetch<T, C>(texture, u + 1.0f, v + 1.0f);
    // fill is normalised too: the blend is in [0, 1] units, scaled back once (for 8-bit
    // values the round trip is a few 1e-5 of a level off, for 16-bit below 0.01).
    Accum<C> sum = blend(t, p00, p01, p10, p11, fill);
    if constexpr (texel_scale<T>() != 1.0f) {
#pragma unroll
      for (int c = 0; c < C; ++c) sum.c[c] *= texel_scale<T>();
    }
    dst.at(start.x, y) = to_pixel<T, C, false>(sum);  // convex: in range
  }
}

int device_attribute(cudaDeviceAttr attribute) {
  int device = 0, value = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

// Whether the source view can be a pitched 2-D texture as it is.
bool texture_fits(const ImageView& src) {
  if (src.format.channels == 3) return false;
  const auto address = reinterpret_cast<std::uintptr_t>(src.data);
  const auto alignment = static_cast<std::uintptr_t>(device_attribute(cudaDevAttrTextureAlignment));
  const auto pitch_alignment = static_cast<std::size_t>(device_attribute(cudaDevAttrTexturePitchAlignment));
  return alignment > 0 && pitch_alignment > 0 && address % alignment == 0 && src.pitch % pitch_alignment == 0 &&
         src.width <= device_attribute(cudaDevAttrMaxTexture2DLinearWidth) &&
         src.height <= device_attribute(cudaDevAttrMaxTexture2DLinearHeight) &&
         src.pitch <= static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DLinearPitch));
}

}  // namespace

bool launch_rotate_bilinear_texture(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                    const double fill[4], const ExecContext& ctx) {
  if (blocks_for(dst.height, RotateTile::kRows) > 65535 || !texture_fits(src)) return false;
  const RotateMap map = rotate_map(inverse_map);
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    if constexpr (C != 3) {
      Accum<C> fill_accum;
      for (int c = 0; c < C; ++c) fill_accum.c[c] = static_cast<float>(fill[c] / texel_scale<T>());
      constexpr int kBlockWidth = RotateTile::kWarpsX * RotateTile::kLanesX;
      const dim3 grid(grid_x(blocks_for(dst.width, kBlockWidth), "rotate_bilinear_texture_kernel"),
                      static_cast<unsigned>(blocks_for(dst.height, RotateTile::kRows)));
      cudaResourceDesc resource{};
      resource.resType = cudaResourceTypePitch2D;
      resource.res.pitch2D.devPtr = const_cast<void*>(static_cast<const void*>(src.data));
      resource.res.pitch2D.desc = cudaCreateChannelDesc<typename Texel<T, C>::stored>();
      resource.res.pitch2D.width = static_cast<std::size_t>(src.width);
      resource.res.pitch2D.height = static_cast<std::size_t>(src.height);
      resource.res.pitch2D.pitchInBytes = src.pitch;
      constexpr bool kNormalised = !std::is_same_v<T, float>;
      with_texture(resource, kNormalised, ctx.stream, [&](cudaTextureObject_t texture) {
        rotate_bilinear_texture_kernel<T, C><<<grid, dim3(32, RotateTile::kWarpsX), 0, ctx.stream>>>(
            texture, src.width, src.height, pitched<T, C>(dst), map, fill_accum);
      });
    }
  });
  check_launch("rotate_bilinear_texture_kernel", ctx);
  return true;
}

}  // namespace gpufilter::lab
