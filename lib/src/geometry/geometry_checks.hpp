#pragma once
// The checks of ops whose output has another shape than their input.
#include "gpufilter/image_view.hpp"

namespace gpufilter::ops {

// Both views valid, naturally aligned, in device memory, apart, of one format, and
// dst out_width x out_height; throws Error(InvalidArgument) naming `op` otherwise.
void check_reshaping_pair(const char* op, const ImageView& src, const ImageView& dst, int out_width, int out_height);

}  // namespace gpufilter::ops
