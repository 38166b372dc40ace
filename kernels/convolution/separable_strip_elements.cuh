#pragma once
// The separable strip kernel on images of 1 and 3 channels of any type, on element
// columns (docs/techniques/convolution.md, "Gray and RGB on element columns"). The passes
// are the strip's (separable_strip.cuh), vertical first, K rows a step, but the vertical
// pass does not care which pixel a channel value (an element) belongs to: a thread walks
// down a quad of 4 elements of the band's rows (4, 8 or 16 bytes), loads it whole and
// leaves 4 float sums in shared memory, one an element. The horizontal pass reads them a
// pixel at a time, its channels C floats apart, and leaves its run of pixels in a shared
// row of elements, which the threads then store a quad each, consecutive threads on
// consecutive quads (a run's own pixels, stored by its thread, would spread each warp
// store over as many sectors as the run has bytes). Where a quad leaves the image (the
// halo at its left and right edges), or rows are not whole quads apart (a sub-view), its
// elements are read (and written) one by one, each pixel read mapped through the border.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "convolution/separable_strip.cuh"

namespace gpufilter::kernels::strip {

// Four elements as one load: a word of bytes, two words of 16-bit values, four floats.
template <class T>
struct Quad;
template <>
struct Quad<std::uint8_t> {
  using type = unsigned;
  static __device__ __forceinline__ type of(const std::uint8_t (&e)[4]) {
    return e[0] | e[1] << 8 | e[2] << 16 | static_cast<unsigned>(e[3]) << 24;
  }
};
template <>
struct Quad<std::uint16_t> {
  using type = uint2;
  static __device__ __forceinline__ type of(const std::uint16_t (&e)[4]) {
    return {e[0] | static_cast<unsigned>(e[1]) << 16, e[2] | static_cast<unsigned>(e[3]) << 16};
  }
};
template <>
struct Quad<float> {
  using type = float4;
  static __device__ __forceinline__ type of(const float (&e)[4]) { return {e[0], e[1], e[2], e[3]}; }
};

// A quad's elements as floats: 8- and 16-bit values through the 2^23 magic number (one
// byte permute and an add each).
__device__ __forceinline__ Accum<4> quad_values(unsigned q) { return word_bytes(q); }
__device__ __forceinline__ Accum<4> quad_values(uint2 q) {
  const unsigned words[2] = {q.x, q.y};
  Accum<4> v;
#pragma unroll
  for (int j = 0; j < 4; ++j)
    v.c[j] = __uint_as_float(__byte_perm(words[j / 2], kMagicBits, j % 2 == 0 ? 0x7610u : 0x7632u)) - kMagic;
  return v;
}
__device__ __forceinline__ Accum<4> quad_values(float4 q) { return Accum<4>{{q.x, q.y, q.z, q.w}}; }

// Where a quad of a row does not lie within it, or rows are not whole quads apart (a
// sub-view), its elements are read one by one: each element's index in the row, its
// pixel mapped through the border, and which elements are the border constant's.
struct ElementGather {
  int index[4];
  unsigned constant_elements;  // bit j: element j is the constant's
};

template <int C>
__device__ __forceinline__ ElementGather element_gather(int first, int width, const BorderReads& border) {
  ElementGather g{};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int e = first + j;
    const int p = e >= 0 ? e / C : -((C - 1 - e) / C);  // the pixel, rounded down
    const bool inside = p >= 0 && p < width;
    g.index[j] = (inside ? p : border_map(p, width, border.x)) * C + (e - p * C);
    if (!inside && border.constant) g.constant_elements |= 1u << j;
  }
  return g;
}

template <class T, int C, int R>
__global__ void __launch_bounds__(Tuning::threads(R), Tuning::min_blocks(R))
    separable_strip_elements_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, StripTaps<R> taps,
                                    BorderReads border, Pixel<T, C> constant, Filter2dOutput out, bool convex,
                                    int strip_rows, bool src_quad_rows, bool dst_quad_rows) {
  using QuadT = typename Quad<T>::type;
  constexpr int K = Tuning::kRows;
  constexpr int L = Tuning::element_run(C, sizeof(T));
  constexpr int kBand = Tuning::element_band_width(C, sizeof(T), R);  // output pixels a block
  constexpr int kHalo = Tuning::element_halo(C, R);                   // elements either side
  constexpr int kQuads = Tuning::element_quads(C, sizeof(T), R);
  constexpr int kRowFloats = 4 * kQuads;  // a step's row of sums, one an element
  constexpr int kRuns = kBand / L;
  constexpr int kRowElements = kBand * C;  // a step's row of output elements
  static_assert(kRuns * L == kBand && kRuns * K == Tuning::threads(R), "a run for every thread");
  static_assert(kQuads <= Tuning::threads(R), "one vertical pass of the threads covers the band and its halo");
  static_assert(kRowElements % 4 == 0, "bands start on whole quads");
  constexpr int kStepRows = Tuning::step_rows(R);
  // Shared memory (SeparableStripTuning::element_shared_bytes): the step's sums
  // [K][kRowFloats], its output elements [K][kRowElements], then the two row tables.
  extern __shared__ __align__(16) unsigned char shared[];
  float* const sums = reinterpret_cast<float*>(shared);
  T* const staged = reinterpret_cast<T*>(shared + K * kRowFloats * sizeof(float));
  long long* const row_offsets = reinterpret_cast<long long*>(staged + K * kRowElements);
  const RowTables tables{row_offsets, reinterpret_cast<bool*>(row_offsets + 2 * kStepRows)};
  static_assert(kRowElements * sizeof(T) % 8 == 0, "the row table is aligned");

  const int tid = static_cast<int>(threadIdx.x);
  const int band_x = static_cast<int>(blockIdx.x) * kBand;
  const bool has_quad = tid < kQuads;
  const int first = band_x * C - kHalo + 4 * tid;  // the quad's first element in the row
  const bool whole = src_quad_rows && first >= 0 && first + 4 <= src.width * C;
  // The constant's elements in the quad's channel order, as a quad: rows of the constant
  // border pick it before the conversion, as the image's quads go through it.
  T constant_elements[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) constant_elements[j] = constant.c[((first + j) % C + C) % C];
  const QuadT constant_quad = Quad<T>::of(constant_elements);
  const int row_of_step = tid / kRuns;
  const int run_x = band_x + (tid % kRuns) * L;
  // The run's first tap, C floats a pixel from the row's first element.
  const float* const run_sums = sums + row_of_step * kRowFloats + kHalo + ((tid % kRuns) * L - R) * C;
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f;

  const auto step = [&](int y0, int y_end, const long long* offsets, const bool* constant_rows, auto write_next) {
    if (has_quad) {
      // The column's K vertical sums, one an element: load(row) gives its quad of a row.
      Accum<4> acc[K];
      const auto column_sums = [&](auto load) {
        tap_run<K, R>(acc, taps.y, [&](int i) {
          return quad_values(constant_rows[i] ? constant_quad : load(src.data + offsets[i]));
        });
      };
      if (whole) {
        column_sums([&](const unsigned char* row) { return *reinterpret_cast<const QuadT*>(row + first * sizeof(T)); });
      } else {
        const ElementGather gather = element_gather<C>(first, src.width, border);
        column_sums([&](const unsigned char* row) {
          T e[4];
#pragma unroll
          for (int j = 0; j < 4; ++j)
            e[j] = gather.constant_elements & (1u << j) ? constant_elements[j]
                                                        : reinterpret_cast<const T*>(row)[gather.index[j]];
          return Quad<T>::of(e);
        });
      }
#pragma unroll
      for (int k = 0; k < K; ++k) store_shared(reinterpret_cast<Accum<4>*>(sums + k * kRowFloats) + tid, acc[k]);
    }
    write_next();
    __syncthreads();
    const int y = y0 + row_of_step;
    if (y < y_end) {
      Accum<C> o[L];
      tap_run<L, R>(o, taps.x, [&](int i) {
        Accum<C> v;
#pragma unroll
        for (int ch = 0; ch < C; ++ch) v.c[ch] = run_sums[i * C + ch];
        return v;
      });
      // The run's pixels into the step's row of elements.
      T* const run_elements = staged + row_of_step * kRowElements + (tid % kRuns) * L * C;
#pragma unroll
      for (int q = 0; q < L; ++q) {
        const int x = run_x + q;
        if (x >= dst.width) break;
        Pixel<T, C> px;
        if (plain) {
          px = to_pixel<T, C, /*kClamp=*/false>(o[q]);
        } else {
          const Accum<C> pixel_sums[1] = {o[q]};
          px = filter2d_pixel<T, C, 1>(pixel_sums, input_value(src.at(x, y), out), out);
        }
#pragma unroll
        for (int ch = 0; ch < C; ++ch) run_elements[q * C + ch] = px.c[ch];
      }
    }
    // After this barrier every run has read its sums, which the next step's vertical pass
    // writes over, and the next step writes the staged rows after its first barrier.
    __syncthreads();
    // The step's rows to the image a quad a thread, consecutive threads on consecutive
    // quads; elements one by one at the row's end and where rows are not whole quads apart.
    if (y < y_end) {
      const T* const row_elements = staged + row_of_step * kRowElements;
      T* const out_row = reinterpret_cast<T*>(dst.data + static_cast<std::size_t>(y) * dst.pitch) + band_x * C;
      const int elements = min(kRowElements, (dst.width - band_x) * C);
      for (int w = tid % kRuns; w * 4 < elements; w += kRuns) {
        if (dst_quad_rows && w * 4 + 4 <= elements) {
          *reinterpret_cast<QuadT*>(out_row + w * 4) = *reinterpret_cast<const QuadT*>(row_elements + w * 4);
        } else {
          for (int e = w * 4; e < min(elements, w * 4 + 4); ++e) out_row[e] = row_elements[e];
        }
      }
    }
  };
  static_assert(Tuning::tables_ahead(C), "element columns write their row tables ahead");
  for_each_step_tables_ahead<R, Tuning::threads(R)>(src.height, src.pitch, strip_rows, border, tables, step);
}

template <class T, int C, int R>
void launch_elements_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                            const Border& border, const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_elements_kernel";
  const auto kernel = separable_strip_elements_kernel<T, C, R>;
  constexpr std::size_t kShared = Tuning::element_shared_bytes(C, R, sizeof(T));
  // Whole quads: every row starts on a boundary of 4 elements (the view's start and pitch).
  const auto quad_rows = [](const ImageView& view) { return rows_aligned(view.data, view.pitch, 4 * sizeof(T)); };
  const StripGrid grid = step_strip_grid(src, Tuning::element_band_width(C, sizeof(T), R),
                                         reinterpret_cast<const void*>(kernel), Tuning::threads(R), kShared,
                                         Tuning::kElementStrips, kName);
  kernel<<<grid.grid, Tuning::threads(R), kShared, ctx.stream>>>(
      pitched<T, C>(src), pitched<T, C>(dst), taps_of<R>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<T, C>(border),
      make_filter2d_output<T, C>(spec), spec.convex, grid.strip_rows, quad_rows(src), quad_rows(dst));
  check_launch(kName, ctx);
}

// Every compiled radius of 1- and 3-channel images of type T.
template <class T>
void launch_elements(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                     const ExecContext& ctx) {
  const int radius = std::max(spec.width(), spec.height()) / 2;
  visit_compiled_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    if (src.format.channels == 1) return launch_elements_radius<T, 1, R>(src, dst, spec, border, ctx);
    if (src.format.channels == 3) return launch_elements_radius<T, 3, R>(src, dst, spec, border, ctx);
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip: element columns run gray and RGB, not " + src.format.name());
  });
}

}  // namespace gpufilter::kernels::strip
