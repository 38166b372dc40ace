// copy() on the GPU, and the copy op's GPU side.
#include "gpufilter/ops.hpp"
#include "kernels/copy/copy_launch.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"

namespace gpufilter {

void copy(const ImageView& src, const ImageView& dst, CopyVariant variant, const ExecContext& ctx) {
  ops::check_pair("copy", src, dst);
  ops::check_device_pair("copy", src, dst);
  ops::check_no_overlap("copy", src, dst);
  // Rows whose offsets mod 16 differ cannot be moved in 16-byte pieces; the scalar
  // kernel copies them.
  if (variant == CopyVariant::Vectorized && kernels::launch_copy_vectorized(src, dst, ctx)) return;
  kernels::launch_copy_scalar(src, dst, ctx);
}

namespace {

void bind_copy(Operation& op) {
  op.run_gpu = [](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&,
                  const std::string& variant, const ExecContext& ctx) {
    copy(src, dst, copy_variant_from_name(variant), ctx);
  };
}

GPUFILTER_BIND_GPU("copy", bind_copy);

}  // namespace
}  // namespace gpufilter
