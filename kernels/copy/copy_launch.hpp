#pragma once
// Launchers for the copy family (seeds 003 and 000): the scalar copy and the vectorized
// one; the seeds' other copies are the lab's (lab/copy/copy_chunks_launch.hpp).
// src and dst are validated device views of equal size and format.
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

}  // namespace gpufilter::kernels
