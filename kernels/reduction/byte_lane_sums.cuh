#pragma once
// The packed u8 arithmetic of the stats kernels (packed_stats.cuh, warp_bound_stats.cuh):
// each 32-bit word is four samples, spread over four 16-bit lanes as lo = bytes 0, 2 and
// hi = bytes 1, 3. Lane j of a word of phase p is channel (Phase + 4 p + j) % C, with
// P = 3 phases for three-channel groups (their channels repeat every three words), else 1.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

__device__ __forceinline__ unsigned even_bytes(unsigned w) { return w & 0x00ff00ffu; }
__device__ __forceinline__ unsigned odd_bytes(unsigned w) { return __byte_perm(w, 0u, 0x4341u); }

// f(p, word) for the words of a group of 16-byte chunks, in order; p (the word's phase)
// is a constant in each unrolled copy.
template <int P, int kChunks, class F>
__device__ __forceinline__ void for_each_group_word(const int4 (&group)[kChunks], F&& f) {
#pragma unroll
  for (int g = 0; g < kChunks; ++g) {
    const unsigned words[4] = {static_cast<unsigned>(group[g].x), static_cast<unsigned>(group[g].y),
                               static_cast<unsigned>(group[g].z), static_cast<unsigned>(group[g].w)};
#pragma unroll
    for (int i = 0; i < 4; ++i) f((g * 4 + i) % P, words[i]);
  }
}

// The running sums of a thread's words: four 16-bit lane sums per phase (s_lo, s_hi; at
// most 256 words of 255 before they must be widened) and the __dp4a sums of squares of all
// four bytes, bytes 0 and 2, byte 0 and byte 1, from which each lane's follows.
template <int C, int P>
struct ByteLaneSums {
  unsigned s_lo[P], s_hi[P], q_all[P], q_02[P], q_0[P], q_1[P];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int p = 0; p < P; ++p) s_lo[p] = s_hi[p] = q_all[p] = q_02[p] = q_0[p] = q_1[p] = 0;
  }

  // Word w of phase p, with lo = even_bytes(w) and hi = odd_bytes(w).
  __device__ __forceinline__ void add(int p, unsigned w, unsigned lo, unsigned hi) {
    s_lo[p] += lo;
    s_hi[p] += hi;
    q_all[p] = __dp4a(w, w, q_all[p]);
    if constexpr (C != 1) {  // gray needs the sum of all squares alone
      q_02[p] = __dp4a(lo, lo, q_02[p]);
      q_0[p] = __dp4a(w & 0xffu, w, q_0[p]);
      q_1[p] = __dp4a(w & 0xff00u, w, q_1[p]);
    }
  }

  // The sums per channel, for words that started on channel Phase.
  template <int Phase>
  __device__ __forceinline__ void to_channels(unsigned (&sums)[C], unsigned (&squares)[C]) const {
#pragma unroll
    for (int c = 0; c < C; ++c) sums[c] = squares[c] = 0;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const unsigned lane_sums[4] = {s_lo[p] & 0xffffu, s_hi[p] & 0xffffu, s_lo[p] >> 16, s_hi[p] >> 16};
#pragma unroll
      for (int j = 0; j < 4; ++j) sums[(Phase + 4 * p + j) % C] += lane_sums[j];
      if constexpr (C == 1) {
        squares[0] += q_all[p];
      } else {
        const unsigned lane_squares[4] = {q_0[p], q_1[p], q_02[p] - q_0[p], q_all[p] - q_02[p] - q_1[p]};
#pragma unroll
        for (int j = 0; j < 4; ++j) squares[(Phase + 4 * p + j) % C] += lane_squares[j];
      }
    }
  }
};

// Minimum and maximum thresholds without a per-sample compare: the minimum t of each
// lane's channel is kept as 256 - t in the 16-bit lanes, so lo + that has bit 8 clear
// exactly when the sample is below t (likewise 256 + max - lo for the maximum).
template <int C, int P>
struct ByteLaneBounds {
  static constexpr unsigned kLaneBit = 0x01000100u;  // bit 8 of both 16-bit lanes
  unsigned nmin_lo[P], nmin_hi[P], nmax_lo[P], nmax_hi[P];

  // tmin[c]: the channel's minimum, 256 when there is none yet (every sample is below);
  // tmax[c]: its maximum, -1 when there is none yet. For words of phase Phase.
  template <int Phase>
  __device__ __forceinline__ void set(const int (&tmin)[C], const int (&tmax)[C]) {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      unsigned nmin[4], nmax[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int c = (Phase + 4 * p + j) % C;
        nmin[j] = static_cast<unsigned>(256 - tmin[c]);
        nmax[j] = static_cast<unsigned>(256 + tmax[c]);
      }
      nmin_lo[p] = nmin[0] | nmin[2] << 16;
      nmin_hi[p] = nmin[1] | nmin[3] << 16;
      nmax_lo[p] = nmax[0] | nmax[2] << 16;
      nmax_hi[p] = nmax[1] | nmax[3] << 16;
    }
  }

  // A lane's bit 8 (kLaneBit) clear: a sample of the word beats its channel's minimum or
  // maximum. AND the results of many words and test once.
  __device__ __forceinline__ unsigned test(int p, unsigned lo, unsigned hi) const {
    return (lo + nmin_lo[p]) & (hi + nmin_hi[p]) & (nmax_lo[p] - lo) & (nmax_hi[p] - hi);
  }
};

}  // namespace gpufilter::kernels
