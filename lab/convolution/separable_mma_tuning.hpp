#pragma once
// The tensor-core separable kernel (separable_mma.cuh; docs/techniques/convolution.md,
// "8-bit masks on tensor cores: separable_mma"): a block owns a band of kBand output
// columns and walks down it kStepRows rows a step; both passes are matrix products of
// the step's tile with the mask's banded (Toeplitz) matrix, 16 x 16 x 8 at a time.
#include <cstddef>

namespace gpufilter::lab {

struct SeparableMmaTuning {
  static constexpr int kWarps = 8;
  static constexpr int kThreads = 32 * kWarps;
  // Output rows a step: one matrix tile's rows (m16).
  static constexpr int kStepRows = 16;
  // Output columns a block: 16 a warp in the horizontal pass.
  static constexpr int kBand = 16 * kWarps;
  // Steps a block walks down before the next block takes over: the first reads its 16 + 2H
  // rows, each later one 16 (a ring of rows), so a strip reads (16(n + 1) + 2H) / 16n times
  // the rows it writes.
  static constexpr int kStepsPerStrip = 8;
  // k-steps of 16 a product takes (S): each pass reads 16 outputs' inputs plus a halo of
  // 8(S - 1) either side, the largest radius S compiles. Only S = 2 (radius 8, 17x17) is
  // built.
  static constexpr int kKSteps = 2;
  static constexpr int halo(int k_steps) { return 8 * (k_steps - 1); }
  static constexpr int kMaxRadius = 8 * (kKSteps - 1);
  // A step's input tile: 16S rows of kBand + 2 * halo columns, a plane of halves a channel.
  static constexpr int tile_rows(int k_steps) { return 16 * k_steps; }
  static constexpr int tile_columns(int k_steps) { return kBand + 2 * halo(k_steps); }
  // A plane's row stride in halves: an odd count of 16-byte chunks, so the 8 rows one
  // ldmatrix reads, and the 8 rows a warp's accumulators write, fall in different banks.
  static constexpr int row_stride(int k_steps) { return tile_columns(k_steps) + 8; }
  // Input planes: a channel each, and for premultiplied RGBA the colours' low halves
  // (a colour times its alpha needs 16 bits, a half holds 11).
  static constexpr int input_planes(int channels, bool premultiplied) {
    return channels + (premultiplied ? 3 : 0);
  }
  // The taps as the lanes' operand fragments: 12 x 16 bytes a lane.
  static constexpr std::size_t kFragmentBytes = 12 * 16 * 32;
  // Shared memory a block takes: the input planes, then the vertical pass's sums as a
  // high and a low half a channel (a half alone would round them to 11 bits), then the
  // taps' fragments.
  static constexpr std::size_t shared_bytes(int channels, bool premultiplied, int k_steps) {
    return static_cast<std::size_t>(2) * row_stride(k_steps) *
               (static_cast<std::size_t>(input_planes(channels, premultiplied)) * tile_rows(k_steps) +
                static_cast<std::size_t>(2 * channels) * kStepRows) +
           kFragmentBytes;
  }
  // Blocks an SM the kernels are compiled for (__launch_bounds__): what the shared
  // memory of RGBA (2) and RGB (3) allows; gray's would allow more, its registers hold 3.
  static constexpr int min_blocks(int channels) { return channels == 4 ? 2 : 3; }
  // The vertical sums go to halves as an integer of at most 512 and a fraction
  // (separable_mma.cuh, split_sums): from 8-bit values, taps whose magnitudes sum to 2 at most.
  static constexpr double kMaxAbsTapSum = 2.0;
};

}  // namespace gpufilter::lab
