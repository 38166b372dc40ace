#include <cuda_runtime_api.h>

#include "gpufilter/error.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/reference.hpp"
#include "kernels/copy/copy_launch.hpp"
#include "ops/op_checks.hpp"
#include "ops/operations.hpp"
#include "ops/variant_table.hpp"

namespace gpufilter {
namespace {

const ops::VariantRow<CopyVariant> kCopyVariants[] = {
    {CopyVariant::Scalar, "scalar", "one channel element per thread (the naive copy)"},
    {CopyVariant::Vectorized, "vectorized", "16-byte loads through the read-only path, 4 per thread"},
};

}  // namespace

void copy(const ImageView& src, const ImageView& dst, CopyVariant variant, const ExecContext& ctx) {
  ops::check_pair("copy", src, dst);
  ops::check_device_pair("copy", src, dst);
  ops::check_no_overlap("copy", src, dst);
  // Rows whose offsets mod 16 differ cannot be moved in 16-byte pieces; the scalar
  // kernel copies them.
  if (variant == CopyVariant::Vectorized && kernels::launch_copy_vectorized(src, dst, ctx)) return;
  kernels::launch_copy_scalar(src, dst, ctx);
}

CopyVariant copy_variant_from_name(const std::string& name) { return ops::value_of(kCopyVariants, name, "copy"); }

const char* to_string(CopyVariant variant) { return ops::name_of(kCopyVariants, variant); }

const std::vector<CopyVariant>& all_copy_variants() {
  static const std::vector<CopyVariant> all = ops::values_of(kCopyVariants);
  return all;
}

namespace ops {

Operation make_copy_operation() {
  Operation op;
  op.name = "copy";
  op.group = OperationGroup::Formats;
  op.summary = "Copy the image unchanged (the bandwidth roofline)";
  op.formats = all_pixel_formats();
  op.variants = ops::names_of(kCopyVariants);
  op.default_variant = "vectorized";
  op.uses_border = false;
  op.run_gpu = [](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&,
                  const std::string& variant, const ExecContext& ctx) {
    copy(src, dst, copy_variant_from_name(variant), ctx);
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&) {
    reference::copy(src, dst);
  };
  op.tolerance = [](PixelFormat) { return 0.0; };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_copy_operation);

}  // namespace ops
}  // namespace gpufilter
