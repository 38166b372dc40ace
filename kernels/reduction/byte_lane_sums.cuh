#pragma once
// The per-channel sums hidden in the packed u8 accumulators of the stats kernels
// (packed_stats.cuh, warp_bound_stats.cuh): s_lo / s_hi hold four 16-bit lane sums of the
// words of phase p (bytes 0, 2 and 1, 3), q_all / q_02 / q_0 / q_1 the __dp4a sums of
// squares of all four bytes, bytes 0 and 2, byte 0 and byte 1. Lane j of phase p is
// channel (Phase + 4 p + j) % C; gray (C = 1) needs q_all alone.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

template <int Phase, int C, int P>
__device__ __forceinline__ void byte_lane_sums_to_channels(const unsigned (&s_lo)[P], const unsigned (&s_hi)[P],
                                                           const unsigned (&q_all)[P], const unsigned (&q_02)[P],
                                                           const unsigned (&q_0)[P], const unsigned (&q_1)[P],
                                                           unsigned (&sums)[C], unsigned (&squares)[C]) {
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

}  // namespace gpufilter::kernels
