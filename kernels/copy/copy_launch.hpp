#pragma once
// Launchers for the copy family (seeds 003 and 000: scalar vs int/int2/int4 copies,
// unrolling, grid-stride loops, read-only and L1-bypassing loads).
// src and dst are validated device views of equal size and format.
#include "copy_tuning.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One channel element per thread.
void launch_copy_scalar(const ImageView& src, const ImageView& dst, const ExecContext& ctx);
// 16-byte loads and stores (LDG.E.128) for the aligned body of each row, bytes for
// the unaligned head and tail, four chunks per thread through the read-only path.
// Needs src and dst rows to share their offset mod 16; returns false (launching
// nothing) when they do not.
bool launch_copy_vectorized(const ImageView& src, const ImageView& dst, const ExecContext& ctx);

// How a chunked copy loads (the seed's -dlcm=ca/cg experiment, through intrinsics so
// one build has every kind).
enum class CopyLoad {
  Plain,     // ld.global: L1 and L2 (LDG.E)
  ReadOnly,  // __ldg: the read-only / texture path (LDG.E.CONSTANT)
  Global,    // __ldcg: cached in L2 only, L1 bypassed (LDG.E.STRONG.GPU / .EF per arch)
};

struct CopyShape {
  int bytes = 16;            // per load and store: 4 (int), 8 (int2) or 16 (int4)
  int unroll = 1;            // chunks per thread: 1 or 4
  bool grid_stride = false;  // a grid of a few blocks per SM walking the rows, or one chunk group per thread
  CopyLoad load = CopyLoad::Plain;
  int threads = CopyTuning::kThreads;  // per block: a multiple of 32 in [32, 1024] (the block-size experiment)
};

// The aligned body of each row in `shape.bytes` pieces, the head and tail in bytes.
// Returns false (launching nothing) when src and dst rows do not share their offset
// mod shape.bytes.
bool launch_copy_chunks(const ImageView& src, const ImageView& dst, const CopyShape& shape, const ExecContext& ctx);

}  // namespace gpufilter::kernels
