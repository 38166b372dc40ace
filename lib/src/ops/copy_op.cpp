#include <cuda_runtime_api.h>

#include "gpufilter/error.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/reference.hpp"
#include "kernels/copy/copy_launch.hpp"
#include "ops/op_checks.hpp"
#include "ops/operations.hpp"

namespace gpufilter {
namespace {

struct NamedCopy {
  CopyVariant variant;
  const char* name;
};
constexpr NamedCopy kCopyVariants[] = {
    {CopyVariant::Scalar, "scalar"},           {CopyVariant::Vectorized, "vectorized"}, {CopyVariant::Int, "int"},
    {CopyVariant::Int2, "int2"},               {CopyVariant::Int4, "int4"},
    {CopyVariant::GridStride, "grid_stride"},  {CopyVariant::Unroll4, "unroll4"},       {CopyVariant::Ldg, "ldg"},
    {CopyVariant::Cg, "cg"},
};

// The chunked kernel's shape for each variant beyond scalar and vectorized.
kernels::CopyShape shape_of(CopyVariant variant) {
  kernels::CopyShape shape;
  switch (variant) {
    case CopyVariant::Int: shape.bytes = 4; break;
    case CopyVariant::Int2: shape.bytes = 8; break;
    case CopyVariant::GridStride: shape.grid_stride = true; break;
    case CopyVariant::Unroll4: shape.unroll = 4; break;
    case CopyVariant::Ldg: shape.load = kernels::CopyLoad::ReadOnly; break;
    case CopyVariant::Cg: shape.load = kernels::CopyLoad::Global; break;
    default: break;  // Int4: one plain 16-byte access per thread
  }
  return shape;
}

}  // namespace

void copy(const ImageView& src, const ImageView& dst, CopyVariant variant, const ExecContext& ctx) {
  ops::check_pair("copy", src, dst);
  ops::check_device_pair("copy", src, dst);
  ops::check_no_overlap("copy", src, dst);
  // Rows whose offsets mod the access width differ cannot be moved in such pieces;
  // the scalar kernel copies them.
  switch (variant) {
    case CopyVariant::Scalar: break;
    case CopyVariant::Vectorized:
      if (kernels::launch_copy_vectorized(src, dst, ctx)) return;
      break;
    default:
      if (kernels::launch_copy_chunks(src, dst, shape_of(variant), ctx)) return;
      break;
  }
  kernels::launch_copy_scalar(src, dst, ctx);
}

CopyVariant copy_variant_from_name(const std::string& name) {
  for (const NamedCopy& v : kCopyVariants)
    if (name == v.name) return v.variant;
  std::string names;
  for (const NamedCopy& v : kCopyVariants) names += (names.empty() ? "" : ", ") + std::string(v.name);
  throw Error(ErrorCode::InvalidArgument, "copy: unknown variant '" + name + "'; use one of " + names);
}

const char* to_string(CopyVariant variant) {
  for (const NamedCopy& v : kCopyVariants)
    if (v.variant == variant) return v.name;
  return "unknown";
}

const std::vector<CopyVariant>& all_copy_variants() {
  static const std::vector<CopyVariant> all = [] {
    std::vector<CopyVariant> list;
    for (const NamedCopy& v : kCopyVariants) list.push_back(v.variant);
    return list;
  }();
  return all;
}

namespace ops {

Operation make_copy_operation() {
  Operation op;
  op.name = "copy";
  op.summary = "Copy the image unchanged (the bandwidth roofline)";
  op.formats = all_pixel_formats();
  for (CopyVariant variant : all_copy_variants()) op.variants.emplace_back(to_string(variant));
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

}  // namespace ops
}  // namespace gpufilter
