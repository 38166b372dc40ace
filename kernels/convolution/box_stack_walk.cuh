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
  // once y >= begin). The column's pixels (of type P) start at `column_base`, one row
  // every `pitch` bytes; convert(pixel) gives the value the sums take (premultiplied,
  // scaled). Rows outside the image are mapped by policy B, or are `constant` under the
  // constant border; rows before `first_input` read as `zero`. The branches depend on y
  // only: a block walking its rows in step never diverges on them.
  //
  // The sums only ever take differences of two reads, so convert() may add one offset
  // to every value (zero and constant carrying it too): u8 bytes become floats as
  // 2^23 + byte with one instruction, and the offset cancels exactly.
  template <class B, class P, class Convert>
  __device__ __forceinline__ Accum<C> advance(int y, int rows, int first_input, const BoxStackWalkArgs& args,
                                              const Accum<C>& zero, const Accum<C>& constant,
                                              const unsigned char* column_base, std::size_t pitch,
                                              Convert&& convert) {
    if (inside(y, 1, rows, first_input, args)) {
      // Every read inside the image and the segment (most steps): no checks, and each
      // read's address is the row's plus a byte offset the kernel argument holds.
      Loaded<P, 1> loaded;
      load(loaded, y, args, column_base, pitch);
      return advance_loaded(loaded.pixel[0], args, convert);
    }
    float x[C][kBoxStackReads];
#pragma unroll
    for (int i = 0; i < kBoxStackReads; ++i) {
      const int q = y + args.offsets[i];
      Accum<C> v;
      if (q < first_input) {
        v = zero;
      } else if (q < rows && q >= 0) {
        v = convert(*reinterpret_cast<const P*>(column_base + static_cast<long long>(q) * static_cast<long long>(pitch)));
      } else if constexpr (B::kConstant) {
        v = constant;
      } else {
        const int mapped = B::map(q, rows);
        v = convert(
            *reinterpret_cast<const P*>(column_base + static_cast<long long>(mapped) * static_cast<long long>(pitch)));
      }
#pragma unroll
      for (int c = 0; c < C; ++c) x[c][i] = v.c[c];
    }
    return step(x, args.scale);
  }

  // Whether rows y .. y + steps - 1 all step with every read inside the image and the
  // segment (advance's unchecked path).
  __device__ __forceinline__ static bool inside(int y, int steps, int rows, int first_input,
                                                const BoxStackWalkArgs& args) {
    return y + args.lowest_offset >= max(first_input, 0) && y + steps - 1 + args.highest_offset < rows;
  }

  // The reads of kSteps rows from y where inside(y, kSteps, ...): issued together, ahead
  // of the arithmetic that takes them (advance_loaded), so their latency is paid once.
  template <class P, int kSteps>
  struct Loaded {
    P pixel[kSteps][kBoxStackReads];
  };
  template <class P, int kSteps>
  __device__ __forceinline__ static void load(Loaded<P, kSteps>& loaded, int y, const BoxStackWalkArgs& args,
                                              const unsigned char* column_base, std::size_t pitch) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const unsigned char* row = column_base + static_cast<long long>(y + s) * static_cast<long long>(pitch);
#pragma unroll
      for (int i = 0; i < kBoxStackReads; ++i) loaded.pixel[s][i] = *reinterpret_cast<const P*>(row + args.offset_bytes[i]);
    }
  }
  // advance() for a row whose reads load() took.
  template <class P, class Convert>
  __device__ __forceinline__ Accum<C> advance_loaded(const P (&pixels)[kBoxStackReads], const BoxStackWalkArgs& args,
                                                     Convert&& convert) {
    float x[C][kBoxStackReads];
#pragma unroll
    for (int i = 0; i < kBoxStackReads; ++i) {
      const Accum<C> v = convert(pixels[i]);
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
