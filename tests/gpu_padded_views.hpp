#pragma once
// For the GPU tests of one kernel: runs it on device copies of host images, as whole
// images or as sub-views `pad` pixels in from a larger buffer's corner (rows that start
// off the buffer's alignment), and copies the result back.
#include <cuda_runtime_api.h>

#include "gpufilter/gpufilter.hpp"

namespace gpufilter::testing {

// Copies host_src and host_dst (poisoned by the caller) to the device, `pad` pixels in,
// calls launch(src, dst) on the two device views and copies dst back into host_dst.
template <class Launch>
void run_on_padded_device_views(const ImageView& host_src, const ImageView& host_dst, int pad, Launch&& launch) {
  const int w = host_src.width, h = host_src.height;
  DeviceImage src_buffer(w + 2 * pad, h + 2 * pad, host_src.format);
  DeviceImage dst_buffer(w + 2 * pad, h + 2 * pad, host_dst.format);
  const ImageView src = src_buffer.view().subview(pad, pad, w, h);
  const ImageView dst = dst_buffer.view().subview(pad, pad, w, h);
  copy_image_async(host_src, src, nullptr);
  copy_image_async(host_dst, dst, nullptr);
  launch(src, dst);
  copy_image_async(dst, host_dst, nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace gpufilter::testing
