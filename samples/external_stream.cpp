// gpufilter on a stream that belongs to someone else: a CUDA stream made by the
// program, or the handle a CuPy or PyTorch stream exposes (stream.ptr,
// torch.cuda.current_stream().cuda_stream), passed as it is. The op is ordered after
// the stream's earlier work and before its later work, with no synchronisation of its own.
#include <cuda_runtime_api.h>

#include <gpufilter/gpufilter.hpp>

#include "sample_check.hpp"

int main() {
  using namespace gpufilter;
  if (!has_device()) return sample::kNoGpu;
  cudaStream_t theirs = nullptr;  // as another library would hand it over
  if (cudaStreamCreateWithFlags(&theirs, cudaStreamNonBlocking) != cudaSuccess) return 1;

  const PixelFormat gray{ChannelType::U8, 1};
  const int width = 1280, height = 720;
  HostImage input(width, height, gray), output(width, height, gray);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) input.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>((x * y) % 251);

  DeviceImage src(width, height, gray), dst(width, height, gray);
  const StreamHandle stream = theirs;  // the same pointer type: no cast
  copy_image_async(input.view(), src.view(), stream);                 // their earlier work
  edge_detect(src.view(), dst.view(), EdgeParams{EdgeOperator::Scharr, EdgeDirection::X}, Border{},
              FilterVariant::Auto, ExecContext{stream});
  copy_image_async(dst.view(), output.view(), stream);                // their later work
  if (cudaStreamSynchronize(theirs) != cudaSuccess) return 1;

  HostImage expected(width, height, gray);
  reference::apply_filter(input.view(), expected.view(), edge_spec(EdgeParams{EdgeOperator::Scharr, EdgeDirection::X}));
  const int code = sample::report("Scharr d/dx on an external stream",
                                  sample::max_difference(output.view(), expected.view()));
  cudaStreamDestroy(theirs);
  return code;
}
