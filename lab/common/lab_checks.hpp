#pragma once
// What the lab checks before it launches: the views the bench and the tests hand it are
// well formed, so these catch a lab variant wired to the wrong op, not a user's mistake
// (the library's ops check far more).
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::lab {

// Both views valid and in device memory; throws Error(InvalidArgument) naming `op`.
void check_device_views(const char* op, const ImageView& src, const ImageView& dst);
// One valid view in device memory (the data ops' source).
void check_device_source(const char* op, const ImageView& src);
// check_device_views, and src and dst of one size and format.
void check_same_shape(const char* op, const ImageView& src, const ImageView& dst);
// The constant border value as the pixel type stores it (rounded and saturated for
// integer formats), as the library's ops hand it to their kernels.
Border representable(const Border& border, PixelFormat format);

}  // namespace gpufilter::lab
