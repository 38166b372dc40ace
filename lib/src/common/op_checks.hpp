#pragma once
// Checks every GPU op makes before launching: the caller's mistakes become clear
// Errors instead of illegal-address faults.
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::ops {

// Both views valid, equal in size and format, naturally aligned (4-channel pixels to
// their full size, so they move as one vector access).
void check_pair(const char* op, const ImageView& src, const ImageView& dst);
// One view's data and pitch aligned as check_pair asks (for ops whose src and dst differ
// in format); `role` is "source" or "destination".
void check_aligned(const char* op, const char* role, const ImageView& view);
// One valid input view in device memory, at most 2^30 pixels wide, aligned as check_pair
// asks (data ops: stats, histogram).
void check_device_source(const char* op, const ImageView& src);
// Both views in device memory (not host memory the GPU cannot read).
void check_device_pair(const char* op, const ImageView& src, const ImageView& dst);
// Throws when the two views' memory overlaps (a filter cannot run in place).
void check_no_overlap(const char* op, const ImageView& src, const ImageView& dst);
// The constant border value as the pixel type stores it: rounded and saturated for
// integer formats, so the GPU and the CPU reference use the same value.
Border representable_border(const Border& border, PixelFormat format);

}  // namespace gpufilter::ops
