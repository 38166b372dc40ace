#pragma once
// The column walk both stacked-box kernels share (box_stack.cu, box_stack_fused.cu): one
// thread walks down one column of a segment of rows, keeping the stack's running sums
// (BoxStackSums) in registers, and each step returns the stack's value at that row.
//
// A segment starts 2R rows early (R: the stack's reach) with its sums at zero and every
// row before its first input row (begin - R) read as zero, so from `begin` on the sums
// are exact: segments are independent and carry no drift from one to the next.
#include "common/border.cuh"
#include "common/pixel.cuh"
#include "convolution/box_stack_plan.hpp"
#include "convolution/filter2d_output.cuh"

namespace gpufilter::kernels {

template <int C>
struct BoxStackColumnWalk {
  BoxStackSums<float> sums[C];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int c = 0; c < C; ++c) sums[c].clear();
  }

  // Advances the sums to row y of `rows` and returns the stack's value there (meaningful
  // once y >= begin). read(q) gives the (premultiplied) value of row q of the column for
  // 0 <= q < rows; rows outside are mapped by policy B, or are `constant` under the
  // constant border; rows before `first_input` read as zero. The branches depend on y
  // only: a block walking its rows in step never diverges on them.
  template <class B, class Read>
  __device__ __forceinline__ Accum<C> advance(int y, int rows, int first_input, const BoxStackWalkArgs& args,
                                              const Accum<C>& constant, Read&& read) {
    if (y + args.lowest_offset >= max(first_input, 0) && y + args.highest_offset < rows) {
      // Every read inside the image and the segment: no checks (most steps).
      float x[C][kBoxStackReads];
#pragma unroll
      for (int i = 0; i < kBoxStackReads; ++i) {
        const Accum<C> v = read(y + args.offsets[i]);
#pragma unroll
        for (int c = 0; c < C; ++c) x[c][i] = v.c[c];
      }
      return step(x, args.scale);
    }
    float x[C][kBoxStackReads];
#pragma unroll
    for (int i = 0; i < kBoxStackReads; ++i) {
      const int q = y + args.offsets[i];
      Accum<C> v;
      if (q < first_input) {
        v = zero_accum<C>();
      } else if (q < rows && q >= 0) {
        v = read(q);
      } else if constexpr (B::kConstant) {
        v = constant;
      } else {
        v = read(B::map(q, rows));
      }
#pragma unroll
      for (int c = 0; c < C; ++c) x[c][i] = v.c[c];
    }
    return step(x, args.scale);
  }

 private:
  __device__ __forceinline__ Accum<C> step(float (&x)[C][kBoxStackReads], float scale) {
    Accum<C> result;
#pragma unroll
    for (int c = 0; c < C; ++c) result.c[c] = sums[c].step(x[c]) * scale;
    return result;
  }
};

// The constant border's pixel as the walks read it (premultiplied like every input),
// times `scale` (a scratch image's units).
template <class T, int C>
Accum<C> box_stack_constant(const Border& border, const Filter2dOutput& out, double scale) {
  const Pixel<T, C> pixel = constant_pixel<T, C>(border);
  Accum<C> constant{};
  for (int c = 0; c < C; ++c) {
    double v = static_cast<double>(pixel.c[c]);
    if constexpr (C == 4)
      if (out.premultiply && c < 3) v *= static_cast<double>(pixel.c[3]) / out.max_value;
    constant.c[c] = static_cast<float>(v * scale);
  }
  return constant;
}

}  // namespace gpufilter::kernels
