#pragma once
// Launchers for the copy family (seed 003: scalar vs 16-byte vectorized copies).
// src and dst are validated device views of equal size and format.
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One channel element per thread.
void launch_copy_scalar(const ImageView& src, const ImageView& dst, const ExecContext& ctx);
// 16-byte loads and stores (LDG.E.128) for the aligned body of each row, bytes for
// the unaligned head and tail. Needs src and dst rows to share their offset mod 16;
// returns false (launching nothing) when they do not.
bool launch_copy_vectorized(const ImageView& src, const ImageView& dst, const ExecContext& ctx);

}  // namespace gpufilter::kernels
