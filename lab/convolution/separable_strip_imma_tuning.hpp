#pragma once
// The strip kernel with its vertical pass on the 8-bit integer tensor cores
// (separable_strip_imma.cuh; docs/techniques/convolution.md, "The strip's vertical pass on
// integer tensor cores"): RGBA8, a block a band of kBand output columns walking down a strip,
// kRows rows a step.
#include <cstddef>

#include "convolution/fixed_strip_plan.hpp"

namespace gpufilter::lab {

struct ImmaStripTuning {
  // Output rows a step: the product's M (mma.m16n8k32: 16 output rows of 8 byte columns
  // from 32 input rows).
  static constexpr int kRows = 16;
  // Input rows a step reads: the product's K. 16 outputs and R rows either side.
  static constexpr int kWindow = 32;
  static constexpr int kMaxRadius = (kWindow - kRows) / 2;
  // The horizontal pass as the float strip's: a warp a row of the step, runs of kRun
  // pixels (odd: the lanes' runs start in different banks), each thread two rows.
  static constexpr int kRun = 7;
  static constexpr int kRuns = 32;
  static constexpr int kThreads = 256;
  static constexpr int kBand = kRun * kRuns;
  // Three blocks an SM: their sums (16 rows of 16-byte pixels) take 62 KB a block.
  static constexpr int kMinBlocks = 3;
  // The band and its halo; a row of sums is one pixel longer (an odd count of 16-byte
  // pixels), so the two rows of sums a quarter-warp writes fall in different banks.
  static constexpr int columns(int radius) { return kBand + 2 * radius; }
  static constexpr int row_stride(int radius) { return columns(radius) + 1; }
  // Blocks of 8 pixel columns: one product's N, a lane's column each.
  static constexpr int groups(int radius) { return (columns(radius) + 7) / 8; }
  // Shared memory a block takes: the sums, the row table (an offset and a constant flag a
  // window row), the taps' fragments (separable_strip_imma.cuh, kShape 4).
  static constexpr std::size_t shared_bytes(int radius) {
    return static_cast<std::size_t>(kRows) * row_stride(radius) * 16 + kWindow * (sizeof(long long) + 1) + 8 +
           2 * 4 * 32 * sizeof(unsigned);
  }
  // The kernel's form (separable_strip_imma.cuh, kShape).
  static constexpr int kShape = 0;
  // Strips of 1 or 2 steps, as the grid's last wave fills best.
  static constexpr kernels::StepStrips kStrips{kRows, 2, 0.01};
  // The vertical taps as 16-bit integers (16 fraction bits, the factor summing to 2^16):
  // two products a tap, its high and its low byte.
  static constexpr int kWeightBits = 16;
};

}  // namespace gpufilter::lab
