#pragma once
// For runs from host memory through a GPU: a stream and device buffers per thread and
// device, kept while the shapes repeat, so a loop over equal images allocates once.
#include <cstddef>

#include "gpufilter/images.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::capi {

struct Workspace {
  Stream stream;
  DeviceImage src;
  DeviceImage dst;
  DeviceData data;
  // src and dst of these shapes (reallocated only when they differ), or data of `count`.
  void fit(DeviceImage& image, const ImageShape& shape);
  void fit_data(std::size_t count);
};

// The calling thread's workspace on the current device (made on first use).
Workspace& thread_workspace();

}  // namespace gpufilter::capi
