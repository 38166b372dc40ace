#pragma once
/// @file
/// The operations (the convolution filters are in filters.hpp). Every op has the shape op(src, dst, params, [border], variant, ctx):
/// src and dst are device views of equal size and format, dst is written, src is not;
/// the work is enqueued on ctx.stream and the call returns without waiting for it
/// (unless ExecContext::sync_after_launch is set; see stream.hpp).
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/filters.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// ---- copy ---------------------------------------------------------------------
/// The seeds' copy experiments, each correct for rows that start at any byte offset
/// (a variant whose access width src and dst rows do not share falls back to scalar).
enum class CopyVariant {
  Scalar,      ///< one channel element per thread
  Vectorized,  ///< 16-byte loads through the read-only path, 4 per thread (the default)
  Int,         ///< one 4-byte load and store per thread
  Int2,        ///< one 8-byte load and store per thread
  Int4,        ///< one 16-byte load and store per thread
  GridStride,  ///< 16-byte accesses, a fixed grid of a few blocks per SM looping over the row
  Unroll4,     ///< four 16-byte plain loads in flight per thread
  Ldg,         ///< one 16-byte load per thread through `__ldg` (read-only path)
  Cg,          ///< one 16-byte load per thread through `__ldcg` (cached in L2 only, L1 bypassed)
};
/// Copies src into dst.
/// Preconditions: src and dst non-empty views of device memory, of equal size and format,
/// naturally aligned (a 4-channel pixel to its full size), at most 2^30 pixels wide, not
/// overlapping; any pitch. Throws Error(InvalidArgument) when they are not (host memory
/// included), Error(UnsupportedFormat) for a channel count other than 1, 3 or 4, and
/// Error(Cuda) when the launch fails. Does not synchronize: enqueued on ctx.stream.
void copy(const ImageView& src, const ImageView& dst, CopyVariant variant = CopyVariant::Vectorized,
          const ExecContext& ctx = {});
/// "scalar", "vectorized", "int", "int2", "int4", "grid_stride", "unroll4", "ldg", "cg";
/// throws Error(InvalidArgument) naming the choices otherwise.
CopyVariant copy_variant_from_name(const std::string& name);
/// The variant's name, as copy_variant_from_name() takes it; touches no GPU, does not throw.
const char* to_string(CopyVariant variant);
/// Every copy variant, in the order above; touches no GPU, does not throw.
const std::vector<CopyVariant>& all_copy_variants();

}  // namespace gpufilter
