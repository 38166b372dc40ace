#pragma once
// What both sides of the filter ops share: how each makes its FilterSpec from its
// parameters (filter_operations.cpp), and apply_filter() without validate(), for specs
// checked once when they were made (gpu/filter_dispatch.cpp, which binds their GPU side).
#include <optional>
#include <string>

#include "gpufilter/filters.hpp"
#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

using ToSpec = FilterSpec (*)(const ParamValues&);

// Whether an op's spec follows from its parameters alone, or also from files they name.
enum class SpecInputs { Params, ParamsAndFiles };

struct FilterOpSpec {
  ToSpec to_spec;
  SpecInputs inputs;
};

// The filter op named `op`'s; nullopt for an op that is not a convolution filter.
std::optional<FilterOpSpec> filter_op_spec(const std::string& op);

void apply_valid_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                        FilterVariant variant, const ExecContext& ctx);

}  // namespace gpufilter::ops
