// The vertical-first 8-bit separable filter (docs/techniques/convolution.md, "8-bit
// filters: separable_packed"): the integer mask of separable_fixed, one 32-bit
// multiply-add per tap pair and channel sample, no shared memory, no barrier.
// Each thread owns 4 gray pixels (a word), 2 RGBA (two words) or 2 RGB (6 bytes in
// the two words that hold them) of a row and walks down a strip of rows:
//   1. each row it reaches is loaded rows ahead (one word load per word) and its
//      bytes taken out once into the vertical window, 2R+1 rows of one register per
//      sample (the loop is unrolled 2R+1 times: the window rotates by renaming);
//   2. the vertical sums of the thread's own samples (taps at +-d summed before one
//      multiply: the factors are symmetric);
//   3. the horizontal pass over the vertical sums, the neighbours' sums taken from the
//      adjacent lanes by warp shuffles. A warp's edge lanes (H each side) compute sums
//      for their neighbours but store nothing, so warps overlap by 2H lanes.
// Against horizontal-first (separable_fixed) no halo word is loaded and no halo byte is
// taken out: each byte is loaded and unpacked once. Square boxes run both passes on
// two samples a register (16-bit lanes: plain sums of bytes cannot carry into the next
// lane). An RGBA thread's two words move in one 8-byte access, and rows a little
// further down are prefetched into L2 (SeparablePackedTuning::kL2RowsAhead). Up to
// kFastGroupsMaxRadius, a warp inside the image walks groups of 2R+1 rows that test
// nothing; the rows near the borders go one at a time through the tested step.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/prefetch.cuh"
#include "convolution/fixed_point_rows.cuh"
#include "convolution/fixed_radius.hpp"
#include "convolution/fixed_strip_plan.hpp"
#include "convolution/separable_packed_launch.hpp"
#include "convolution/separable_packed_tuning.hpp"
#include "convolution/separable_packed_weights.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = SeparablePackedTuning;
static_assert(Tuning::kMaxRadius <= kMaxFixedPointRadius, "the masks come from fixed_point_mask()");

// How the two passes combine their taps:
//   Shifted: weighted taps, out = acc >> 24 (out_mul 256: Gaussians), taken as byte 3;
//   Divided: weighted taps, out = umulhi(acc, out_mul) (boxes that are not square);
//   BoxSum:  square boxes, all taps 1: plain sums, out = umulhi(acc, out_mul);
//   PremulShifted, PremulBox: RGBA with premultiplied alpha, weighted masks and boxes:
//            colours multiplied by their alpha as they enter the window (16-bit values)
//            and divided by the filtered alpha at the store; alpha as Shifted and as
//            a box's division (separable_packed_premultiplied_output has the steps).
enum class Arith { Shifted, Divided, BoxSum, PremulShifted, PremulBox };

template <Arith A>
constexpr bool kPremultiplied = A == Arith::PremulShifted || A == Arith::PremulBox;
// Plain sums of all-ones taps (no multiply, no rounding in the vertical pass): square
// boxes only, whose window is the mask (an oblong box's window has zero taps).
template <Arith A>
constexpr bool kPlainSums = A == Arith::BoxSum;
// The byte of an output value that holds the result: weighted masks shift by 24.
template <Arith A>
constexpr int kResultByte = A == Arith::Shifted || A == Arith::PremulShifted ? 3 : 0;

// The symmetric integer mask as a kernel argument: q[d] is the weight at distance d.
// The vertical pass's rounding is known from the arithmetic (RoundingOf), so only the
// boxes' division travels here.
template <int R>
struct PackedTaps {
  unsigned qv[R + 1];
  unsigned qh[R + 1];
  unsigned v_round;
  unsigned out_mul;
  float min_alpha_acc;  // premultiplied: the filtered alpha accumulator below which colours are 0
};

// Rounding that the arithmetic fixes, as immediates: weighted masks always round as
// WeightedRounding says, boxes sum exactly (no vertical rounding or shift). Read from
// the arguments every row, they cost two constant loads a row and a shift by a register.
template <Arith A>
struct RoundingOf {
  static constexpr unsigned kHRound = A == Arith::Shifted ? WeightedRounding::kHRound : 0u;
  static constexpr unsigned kHShift = A == Arith::Shifted ? WeightedRounding::kHShift : 0u;
  // The horizontal pass's rounding: an immediate for weighted masks, the boxes' from the taps.
  template <int R>
  __device__ static unsigned v_round(const PackedTaps<R>& taps) {
    return A == Arith::Shifted || A == Arith::PremulShifted ? WeightedRounding::kVRound : taps.v_round;
  }
};

// A thread's pixels, samples and the words it loads. Gray and RGBA threads own whole
// words; an RGB thread's 6 bytes start `phase` bytes (0 or 2) into the first of its two
// words (SeparablePackedTuning::kRgbPixels).
template <int C>
struct PackedGeometry {
  static constexpr int kPixels = C == 1 ? 4 * Tuning::kGrayWords : C == 3 ? Tuning::kRgbPixels : Tuning::kRgbaWords;
  static constexpr int kSamples = kPixels * C;
  static constexpr int kWords = C == 3 ? 2 : kSamples / 4;  // words loaded a row
  static_assert(C != 3 || kPixels == 2, "an RGB thread's 6 bytes lie in the two words it loads");
  static_assert(C == 3 || kSamples % 4 == 0, "gray and RGBA threads own whole words");
};

// Byte offset of a thread's first sample in its first word (rows start on a word).
template <int C>
__device__ __forceinline__ int phase_of(int x0) {
  if constexpr (C == 3) return (x0 * 3) & 3;
  else return 0;
}

// Word k of a thread's words in a row of the constant border (`constant`: channel c in
// byte c, gray replicated): on three channels byte b of word k holds channel
// (4k + b - phase) % 3, one of three patterns.
template <int C>
__device__ __forceinline__ unsigned constant_word(unsigned constant, int k, int phase) {
  if constexpr (C == 3) {
    const int pattern = (k + phase / 2) % 3;
    return __byte_perm(constant, 0u, pattern == 0 ? 0x0210u : pattern == 1 ? 0x1021u : 0x2102u);
  } else {
    return constant;
  }
}

// Lanes each side of a warp that only feed their neighbours: enough pixels for R.
template <int C, int R>
constexpr int halo_lanes() {
  return (R + PackedGeometry<C>::kPixels - 1) / PackedGeometry<C>::kPixels;
}

template <int C>
struct RowWords {
  unsigned w[PackedGeometry<C>::kWords];
};

// The slow path of fetch_words (threads at the image's left and right edges, rows that
// do not start on a word): byte by byte, each pixel through the border mode. Out of
// line: inlined into each of the kernel's unrolled row steps it made the 5x5 kernels
// 80-120 KB of code, and the warps stalled on instruction fetch.
template <int C>
__device__ __noinline__ RowWords<C> fetch_bytes(const unsigned char* row, int x0, int phase, int width, BorderMode mode,
                                                unsigned const_word) {
  using G = PackedGeometry<C>;
  unsigned long long bytes = 0;  // sample s in byte phase + s
#pragma unroll
  for (int p = 0; p < G::kPixels; ++p) {
    const int sx = border_map(x0 + p, width, mode);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const int s = p * C + c;
      const unsigned b = sx < 0 ? (const_word >> (8 * (C == 3 ? c : s % 4))) & 0xffu
                                : static_cast<unsigned>(__ldg(row + static_cast<std::size_t>(sx) * C + c));
      bytes |= static_cast<unsigned long long>(b) << (8 * (phase + s));
    }
  }
  RowWords<C> r;
#pragma unroll
  for (int k = 0; k < G::kWords; ++k) r.w[k] = static_cast<unsigned>(bytes >> (32 * k));
  return r;
}

// The words of image row y (any integer: mapped through the border mode) at pixel x0:
// whole words where `words` (aligned rows, all pixels inside), else byte by byte
// through the border mode. A row of the constant is the constant's bytes.
template <int C>
__device__ __forceinline__ void fetch_words(const ByteImage& img, int x0, int phase, int y, bool words, bool vector,
                                            unsigned const_word, unsigned (&w)[PackedGeometry<C>::kWords]) {
  using G = PackedGeometry<C>;
  const int sy = border_map(y, img.height, img.mode);
  if (sy < 0) {
#pragma unroll
    for (int k = 0; k < G::kWords; ++k) w[k] = constant_word<C>(const_word, k, phase);
    return;
  }
  const unsigned char* row = img.data + static_cast<std::size_t>(sy) * img.pitch;
  if (words) {
    load_words(reinterpret_cast<const unsigned*>(row + static_cast<std::size_t>(x0) * C - phase), vector, w);
    return;
  }
  const RowWords<C> slow = fetch_bytes<C>(row, x0, phase, img.width, img.mode, const_word);
#pragma unroll
  for (int k = 0; k < G::kWords; ++k) w[k] = slow.w[k];
}

// Packs byte `sel` (0 or 3) of each of 4 values into one word, value 0 in byte 0.
template <int kByte>
__device__ __forceinline__ unsigned pack_bytes(unsigned a0, unsigned a1, unsigned a2, unsigned a3) {
  constexpr unsigned kSel = static_cast<unsigned>(kByte) | (static_cast<unsigned>(4 + kByte) << 4);
  const unsigned lo = __byte_perm(a0, a1, kSel);
  const unsigned hi = __byte_perm(a2, a3, kSel);
  return __byte_perm(lo, hi, 0x5410u);
}

// A row's output samples as words: byte kByte of each value, sample 4k in word k's byte 0.
template <int kByte, int W>
__device__ __forceinline__ void pack_words(const unsigned (&out)[4 * W], unsigned (&words)[W]) {
#pragma unroll
  for (int k = 0; k < W; ++k) words[k] = pack_bytes<kByte>(out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3]);
}

// An RGB thread's 6 output samples (byte kByte of each) into the row at `first_word`:
// from byte `phase` on, as a word and a half-word, both aligned (phase 0: bytes 0-3 and
// 4-5; phase 2: bytes 2-3 and 4-7).
template <int kByte>
__device__ __forceinline__ void store_rgb_pair(unsigned char* first_word, int phase, const unsigned (&out)[6]) {
  constexpr unsigned kPair = static_cast<unsigned>(kByte) | (static_cast<unsigned>(4 + kByte) << 4);
  const unsigned s01 = __byte_perm(out[0], out[1], kPair);
  const unsigned s23 = __byte_perm(out[2], out[3], kPair);
  const unsigned s45 = __byte_perm(out[4], out[5], kPair);
  const bool late = phase != 0;
  const unsigned word = late ? __byte_perm(s23, s45, 0x5410u) : __byte_perm(s01, s23, 0x5410u);
  const unsigned half = late ? s01 : s45;
  *reinterpret_cast<unsigned*>(first_word + 2 * phase) = word;
  *reinterpret_cast<unsigned short*>(first_word + 4 - phase) = static_cast<unsigned short>(half);
}

// Square boxes on gray images, both passes two pixels a register: a thread's four
// pixels' vertical sums v0..v3 sit in h = {[v0, v2], [v1, v3]} (low and high 16-bit
// lanes). With Q(k) = [v_k, v_{k+2}] the box sums are [o0, o2] = sum of Q(k) over
// k = -R..R and [o1, o3] = that - Q(-R) + Q(R+1) (a lane never borrows: Q(-R)'s lanes are
// terms of the sum's). The Q(k) outside the thread are its neighbours' pairs (k = -4,
// -3, 4, 5) or one lane of each (k = -2, -1, 2, 3: one byte permute).
template <int R>
struct GrayBoxPairs {
  static_assert(R >= 1 && R <= 4, "the neighbours' pairs reach 4 pixels either side");
  unsigned own[2], prev[2], next[2];

  // Q(k) for a compile-time k in -R .. R + 1.
  template <int k>
  __device__ __forceinline__ unsigned at() const {
    constexpr int j = ((k % 2) + 2) % 2;  // E (0) or O (1)
    if constexpr (k >= 0 && k <= 1) return own[j];
    else if constexpr (k >= -2 && k <= -1) return __byte_perm(prev[j], own[j], 0x5432u);
    else if constexpr (k >= 2 && k <= 3) return __byte_perm(own[j], next[j], 0x5432u);
    else if constexpr (k < 0) return prev[j];
    else return next[j];
  }

  template <int k>
  __device__ __forceinline__ unsigned sum_from() const {
    if constexpr (k > R) return 0u;
    else return at<k>() + sum_from<k + 1>();
  }
};

template <int R>
__device__ __forceinline__ void gray_box_row(const unsigned (&h)[2], unsigned v_round, unsigned out_mul,
                                             unsigned (&out)[4]) {
  GrayBoxPairs<R> pairs{{h[0], h[1]},
                        {__shfl_up_sync(0xffffffffu, h[0], 1), __shfl_up_sync(0xffffffffu, h[1], 1)},
                        {__shfl_down_sync(0xffffffffu, h[0], 1), __shfl_down_sync(0xffffffffu, h[1], 1)}};
  const unsigned even = pairs.template sum_from<-R>();
  const unsigned odd = even - pairs.template at<-R>() + pairs.template at<R + 1>();
  out[0] = __umulhi(v_round + (even & 0xffffu), out_mul);
  out[2] = __umulhi(v_round + (even >> 16), out_mul);
  out[1] = __umulhi(v_round + (odd & 0xffffu), out_mul);
  out[3] = __umulhi(v_round + (odd >> 16), out_mul);
}

// __launch_bounds__' minimum blocks an SM (SeparablePackedTuning::kGrayMinBlocks, kRgbaMinBlocks, kBoxMinBlocks).
static_assert(Tuning::kGrayMinBlocks * Tuning::kBlockThreads <= 1024 &&
                  Tuning::kRgbaMinBlocks * Tuning::kBlockThreads <= 1024 &&
                  Tuning::kBoxMinBlocks * Tuning::kBlockThreads <= 1024,
              "sm_75 keeps at most 1024 threads an SM");
template <int C, int R, Arith A>
constexpr int min_blocks() {
  if (R > 2) return A == Arith::BoxSum ? 1 : Tuning::large_radius_min_blocks(C, R, A == Arith::PremulShifted);
  if (kPremultiplied<A>) return Tuning::kRgbaPremultipliedMinBlocks;
  if (C == 3) return Tuning::kRgbMinBlocks;
  if (A == Arith::BoxSum) return Tuning::kBoxMinBlocks;
  return C == 1 ? Tuning::kGrayMinBlocks : Tuning::kRgbaMinBlocks;
}

// A thread's registers for one row. Square boxes add plain bytes: a 9x9 sum (at most
// 81 * 255) fits a 16-bit lane, so a register carries two samples through both passes:
// on RGBA two channels of a pixel (R and B, or G and A: the neighbours' sums of a pixel
// are again two registers), on gray pixels 0 and 2 or 1 and 3 of the thread's word
// (gray_box_row).
template <int C, int R, Arith A>
struct RowSlots {
  static constexpr int kSamples = PackedGeometry<C>::kSamples;
  static constexpr int kPixels = PackedGeometry<C>::kPixels;
  // Samples a register: three channels do not pair within a pixel, so RGB boxes keep one.
  static constexpr int kLanes = A == Arith::BoxSum && C != 3 ? 2 : 1;
  static constexpr int kSlots = kSamples / kLanes;            // registers a row
  static constexpr int kPixelSlots = C == 1 ? 1 : C / kLanes;  // registers a pixel (gray boxes do not use it)
  static_assert(kLanes == 1 || (2 * R + 1) * (2 * R + 1) * 255 < 65536, "a box sum fits a 16-bit lane");
};

// Premultiplied RGBA's output: from each pixel's four sums (colours of c * a, alpha), the
// colours divided by the filtered alpha and the alpha's own rounding, each value with its
// result in byte kResultByte<A> as the other arithmetics leave it.
template <Arith A, int P, int R>
__device__ __forceinline__ void premultiplied_store(const PackedTaps<R>& taps, unsigned (&out)[4 * P]) {
#pragma unroll
  for (int p = 0; p < P; ++p) {
    unsigned& alpha = out[4 * p + 3];
    const unsigned alpha_sum = A == Arith::PremulShifted ? alpha - WeightedRounding::kVRound : alpha;
    const float a = static_cast<float>(alpha_sum);
    // sum(w b a) / sum(w a): weighted colour sums carry 2^16, the alpha's 2^24.
    constexpr float kNumerator = A == Arith::PremulShifted ? 256.0f : 1.0f;
    if constexpr (2 * R + 1 <= Tuning::kWeightedAutoMaxSize) {
      // Up to the largest weighted mask auto runs here (boxes it runs larger): the fast
      // division (within 2 ulp, no range test or slow path), and 2^23 + colour rounded
      // once, which holds the rounded colour in its low bits, capped at 255 there (the
      // sums are not negative). On the 13x13 premultiplied Gaussian these forms made ptxas
      // spill under its 128 registers, so the larger masks keep the division and
      // conversion, the boxes among them not yet measured with them (docs/techniques/
      // convolution.md, "8-bit filters: separable_packed").
      const float scale = a > taps.min_alpha_acc ? __fdividef(kNumerator, a) : 0.0f;
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const unsigned bits = min(__float_as_uint(fmaf(static_cast<float>(out[4 * p + c]), scale, 8388608.0f)),
                                  __float_as_uint(8388608.0f) + 255u);
        out[4 * p + c] = (bits & 0xffu) << (8 * kResultByte<A>);
      }
    } else {
      const float scale = a > taps.min_alpha_acc ? kNumerator / a : 0.0f;
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const unsigned v = __float2uint_rn(fminf(static_cast<float>(out[4 * p + c]) * scale, 255.0f));
        out[4 * p + c] = v << (8 * kResultByte<A>);
      }
    }
    if constexpr (A == Arith::PremulBox) alpha = __umulhi(taps.v_round + alpha, taps.out_mul);
  }
}

// Slot c's vertical sum of pixel p of the row (p from -R to P + R - 1, 0 the thread's
// first pixel): the thread's own, or taken from the lanes either side (a compile-time p
// once unrolled, so each is one register or one shuffle).
template <int P, int SC, int N>
__device__ __forceinline__ unsigned neighbour_sum(const unsigned (&h)[N], int p, int c) {
  if (p >= 0 && p < P) return h[p * SC + c];
  if (p < 0) {
    const int lanes = (-p + P - 1) / P;  // lanes to the left
    return __shfl_up_sync(0xffffffffu, h[(p + lanes * P) * SC + c], static_cast<unsigned>(lanes));
  }
  const int lanes = p / P;  // lanes to the right
  return __shfl_down_sync(0xffffffffu, h[(p - lanes * P) * SC + c], static_cast<unsigned>(lanes));
}

// The horizontal pass of one row: from the vertical sums `h` of the thread's slots, and
// those of the pixels within R either side from the lanes next to it, the thread's
// output samples (for Arith::Shifted unscaled, the result in byte 3).
template <int C, int R, Arith A>
__device__ __forceinline__ void horizontal_row(const unsigned (&h)[RowSlots<C, R, A>::kSlots], const PackedTaps<R>& taps,
                                               unsigned (&out)[RowSlots<C, R, A>::kSamples]) {
  using RS = RowSlots<C, R, A>;
  constexpr int P = RS::kPixels;
  constexpr int SC = RS::kPixelSlots;
  if constexpr (RS::kLanes == 2 && C == 1) {
    static_assert(P == 4, "gray_box_row takes one word's pixels");
    gray_box_row<R>(h, taps.v_round, taps.out_mul, out);
  } else if constexpr (A == Arith::BoxSum) {
    // Plain sums: pairs of taps at +-d added before the division, so all 2R + 1 sums are kept.
    unsigned ext[(P + 2 * R) * SC];
#pragma unroll
    for (int p = -R; p < P + R; ++p) {
#pragma unroll
      for (int c = 0; c < SC; ++c) {
        ext[(p + R) * SC + c] = neighbour_sum<P, SC>(h, p, c);
      }
    }
#pragma unroll
    for (int s = 0; s < RS::kSlots; ++s) {
      const int e0 = (s / SC + R) * SC + s % SC;  // slot s in ext
      unsigned acc = ext[e0];
#pragma unroll
      for (int d = 1; d <= R; ++d) acc += ext[e0 - d * SC] + ext[e0 + d * SC];
      if constexpr (RS::kLanes == 2) {
        const int first = (s / SC) * C + s % SC;  // the low lane's sample
        out[first] = __umulhi(taps.v_round + (acc & 0xffffu), taps.out_mul);
        out[first + 2] = __umulhi(taps.v_round + (acc >> 16), taps.out_mul);
      } else {
        out[s] = __umulhi(taps.v_round + acc, taps.out_mul);
      }
    }
  } else {
    // Weighted taps: each neighbour's vertical sum is multiplied into the outputs it
    // reaches as soon as it arrives from its lane, so no array of the 2R neighbours' sums
    // stays live (docs/techniques/convolution.md, "Large radii").
#pragma unroll
    for (int s = 0; s < RS::kSlots; ++s) {
      // Premultiplied colours' sums are 255^2 * 2^16 at most: no room for a rounding
      // (premultiplied_store() divides them); the alpha rounds as a byte does.
      if constexpr (A == Arith::PremulShifted) out[s] = s % 4 == 3 ? WeightedRounding::kVRound : 0u;
      else if constexpr (A == Arith::PremulBox) out[s] = 0u;
      else out[s] = RoundingOf<A>::v_round(taps);
    }
#pragma unroll
    for (int p = -R; p < P + R; ++p) {
#pragma unroll
      for (int c = 0; c < SC; ++c) {
        const unsigned e = neighbour_sum<P, SC>(h, p, c);
#pragma unroll
        for (int q = 0; q < P; ++q) {
          const int d = p > q ? p - q : q - p;
          if (d <= R) out[q * SC + c] += taps.qh[d] * e;
        }
      }
    }
    if constexpr (A == Arith::Divided) {
#pragma unroll
      for (int s = 0; s < RS::kSlots; ++s) out[s] = __umulhi(out[s], taps.out_mul);
    }
    if constexpr (kPremultiplied<A>) premultiplied_store<A, P>(taps, out);
  }
}

// Whether a format's words can move as one vector access (RGBA: two words, 8 bytes).
template <int C>
constexpr bool kVectorRows = C == 4 && PackedGeometry<C>::kWords == 2;

// V: the rows' words move as one vector access (kVectorRows, rows aligned for it).
template <int C, int R, Arith A, bool V>
__global__ void __launch_bounds__(Tuning::kBlockThreads, min_blocks<C, R, A>())
    separable_packed_kernel(ByteImage src, unsigned char* __restrict__ dst, std::size_t dst_pitch, PackedTaps<R> taps,
                            bool src_aligned, bool dst_aligned, int strip_rows, int strips) {
  using G = PackedGeometry<C>;
  using RS = RowSlots<C, R, A>;
  constexpr int S = G::kSamples;
  constexpr int P = G::kPixels;
  constexpr int H = halo_lanes<C, R>();
  constexpr int kOut = 32 - 2 * H;  // lanes of a warp that store
  constexpr int kWarps = Tuning::kBlockThreads / 32;
  constexpr int kWin = 2 * R + 1;
  constexpr int kLanes = RS::kLanes;
  constexpr int kSlots = RS::kSlots;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(blockIdx.x) * kWarps + static_cast<int>(threadIdx.x) / 32;
  // The whole warp leaves together (the shuffles need every lane) when it stores nothing.
  if (static_cast<long long>(warp) * kOut * P >= src.width) return;
  const int x0 = (warp * kOut + lane - H) * P;
  const bool stores = lane >= H && lane < 32 - H;
  // The thread's words: from byte x0 * C - phase, all inside the row (on RGB the second
  // word reaches past the thread's pixels: it must lie inside the row too).
  const int phase = phase_of<C>(x0);
  const long long first_byte = static_cast<long long>(x0) * C - phase;
  const bool word_loads =
      src_aligned && first_byte >= 0 && first_byte + 4 * G::kWords <= static_cast<long long>(src.width) * C;
  const bool word_stores = dst_aligned && x0 + P <= src.width;
  const unsigned const_word = C == 1 ? (src.constant & 0xffu) * 0x01010101u : src.constant;

  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(y_begin + strip_rows, src.height);
    // The window: image row r's bytes sit in slot (r - y_begin + R) % kWin.
    unsigned window[kWin][kSlots];
    // Rows loaded ahead: ahead[k] holds image row next_row + k.
    constexpr int kAhead = Tuning::kRowsAhead;
    unsigned ahead[kAhead][G::kWords];
    int next_row = y_begin - R;
    // Address of the thread's first word in the next row fetched (row next_row + k
    // while the prologue fetches row k ahead, then always row next_row + kAhead): rows
    // inside the image load from it, stepped by the pitch, with no border mapping and no
    // multiply (most rows of most strips: 38.1M -> 33.6M warp instructions on the 8K
    // gray 5x5 Gaussian). Kept as an integer: above the image it points outside it.
    unsigned long long fetch_address =
        reinterpret_cast<unsigned long long>(src.data) +
        static_cast<unsigned long long>(static_cast<long long>(next_row) * static_cast<long long>(src.pitch) +
                                        first_byte);
    // `inside` (a constant at every call) says that the row lies in the image and the
    // whole warp loads words, so that nothing needs testing.
    const auto fetch = [&](bool inside, int row, unsigned (&w)[G::kWords]) {
      const unsigned long long address = fetch_address;
      fetch_address += src.pitch;
      if (inside || (word_loads && static_cast<unsigned>(row) < static_cast<unsigned>(src.height))) {
        load_words(reinterpret_cast<const unsigned*>(address), V, w);
        return;
      }
      fetch_words<C>(src, x0, phase, row, word_loads, V, const_word, w);
    };
#pragma unroll
    for (int k = 0; k < kAhead; ++k) fetch(kTested, next_row + k, ahead[k]);
    // Takes row next_row's bytes into `slot` and requests row next_row + kAhead.
    const auto take = [&](bool inside, unsigned (&slot)[kSlots]) {
      unsigned w[G::kWords];
#pragma unroll
      for (int i = 0; i < G::kWords; ++i) w[i] = ahead[0][i];
#pragma unroll
      for (int k = 0; k + 1 < kAhead; ++k)
#pragma unroll
        for (int i = 0; i < G::kWords; ++i) ahead[k][i] = ahead[k + 1][i];
      fetch(inside, next_row + kAhead, ahead[kAhead - 1]);
      if constexpr (Tuning::kL2RowsAhead > 0) {
        // fetch_address is now row next_row + kAhead + 1's.
        const int py = next_row + kAhead + Tuning::kL2RowsAhead;
        if (inside || (word_loads && static_cast<unsigned>(py) < static_cast<unsigned>(src.height)))
          prefetch_l2(reinterpret_cast<const void*>(fetch_address + (Tuning::kL2RowsAhead - 1) * src.pitch));
      }
      ++next_row;
      if constexpr (C == 3) {
        // The thread's 6 bytes from byte `phase` on: shifted down into two words.
        const unsigned shift = 8u * static_cast<unsigned>(phase);
        w[0] = __funnelshift_r(w[0], w[1], shift);
        w[1] >>= shift;
      }
#pragma unroll
      for (int q = 0; q < kSlots; ++q) {
        if constexpr (kLanes == 2) {
          // Pixel q / 2's channels q % 2 and q % 2 + 2 in the low and high 16-bit lanes.
          slot[q] = __byte_perm(w[q / 2], 0u, 0x4240u | static_cast<unsigned>(q % 2) * 0x0101u);
        } else {
          slot[q] = __byte_perm(w[q / 4], 0u, 0x4440u | static_cast<unsigned>(q % 4));
        }
      }
      if constexpr (kPremultiplied<A>) {
        // Colours times their alpha (at most 255^2), alpha as it is.
#pragma unroll
        for (int q = 0; q < kSlots; ++q)
          if (q % 4 != 3) slot[q] *= slot[q - q % 4 + 3];
      }
    };
#pragma unroll
    for (int k = 0; k < 2 * R; ++k) take(kTested, window[k]);

    // Output row y + u's first byte is the fetch address plus a difference that is the
    // same for every thread of the block: when row y + u is stored, take() has just
    // requested row y + u + R + kAhead, so fetch_address is row y + u + R + kAhead + 1's,
    // and the store address = fetch_address + (dst - src) + (y + u)(dst_pitch - pitch)
    // - (R + kAhead + 1) pitch. The difference lives in uniform registers; a separately
    // stepped store pointer took two of the thread's registers, which the RGBA kernel at
    // its 72-register cap paid in spills (docs/techniques/convolution.md, "Session 14").
    const long long pitch_change = static_cast<long long>(dst_pitch) - static_cast<long long>(src.pitch);
    long long store_delta = static_cast<long long>(reinterpret_cast<unsigned long long>(dst) -
                                                   reinterpret_cast<unsigned long long>(src.data)) +
                            static_cast<long long>(y_begin) * pitch_change -
                            static_cast<long long>(R + kAhead + 1) * static_cast<long long>(src.pitch);
    // One output row, y + u of a group of kWin rows from y (u a compile-time constant
    // once unrolled, so the window's slots are fixed registers).
    const auto row_step = [&](bool inside, int u) {
      // Row y + u + R enters the slot that row y + u - R - 1 leaves.
      take(inside, window[(u + 2 * R) % kWin]);
      // Vertical sums of the thread's samples; window row j is image row y + u + j - R.
      unsigned h[kSlots];
#pragma unroll
      for (int s = 0; s < kSlots; ++s) {
        if constexpr (kPlainSums<A>) {
          unsigned acc = window[(u + R) % kWin][s];
#pragma unroll
          for (int d = 1; d <= R; ++d) acc += window[(u + R - d) % kWin][s] + window[(u + R + d) % kWin][s];
          h[s] = acc;
        } else if constexpr (A == Arith::PremulShifted) {
          // Colours (255^2 at most) keep 16 more bits than bytes: h < 255^2 as a byte's h < 255 * 2^8.
          const bool colour = s % 4 != 3;
          unsigned acc = (colour ? 1u << 15 : WeightedRounding::kHRound) + taps.qv[0] * window[(u + R) % kWin][s];
#pragma unroll
          for (int d = 1; d <= R; ++d)
            acc += taps.qv[d] * (window[(u + R - d) % kWin][s] + window[(u + R + d) % kWin][s]);
          h[s] = acc >> (colour ? 16u : WeightedRounding::kHShift);
        } else {
          unsigned acc = RoundingOf<A>::kHRound + taps.qv[0] * window[(u + R) % kWin][s];
#pragma unroll
          for (int d = 1; d <= R; ++d)
            acc += taps.qv[d] * (window[(u + R - d) % kWin][s] + window[(u + R + d) % kWin][s]);
          h[s] = acc >> RoundingOf<A>::kHShift;
        }
      }
      unsigned out[S];
      horizontal_row<C, R, A>(h, taps, out);
      constexpr int kByte = kResultByte<A>;
      // The thread's first word in output row y + u (its pixels from byte `phase` on).
      unsigned char* const store_row = reinterpret_cast<unsigned char*>(fetch_address + store_delta);
      if (stores) {
        unsigned char* row = store_row + phase;
        if (inside || word_stores) {
          if constexpr (C == 3) {
            store_rgb_pair<kByte>(store_row, phase, out);
          } else {
            unsigned words[G::kWords];
            pack_words<kByte>(out, words);
            store_words(reinterpret_cast<unsigned*>(row), V, words);
          }
        } else {
#pragma unroll
          for (int s = 0; s < S; ++s)
            if (x0 + s / C < src.width) row[s] = static_cast<unsigned char>(out[s] >> (8 * kByte));
        }
      }
      store_delta += pitch_change;
    };
    int y = y_begin;
    if constexpr (R <= Tuning::kFastGroupsMaxRadius) {
      // Groups whose rows, those fetched and prefetched included, all lie in the image,
      // walked by a warp whose lanes all load and store whole words: no test a row (the
      // border mode, the row's place, the edge threads' byte path).
      if (__all_sync(0xffffffffu, word_loads && (word_stores || !stores))) {
        for (; y + kWin <= y_end && y + kWin + R + kAhead + Tuning::kL2RowsAhead <= src.height; y += kWin) {
#pragma unroll
          for (int u = 0; u < kWin; ++u) row_step(kInside, u);
        }
      }
      // The rest (the warps at the image's left and right edges, the groups near its
      // top and bottom, a strip's last rows): one row a turn, the window then moved up
      // a slot, so that these rare rows cost one row's code instead of 2R+1.
#pragma unroll 1
      for (; y < y_end; ++y) {
        row_step(kTested, 0);
        move_window_up(window);
      }
    } else {
      for (; y < y_end; y += kWin) {
#pragma unroll
        for (int u = 0; u < kWin; ++u)
          if (y + u < y_end) row_step(kTested, u);
      }
    }
  }
}

template <int R>
PackedTaps<R> taps_of(const FixedPointMask& mask) {
  PackedTaps<R> taps{};
  // The mask's window is 2 * mask.radius + 1 wide; the kernel's R may be larger (a 1x1
  // mask in the radius-1 window): its outer weights stay 0.
  for (int d = 0; d <= mask.radius; ++d) {
    taps.qv[d] = mask.qy[static_cast<std::size_t>(mask.radius + d)];
    taps.qh[d] = mask.qx[static_cast<std::size_t>(mask.radius + d)];
  }
  taps.v_round = mask.v_round;
  taps.out_mul = mask.out_mul;
  taps.min_alpha_acc = premultiplied_min_alpha_acc(mask);
  return taps;
}


template <int C, int R, Arith A, bool V>
void launch_shape(const ImageView& src, const ImageView& dst, const ByteImage& image, const PackedTaps<R>& taps,
                  const ExecContext& ctx) {
  using G = PackedGeometry<C>;
  const auto kernel = separable_packed_kernel<C, R, A, V>;
  const char* name = "separable_packed_kernel";
  constexpr int kPixelsPerBlock = (32 - 2 * halo_lanes<C, R>()) * (Tuning::kBlockThreads / 32) * G::kPixels;
  const long long columns = blocks_for(src.width, kPixelsPerBlock);
  const long long resident =
      static_cast<long long>(cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), Tuning::kBlockThreads, 0)) *
      cached_sm_count();
  const StripBounds bounds = Tuning::strip_rows(C, R, A != Arith::Shifted && A != Arith::PremulShifted);
  const StripPlan plan = fixed_strip_plan(columns, src.height, resident, bounds.min_rows, bounds.max_rows);
  const dim3 grid(grid_x(columns, name), grid_y(plan.strips));
  kernel<<<grid, Tuning::kBlockThreads, 0, ctx.stream>>>(
      image, static_cast<unsigned char*>(dst.data), dst.pitch, taps, word_aligned(src.data, src.pitch),
      word_aligned(dst.data, dst.pitch), plan.rows, plan.strips);
  check_launch(name, ctx);
}

// RGBA rows whose words pair into 8-byte accesses on both sides (pitched images always)
// take the vector kernel; the choice is made once, not per row and thread.
template <int C, int R, Arith A>
void launch_packed(const ImageView& src, const ImageView& dst, const ByteImage& image, const PackedTaps<R>& taps,
                   const ExecContext& ctx) {
  constexpr int kBytes = 4 * PackedGeometry<C>::kWords;
  if constexpr (kVectorRows<C>) {
    if (rows_aligned(src.data, src.pitch, kBytes) && rows_aligned(dst.data, dst.pitch, kBytes)) {
      launch_shape<C, R, A, true>(src, dst, image, taps, ctx);
      return;
    }
  }
  launch_shape<C, R, A, false>(src, dst, image, taps, ctx);
}

template <int C, int R>
void launch_arith(const ImageView& src, const ImageView& dst, const ByteImage& image, const FixedPointMask& mask,
                  bool premultiplied, const ExecContext& ctx) {
  const PackedTaps<R> taps = taps_of<R>(mask);
  const bool square = mask.qx == mask.qy && mask.radius == R;
  // The kernels take the vertical rounding from the arithmetic (RoundingOf).
  const bool fixed_rounding = mask.box ? mask.h_round == 0 && mask.h_shift == 0
                                       : mask.h_round == WeightedRounding::kHRound &&
                                             mask.h_shift == WeightedRounding::kHShift &&
                                             mask.v_round == WeightedRounding::kVRound &&
                                             mask.out_mul == WeightedRounding::kOutMul;
  if (!fixed_rounding) throw Error(ErrorCode::InvalidArgument, "separable_packed: a mask with unexpected rounding");
  if constexpr (C == 4) {
    if (premultiplied) {
      if (mask.box) launch_packed<C, R, Arith::PremulBox>(src, dst, image, taps, ctx);
      else launch_packed<C, R, Arith::PremulShifted>(src, dst, image, taps, ctx);
      return;
    }
  }
  // Gray boxes pair pixels 0 and 2 of a word (GrayBoxPairs): their neighbours' pairs reach
  // 4 pixels either side; wider gray boxes divide as oblong boxes do.
  constexpr bool kPairedBoxes = C != 1 || R <= 4;
  if constexpr (kPairedBoxes) {
    if (mask.box && square) {
      launch_packed<C, R, Arith::BoxSum>(src, dst, image, taps, ctx);
      return;
    }
  }
  if (!mask.box) launch_packed<C, R, Arith::Shifted>(src, dst, image, taps, ctx);
  else launch_packed<C, R, Arith::Divided>(src, dst, image, taps, ctx);
}

}  // namespace

void launch_separable_packed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                             const ExecContext& ctx) {
  if (!separable_packed_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_packed: runs 1-, 3- and 4-channel 8-bit images with one symmetric convex rank-1 mask of radius "
                "up to " +
                    std::to_string(Tuning::kMaxRadius) +
                    ", the Linear rule without bias, channels separate (RGBA: or alpha premultiplied)");
  const FixedPointMask mask = fixed_point_mask(spec);
  const ByteImage image = byte_image_of(src, border);
  visit_window_radius_up_to<Tuning::kMaxRadius>(mask.radius, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    if (src.format.channels == 1) launch_arith<1, R>(src, dst, image, mask, false, ctx);
    else if (src.format.channels == 3) launch_arith<3, R>(src, dst, image, mask, false, ctx);
    else launch_arith<4, R>(src, dst, image, mask, spec.alpha == AlphaMode::Premultiply, ctx);
  });
}

}  // namespace gpufilter::kernels
