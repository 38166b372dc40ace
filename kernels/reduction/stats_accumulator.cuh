#pragma once
// What the stats kernels carry per channel: the minimum and maximum with the position
// (y * width + x) where each first occurs, the sum and the sum of squares. Integers sum
// in 64 bits (exact: 65535^2 * 2^32 pixels still fits); f32 sums in double.
//
// merge() keeps, among equal values, the smaller position, so any order of merging gives
// the first occurrence in row-major order. add() keeps the earlier sample on a tie, which
// is the first occurrence as long as each thread adds its samples in increasing position.
#include <cuda_runtime.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace gpufilter::kernels {

template <class T>
struct StatsTypes {
  using Value = int;                    // u8, u16: the sample; sentinels out of range
  using Sum = unsigned long long;
  static constexpr int kNoMin = INT_MAX;
  static constexpr int kNoMax = -1;
};
template <>
struct StatsTypes<float> {
  using Value = float;
  using Sum = double;
  static constexpr float kNoMin = INFINITY;
  static constexpr float kNoMax = -INFINITY;
};

constexpr unsigned long long kNoPosition = ~0ULL;

// Plain data (no constructors) so it can live in __shared__ arrays.
template <class T, int C>
struct StatsAcc {
  using Types = StatsTypes<T>;
  using Value = typename Types::Value;
  using Sum = typename Types::Sum;
  Value min[C];
  Value max[C];
  unsigned long long min_pos[C];
  unsigned long long max_pos[C];
  Sum sum[C];
  Sum sum_sq[C];

  __device__ static StatsAcc identity() {
    StatsAcc a;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      a.min[c] = Types::kNoMin;
      a.max[c] = Types::kNoMax;
      a.min_pos[c] = kNoPosition;
      a.max_pos[c] = kNoPosition;
      a.sum[c] = 0;
      a.sum_sq[c] = 0;
    }
    return a;
  }

  // position() is evaluated only when the sample becomes the new minimum or maximum.
  template <class Position>
  __device__ __forceinline__ void track(int c, Value v, Position position) {
    if (v < min[c]) {
      min[c] = v;
      min_pos[c] = position();
    }
    if (v > max[c]) {
      max[c] = v;
      max_pos[c] = position();
    }
  }

  template <class Position>
  __device__ __forceinline__ void add(int c, T sample, Position position) {
    const Value v = static_cast<Value>(sample);
    track(c, v, position);
    if constexpr (!std::is_same_v<T, float>) {
      const unsigned u = static_cast<unsigned>(v);
      sum[c] += u;
      sum_sq[c] += static_cast<unsigned long long>(u * u);  // 65535^2 fits 32 bits
    } else {
      const double d = static_cast<double>(v);
      sum[c] += d;
      sum_sq[c] = fma(d, d, sum_sq[c]);
    }
  }

  __device__ __forceinline__ void merge(const StatsAcc& o) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      if (o.min[c] < min[c] || (o.min[c] == min[c] && o.min_pos[c] < min_pos[c])) {
        min[c] = o.min[c];
        min_pos[c] = o.min_pos[c];
      }
      if (o.max[c] > max[c] || (o.max[c] == max[c] && o.max_pos[c] < max_pos[c])) {
        max[c] = o.max[c];
        max_pos[c] = o.max_pos[c];
      }
      sum[c] += o.sum[c];
      sum_sq[c] += o.sum_sq[c];
    }
  }

  __device__ __forceinline__ StatsAcc shuffled_down(unsigned offset) const {
    StatsAcc o;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      o.min[c] = __shfl_down_sync(0xffffffffu, min[c], offset);
      o.max[c] = __shfl_down_sync(0xffffffffu, max[c], offset);
      o.min_pos[c] = __shfl_down_sync(0xffffffffu, min_pos[c], offset);
      o.max_pos[c] = __shfl_down_sync(0xffffffffu, max_pos[c], offset);
      o.sum[c] = __shfl_down_sync(0xffffffffu, sum[c], offset);
      o.sum_sq[c] = __shfl_down_sync(0xffffffffu, sum_sq[c], offset);
    }
    return o;
  }
};

// The block's accumulators in shared memory, one array per field (structure of arrays):
// thread i touches word i of each array, so the sequential tree's accesses fall in
// distinct banks (seed 002/001: the interleaved tree's stride of 2*s does not).
template <class T, int C, int N>
struct StatsShared {
  using Acc = StatsAcc<T, C>;
  typename Acc::Value min[C][N];
  typename Acc::Value max[C][N];
  unsigned long long min_pos[C][N];
  unsigned long long max_pos[C][N];
  typename Acc::Sum sum[C][N];
  typename Acc::Sum sum_sq[C][N];

  __device__ __forceinline__ void store(int i, const Acc& a) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      min[c][i] = a.min[c];
      max[c][i] = a.max[c];
      min_pos[c][i] = a.min_pos[c];
      max_pos[c][i] = a.max_pos[c];
      sum[c][i] = a.sum[c];
      sum_sq[c][i] = a.sum_sq[c];
    }
  }
  __device__ __forceinline__ Acc load(int i) const {
    Acc a;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      a.min[c] = min[c][i];
      a.max[c] = max[c][i];
      a.min_pos[c] = min_pos[c][i];
      a.max_pos[c] = max_pos[c][i];
      a.sum[c] = sum[c][i];
      a.sum_sq[c] = sum_sq[c][i];
    }
    return a;
  }
  // Slot i takes in slot j.
  __device__ __forceinline__ void merge(int i, int j) {
    Acc a = load(i);
    a.merge(load(j));
    store(i, a);
  }
};

// All 32 lanes of the warp take part; lane 0 ends with the warp's total.
template <class Acc>
__device__ __forceinline__ Acc warp_reduce(Acc a) {
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset >>= 1) a.merge(a.shuffled_down(offset));
  return a;
}

// Every thread of the block takes part; thread 0 ends with the block's total.
// `warp_totals`: shared memory for one Acc per warp. Ends with a barrier, so the caller
// may reuse shared memory at once.
template <class Acc, int kWarps>
__device__ __forceinline__ Acc block_reduce_shuffle(Acc a, Acc* warp_totals) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int warp = static_cast<int>(threadIdx.x / 32);
  a = warp_reduce(a);
  if (lane == 0) warp_totals[warp] = a;
  __syncthreads();
  if (warp == 0) {
    a = lane < kWarps ? warp_totals[lane] : Acc::identity();
    a = warp_reduce(a);
  }
  __syncthreads();
  return a;
}

}  // namespace gpufilter::kernels
