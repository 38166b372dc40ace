#pragma once
// Launchers for the point-operation family (seed 003: scalar vs 16-byte vectorized
// access). One generic kernel per variant, templated on a per-sample functor.
#include <cstddef>

#include "gpufilter/pixel_format.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// What the functor computes for a sample x of a format with range [0, M]; the
// library fills the fields from the op's parameters.
enum class PointMath {
  Invert,  // y = M - x
  Add,     // y = sat(x + offset)              (offset a whole number for integer types)
  Linear,  // y = sat(round((clamp(x, lo, hi) - from) * scale + to))
  Gamma,   // y = sat(round(M * (max(x, 0) / M)^exponent))
  Table,   // u8 only: y = table[x]
};

struct PointFunction {
  PointMath math = PointMath::Invert;
  float offset = 0.0f;
  float lo = 0.0f, hi = 0.0f, from = 0.0f, scale = 1.0f, to = 0.0f;
  float exponent = 1.0f;
  unsigned char table[256] = {};
};

// Up to four planes of one shape. An interleaved image is one plane of `channels`
// channels; a planar image is `channels` planes of one channel each. mask[p] says which
// channels of plane p change (bit c for channel c); the others are copied.
struct PointPlanes {
  const void* src[4] = {};
  void* dst[4] = {};
  unsigned mask[4] = {};
  int count = 0;            // planes
  int width = 0;            // pixels of a plane's row
  int height = 0;
  std::size_t src_pitch = 0, dst_pitch = 0;
  PixelFormat format{};     // of one plane (1 channel for planar images)
};

void launch_point_scalar(const PointPlanes& planes, const PointFunction& function, const ExecContext& ctx);
// Falls back to the scalar kernel where src and dst rows do not share their offset
// mod 16 (no 16-byte access can serve both).
void launch_point_vectorized(const PointPlanes& planes, const PointFunction& function, const ExecContext& ctx);

}  // namespace gpufilter::kernels
