#pragma once
// What the four filter2d kernels share: the per-pixel output rule (FilterSpec's
// output and alpha mode, evaluated once per pixel from a small POD argument, so the
// rule adds no template instantiations), the premultiplied read of an input value,
// and the host-side checks and argument packing.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/approx_sqrt.cuh"
#include "common/border.cuh"
#include "common/border_runtime.cuh"
#include "common/pixel.cuh"
#include "gpufilter/error.hpp"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::kernels {

// The output rule as a kernel argument; thresholds and limits already in channel units.
struct Filter2dOutput {
  FilterOutput rule;  // Linear or Unsharp with one mask; Magnitude with two
  bool premultiply;   // C == 4 and AlphaMode::Premultiply
  bool keep_alpha;    // C == 4 and AlphaMode::Keep
  float bias;
  float amount;
  float threshold;  // spec.threshold * M
  float max_value;  // M
  float inv_max;    // 1 / M
  float min_alpha;  // kMinUnpremultiplyAlpha * M
};

template <class T>
constexpr float channel_max() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return 255.0f;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return 65535.0f;
  else return 1.0f;
}

// An input value as the masks see it: converted to float and, for premultiplied RGBA,
// its colours weighted by its own alpha. The branch is uniform over the whole grid.
template <int C>
__device__ __forceinline__ Accum<C> premultiplied(Accum<C> v, const Filter2dOutput& out) {
  if constexpr (C == 4) {
    if (out.premultiply) {
      const float s = v.c[3] * out.inv_max;
#pragma unroll
      for (int i = 0; i < 3; ++i) v.c[i] *= s;
    }
  }
  return v;
}

template <class T, int C>
__device__ __forceinline__ Accum<C> input_value(const Pixel<T, C>& p, const Filter2dOutput& out) {
  return premultiplied(to_accum(p), out);
}

// One input pixel at `address` as the masks see it (input_value), or the constant's
// where `constant_row`; for the kernels that stream a column down the image.
// RGBA8 moves as one 32-bit word: read as a vector of four bytes it is put together
// again byte by byte.
template <class T, int C>
__device__ __forceinline__ Accum<C> load_input(const unsigned char* address, bool constant_row,
                                               const Pixel<T, C>& constant, const Filter2dOutput& out) {
  if constexpr (std::is_same_v<T, std::uint8_t> && C == 4) {
    unsigned word = *reinterpret_cast<const unsigned*>(address);
    if (constant_row) word = reinterpret_cast<const unsigned&>(constant);
    return premultiplied(word_bytes(word), out);
  } else {
    Pixel<T, C> p = *reinterpret_cast<const Pixel<T, C>*>(address);
    if (constant_row) p = constant;
    return input_value(p, out);
  }
}

// Shared-memory floats: 4-channel values move as one 16-byte access. The pointers are
// generic, so decimated.cu writes its low-res float images in global memory with them too.
template <int C>
__device__ __forceinline__ Accum<C> load_shared(const Accum<C>* p) {
  if constexpr (C == 4) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    return Accum<4>{{v.x, v.y, v.z, v.w}};
  } else {
    return *p;
  }
}
template <int C>
__device__ __forceinline__ void store_shared(Accum<C>* p, const Accum<C>& v) {
  if constexpr (C == 4) *reinterpret_cast<float4*>(p) = make_float4(v.c[0], v.c[1], v.c[2], v.c[3]);
  else *p = v;
}

// Premultiplied RGBA's output: the alpha within the range, the colours scaled by M / alpha
// (one division a pixel), or 0 where the alpha is at most min_alpha. The division is the
// fast one (within 2 ulp, no range test or slow path): the alpha lies far inside its
// range, and 2 ulp of a scale move an output's rounding only within about 1e-4 of a .5.
__device__ __forceinline__ void unpremultiply(Accum<4>& o, const Filter2dOutput& out) {
  o.c[3] = fminf(fmaxf(o.c[3], 0.0f), out.max_value);
  const float scale = o.c[3] > out.min_alpha ? __fdividef(out.max_value, o.c[3]) : 0.0f;
#pragma unroll
  for (int c = 0; c < 3; ++c) o.c[c] *= scale;
}

// The output pixel from the K masks' sums and the (premultiplied) centre value.
template <class T, int C, int K>
__device__ __forceinline__ Pixel<T, C> filter2d_pixel(const Accum<C> (&sums)[K], const Accum<C>& centre,
                                                      const Filter2dOutput& out) {
  Accum<C> o;
  if constexpr (K == 2) {  // the host allows two masks only for Magnitude
#pragma unroll
    for (int c = 0; c < C; ++c) o.c[c] = sqrt_approx(fmaf(sums[0].c[c], sums[0].c[c], sums[1].c[c] * sums[1].c[c]));
  } else if (out.rule == FilterOutput::Unsharp) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const float d = centre.c[c] - sums[0].c[c];
      o.c[c] = fabsf(d) > out.threshold ? fmaf(out.amount, d, centre.c[c]) : centre.c[c];
    }
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c) o.c[c] = sums[0].c[c] + out.bias;
  }
  if constexpr (C == 4) {
    if (out.premultiply) {
      unpremultiply(o, out);
    } else if (out.keep_alpha) {
      o.c[3] = centre.c[3];  // never premultiplied: the input alpha, exactly
    }
  }
  // Always clamped: the two instructions per channel are not worth a second rule.
  return to_pixel<T, C, /*kClamp=*/true>(o);
}

// The output of a convex Linear mask without bias: the sums are within the channel's
// range (premultiplied colours within their filtered alpha's), so only premultiplied
// alpha divides, once a pixel, and nothing clamps.
template <class T, int C>
__device__ __forceinline__ Pixel<T, C> plain_pixel(Accum<C> o, const Filter2dOutput& out) {
  if constexpr (C == 4) {
    if (out.premultiply) {
      unpremultiply(o, out);
      // Integer colours capped at M, which rounding could pass.
      if constexpr (!std::is_same_v<T, float>) {
#pragma unroll
        for (int c = 0; c < 3; ++c) o.c[c] = fminf(o.c[c], out.max_value);
      }
    }
  }
  return to_pixel<T, C, /*kClamp=*/false>(o);
}

// ---- host side ----

// Refuses mask counts the kernels have no rule for; returns K.
inline int filter2d_mask_count(const FilterSpec& spec, const char* variant) {
  const int k = static_cast<int>(spec.masks.size());
  const bool ok = spec.output == FilterOutput::Magnitude ? k == 2 : k == 1;
  if (!ok)
    throw Error(ErrorCode::InvalidArgument, std::string(variant) + ": " + std::to_string(k) +
                                                " masks given; Magnitude takes two, the other outputs one");
  for (const Mask& m : spec.masks)
    if (m.width <= 0 || m.height <= 0 || m.width % 2 == 0 || m.height % 2 == 0 || m.width != spec.width() ||
        m.height != spec.height() || m.weights.size() != static_cast<std::size_t>(m.width) * m.height)
      throw Error(ErrorCode::InvalidArgument, std::string(variant) + ": masks must be odd-sized, all of one size");
  return k;
}

// The masks one after the other: mask k's tap (i, j) at k*w*h + j*w + i.
inline std::vector<float> filter2d_weights(const FilterSpec& spec) {
  std::vector<float> weights;
  for (const Mask& m : spec.masks) weights.insert(weights.end(), m.weights.begin(), m.weights.end());
  return weights;
}

template <class T, int C>
Filter2dOutput make_filter2d_output(const FilterSpec& spec) {
  const float max_value = channel_max<T>();
  Filter2dOutput out{};
  out.rule = spec.output;
  out.premultiply = C == 4 && spec.alpha == AlphaMode::Premultiply;
  out.keep_alpha = C == 4 && spec.alpha == AlphaMode::Keep;
  out.bias = static_cast<float>(spec.bias * max_value);  // a fraction of the range
  out.amount = static_cast<float>(spec.amount);
  out.threshold = static_cast<float>(spec.threshold * max_value);
  out.max_value = max_value;
  out.inv_max = 1.0f / max_value;
  out.min_alpha = static_cast<float>(kMinUnpremultiplyAlpha * max_value);
  return out;
}

// Calls f(std::integral_constant<int, K>) for K = 1 or 2.
template <class F>
void visit_mask_count(int k, F&& f) {
  if (k == 2) f(std::integral_constant<int, 2>{});
  else f(std::integral_constant<int, 1>{});
}

}  // namespace gpufilter::kernels
