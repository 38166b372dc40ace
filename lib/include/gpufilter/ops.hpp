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
/// The copy the bench measures every op against (the roofline), each variant correct for
/// rows that start at any byte offset. The seeds' other copy experiments (int, int2, int4,
/// unrolled, grid-strided, __ldg, __ldcg) are the lab's (docs/lab.md).
enum class CopyVariant {
  Scalar,      ///< one channel element per thread
  Vectorized,  ///< 16-byte loads through the read-only path, 4 per thread (the default); rows
               ///< whose offsets mod 16 differ in src and dst run Scalar
};
/// Copies src into dst.
/// Preconditions: src and dst non-empty views of device memory, of equal size and format,
/// naturally aligned (a 4-channel pixel to its full size), at most 2^30 pixels wide, not
/// overlapping; any pitch. Throws Error(InvalidArgument) when they are not (host memory
/// included), Error(UnsupportedFormat) for a channel count other than 1, 3 or 4, and
/// Error(Cuda) when the launch fails. Does not synchronize: enqueued on ctx.stream.
void copy(const ImageView& src, const ImageView& dst, CopyVariant variant = CopyVariant::Vectorized,
          const ExecContext& ctx = {});
/// Throws Error(InvalidArgument) naming the choices for an unknown name.
CopyVariant copy_variant_from_name(const std::string& name);
/// The variant's name, as copy_variant_from_name() takes it; touches no GPU, does not throw.
const char* to_string(CopyVariant variant);
/// Every copy variant, in the order above; touches no GPU, does not throw.
const std::vector<CopyVariant>& all_copy_variants();

}  // namespace gpufilter
