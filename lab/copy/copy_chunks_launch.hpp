#pragma once
// The seeds' copy experiments (003, 000) beyond the library's scalar and vectorized
// copies: int, int2 and int4 accesses, four 16-byte chunks in flight, a grid-stride loop,
// loads through __ldg or __ldcg, and any block size (gpufilter-memory-bench's block-size
// experiment). src and dst are validated device views of equal size and format.
#include "copy/copy_tuning.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

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
  int threads = kernels::CopyTuning::kThreads;  // per block: a multiple of 32 in [32, 1024]
};

// The aligned body of each row in `shape.bytes` pieces, the head and tail in bytes.
// Returns false (launching nothing) when src and dst rows do not share their offset
// mod shape.bytes; throws Error(InvalidArgument) for a shape the kernel has no form of.
bool launch_copy_chunks(const ImageView& src, const ImageView& dst, const CopyShape& shape, const ExecContext& ctx);

}  // namespace gpufilter::lab
