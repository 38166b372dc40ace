// The lab's variants, gathered from the families, and the functions the bench and the
// tests run them with beside the library's own.
#include <algorithm>
#include <iterator>
#include <string>

#include "gpufilter/error.hpp"
#include "lab/lab.hpp"
#include "lab/lab_families.hpp"

namespace gpufilter::lab {
namespace {

// Where an op stands in the registry, so the lab's variants list in the same order.
std::size_t registry_position(const std::string& op) {
  const std::vector<Operation>& all = operations();
  const auto it = std::find_if(all.begin(), all.end(), [&](const Operation& o) { return o.name == op; });
  return static_cast<std::size_t>(std::distance(all.begin(), it));
}

}  // namespace

const std::vector<LabVariant>& lab_variants() {
  static const std::vector<LabVariant> all = [] {
    std::vector<LabVariant> list;
    for (auto family : {copy_lab_variants, conversion_lab_variants, filter_lab_variants, geometry_lab_variants,
                        reduction_lab_variants})
      for (LabVariant& variant : family()) list.push_back(std::move(variant));
    std::stable_sort(list.begin(), list.end(), [](const LabVariant& a, const LabVariant& b) {
      return registry_position(a.op) < registry_position(b.op);
    });
    return list;
  }();
  return all;
}

std::vector<const LabVariant*> lab_variants_of(const std::string& op) {
  std::vector<const LabVariant*> found;
  for (const LabVariant& variant : lab_variants())
    if (variant.op == op) found.push_back(&variant);
  return found;
}

const LabVariant* find_lab_variant(const std::string& op, const std::string& variant) {
  for (const LabVariant& v : lab_variants())
    if (v.op == op && v.variant == variant) return &v;
  return nullptr;
}

std::vector<std::string> library_and_lab_variants(const Operation& op) {
  std::vector<std::string> names = op.variants;
  for (const LabVariant* variant : lab_variants_of(op.name)) names.push_back(variant->variant);
  return names;
}

Tolerance tolerance_for(const LabVariant& variant, const Operation& op, PixelFormat format,
                        const ParamValues& params) {
  return variant.tolerance ? variant.tolerance(format) : op.tolerance_for(format, variant.variant, params);
}

void run_variant(const Operation& op, const std::string& variant, const ImageView& src, const ImageView& dst,
                 const ParamValues& params, const Border& border, const ExecContext& ctx) {
  if (op.has_variant(variant)) {
    op.run_gpu(src, dst, params, border, variant, ctx);
    return;
  }
  const LabVariant* lab = find_lab_variant(op.name, variant);
  if (lab == nullptr || !lab->run)
    throw Error(ErrorCode::InvalidArgument, op.name + ": neither the library nor the lab has a variant '" + variant + "'");
  lab->run(src, dst, params, border, ctx);
}

void run_data_variant(const Operation& op, const std::string& variant, const ImageView& src, double* result,
                      const ParamValues& params, const ExecContext& ctx) {
  if (op.has_variant(variant)) {
    op.run_gpu_data(src, result, params, variant, ctx);
    return;
  }
  const LabVariant* lab = find_lab_variant(op.name, variant);
  if (lab == nullptr || !lab->run_data)
    throw Error(ErrorCode::InvalidArgument, op.name + ": neither the library nor the lab has a variant '" + variant + "'");
  lab->run_data(src, result, params, ctx);
}

}  // namespace gpufilter::lab
