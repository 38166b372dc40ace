#pragma once
// The operations (the convolution filters are in filters.hpp). Every op has the shape op(src, dst, params, [border], variant, ctx):
// src and dst are device views of equal size and format, dst is written, src is not;
// the work is enqueued on ctx.stream and the call returns without waiting for it.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/filters.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// ---- copy ---------------------------------------------------------------------
enum class CopyVariant {
  Scalar,      // one channel element per thread
  Vectorized,  // 16-byte loads and stores where src and dst rows allow them
};
void copy(const ImageView& src, const ImageView& dst, CopyVariant variant = CopyVariant::Vectorized,
          const ExecContext& ctx = {});
// "scalar" or "vectorized"; throws Error(InvalidArgument) naming the choices otherwise.
CopyVariant copy_variant_from_name(const std::string& name);

}  // namespace gpufilter
