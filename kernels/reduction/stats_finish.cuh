#pragma once
// The last step of every stats kernel: the grid's total as the doubles of the result.
#include <cuda_runtime.h>

#include <type_traits>

#include "gpufilter/reduction_types.hpp"
#include "reduction/stats_accumulator.cuh"
#include "reduction/stats_position.hpp"

namespace gpufilter::kernels {

// The doubles of channel c's row, from the grid's total.
template <class T, int C>
__device__ void write_stats_channel(const StatsAcc<T, C>& a, int c, double* result, int width, unsigned long long n) {
  double* row = result + c * kStatsColumns;
  // A position still unset means no sample beat the sentinel (an f32 image of +inf
  // only, or -inf for the maximum): then the first pixel is the first occurrence.
  const unsigned long long min_pos = a.min_pos[c] == kNoPosition ? 0 : a.min_pos[c];
  const unsigned long long max_pos = a.max_pos[c] == kNoPosition ? 0 : a.max_pos[c];
  double sum = 0.0, mean = 0.0, variance = 0.0;
  const double count = static_cast<double>(n);
  if constexpr (std::is_same_v<T, float>) {
    sum = a.sum[c];
    mean = sum / count;
    variance = fmax(0.0, a.sum_sq[c] / count - mean * mean);
  } else {
    // Exact: n * sum_sq - sum^2 in 128 bits, then one rounding.
    const unsigned long long s = a.sum[c];
    const unsigned __int128 spread = static_cast<unsigned __int128>(n) * a.sum_sq[c] -
                                     static_cast<unsigned __int128>(s) * s;
    const double spread_d = static_cast<double>(static_cast<unsigned long long>(spread >> 64)) * 18446744073709551616.0 +
                            static_cast<double>(static_cast<unsigned long long>(spread));
    sum = static_cast<double>(s);
    mean = sum / count;
    variance = spread_d / count / count;
  }
  row[static_cast<int>(StatsColumn::Min)] = static_cast<double>(a.min[c]);
  row[static_cast<int>(StatsColumn::Max)] = static_cast<double>(a.max[c]);
  row[static_cast<int>(StatsColumn::Sum)] = sum;
  row[static_cast<int>(StatsColumn::Mean)] = mean;
  row[static_cast<int>(StatsColumn::StdDev)] = sqrt(variance);
  const PixelXY at_min = position_xy(min_pos, static_cast<unsigned>(width), n);
  const PixelXY at_max = position_xy(max_pos, static_cast<unsigned>(width), n);
  row[static_cast<int>(StatsColumn::MinX)] = static_cast<double>(at_min.x);
  row[static_cast<int>(StatsColumn::MinY)] = static_cast<double>(at_min.y);
  row[static_cast<int>(StatsColumn::MaxX)] = static_cast<double>(at_max.x);
  row[static_cast<int>(StatsColumn::MaxY)] = static_cast<double>(at_max.y);
}

// Every channel's row, by one thread.
template <class T, int C>
__device__ void write_stats(const StatsAcc<T, C>& a, double* result, int width, unsigned long long n) {
  for (int c = 0; c < C; ++c) write_stats_channel(a, c, result, width, n);
}

}  // namespace gpufilter::kernels
