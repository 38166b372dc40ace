// The copy op: its variants' names and its registry entry (its GPU side: gpu/copy_gpu.cpp).
#include "gpufilter/error.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/reference.hpp"
#include "common/operations.hpp"
#include "common/variant_table.hpp"

namespace gpufilter {
namespace {

const ops::VariantRow<CopyVariant> kCopyVariants[] = {
    {CopyVariant::Scalar, "scalar", "one channel element per thread (the naive copy)"},
    {CopyVariant::Vectorized, "vectorized", "16-byte loads through the read-only path, 4 per thread"},
};

}  // namespace

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
