#pragma once
// What gpufilter_request_create checked once: the op, its resolved parameters, the
// border and the kernel, run many times by gpufilter_request_run.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter_c.h"

struct gpufilter_request {
  const gpufilter::Operation* op = nullptr;
  gpufilter::ParamValues params;  // resolved: defaults filled, ranges checked
  gpufilter::Border border;
  // As given: whether they fit the pixels is judged once an image's format is known.
  std::vector<double> border_values;
  std::string variant;
};

namespace gpufilter::capi {

// The library's view of a C image; throws Error(InvalidArgument) for an unknown channel
// type (the rest is checked by the ops).
ImageView to_view(const gpufilter_image& image);
gpufilter_image to_c_image(const ImageShape& shape);
// The request's border for pixels of `format`: each constant a channel can hold (u8:
// whole numbers 0..255, u16: 0..65535, f32: any), else Error(InvalidArgument).
Border border_for(const gpufilter_request& request, PixelFormat format);
// Error(UnsupportedFormat) unless the op takes `format`.
void check_format(const gpufilter_request& request, PixelFormat format);

}  // namespace gpufilter::capi
