#pragma once
// apply_filter() without validate(), for specs checked once when they were made (the
// filter ops keep their recent specs: filter_operations.cpp).
#include "gpufilter/filters.hpp"

namespace gpufilter::ops {

void apply_valid_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                        FilterVariant variant, const ExecContext& ctx);

}  // namespace gpufilter::ops
