// Images the program already holds in its own CUDA memory (from cudaMalloc, another
// library, a decoder) are used in place through ImageViews: no copies, any pitch, and
// a sub-view filters one region of a larger frame.
#include <cuda_runtime_api.h>

#include <gpufilter/gpufilter.hpp>

#include "sample_check.hpp"

int main() {
  using namespace gpufilter;
  if (!has_device()) return sample::kNoGpu;
  const PixelFormat rgba{ChannelType::U8, 4};
  const int width = 1000, height = 700;
  const std::size_t pitch = width * rgba.pixel_bytes();  // tightly packed, as many libraries keep frames

  void* frame = nullptr;
  void* result = nullptr;
  if (cudaMalloc(&frame, pitch * height) != cudaSuccess || cudaMalloc(&result, pitch * height) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  HostImage input(width, height, rgba);
  sample::draw_test_image(input.view());
  const ImageView frame_view{frame, width, height, pitch, rgba};
  const ImageView result_view{result, width, height, pitch, rgba};
  copy_image_async(input.view(), frame_view, nullptr);

  // A 9x9 mean over the region of interest only; the views share the frames' memory.
  const int x = 200, y = 150, w = 500, h = 300;
  BoxParams box;
  box.width = 9;
  box_filter(frame_view.subview(x, y, w, h), result_view.subview(x, y, w, h), box, Border{BorderMode::Replicate},
             FilterVariant::Auto, ExecContext{nullptr});

  HostImage output(w, h, rgba), expected(w, h, rgba);
  copy_image_async(result_view.subview(x, y, w, h), output.view(), nullptr);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  reference::apply_filter(input.view().subview(x, y, w, h), expected.view(), box_spec(box),
                          Border{BorderMode::Replicate});
  const int code = sample::report("box 9x9 on a region of the caller's own cudaMalloc memory",
                                  sample::max_difference(output.view(), expected.view()));
  cudaFree(frame);
  cudaFree(result);
  return code;
}
