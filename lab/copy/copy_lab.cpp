// The copy family's lab variants: the seeds' copy experiments (003, 000) beyond the
// library's scalar and vectorized copies. Rows whose offsets the access width does not
// allow take the library's scalar copy, as its vectorized one does.
#include <string>
#include <utility>

#include "gpufilter/ops.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/copy/copy_chunks_launch.hpp"
#include "lab/lab_families.hpp"

namespace gpufilter::lab {
namespace {

LabVariant chunked(std::string name, std::string help, CopyShape shape) {
  LabVariant v;
  v.op = "copy";
  v.variant = std::move(name);
  v.help = std::move(help);
  v.run = [shape](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&,
                  const ExecContext& ctx) {
    check_same_shape("copy", src, dst);
    if (!launch_copy_chunks(src, dst, shape, ctx)) copy(src, dst, CopyVariant::Scalar, ctx);
  };
  return v;
}

CopyShape shape_of(int bytes, int unroll, bool grid_stride, CopyLoad load) {
  CopyShape shape;
  shape.bytes = bytes;
  shape.unroll = unroll;
  shape.grid_stride = grid_stride;
  shape.load = load;
  return shape;
}

}  // namespace

std::vector<LabVariant> copy_lab_variants() {
  return {
      chunked("int", "one 4-byte load and store per thread", shape_of(4, 1, false, CopyLoad::Plain)),
      chunked("int2", "one 8-byte load and store per thread", shape_of(8, 1, false, CopyLoad::Plain)),
      chunked("int4", "one 16-byte load and store per thread", shape_of(16, 1, false, CopyLoad::Plain)),
      chunked("grid_stride", "16-byte accesses, a fixed grid of a few blocks per SM looping over the row",
              shape_of(16, 1, true, CopyLoad::Plain)),
      chunked("unroll4", "four 16-byte plain loads in flight per thread", shape_of(16, 4, false, CopyLoad::Plain)),
      chunked("ldg", "one 16-byte load per thread through __ldg (the read-only path)",
              shape_of(16, 1, false, CopyLoad::ReadOnly)),
      chunked("cg", "one 16-byte load per thread through __ldcg (L2 only, L1 bypassed)",
              shape_of(16, 1, false, CopyLoad::Global)),
  };
}

}  // namespace gpufilter::lab
