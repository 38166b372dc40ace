// The naive blur, as in seed 004's first kernel: one thread per output pixel, the
// full 2-D mask read from global memory, and the border decided by a runtime branch
// at every tap.
#include "common/border.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "convolution/convolution_launch.hpp"
#include "convolution/convolution_tuning.hpp"

namespace gpufilter::kernels {
namespace {

struct Weights1D {
  float w[ConvolutionTuning::kMaxTaps];
};

// Expands the 1-D weights (a kernel parameter) into the 2-D mask in global memory,
// on the stream, so building the mask never blocks the host.
__global__ void build_mask_2d_kernel(Weights1D weights, int taps, float* mask) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < taps * taps) mask[i] = weights.w[i / taps] * weights.w[i % taps];
}

__device__ int naive_border_index(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BorderMode::Constant: return -1;
    case BorderMode::Replicate: return BorderReplicate::map(i, n);
    case BorderMode::Reflect: return BorderReflect::map(i, n);
    case BorderMode::Reflect101: return BorderReflect101::map(i, n);
    case BorderMode::Wrap: return BorderWrap::map(i, n);
  }
  return -1;
}

template <class T, int C>
__global__ void gaussian_naive_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, const float* mask, int radius,
                                      BorderMode mode, Pixel<T, C> constant) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const int taps = 2 * radius + 1;
  // Rows beyond gridDim.y (at most 65535 blocks) are walked with a stride.
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    Accum<C> sum = zero_accum<C>();
    for (int dy = -radius; dy <= radius; ++dy) {
      for (int dx = -radius; dx <= radius; ++dx) {
        const float w = mask[(dy + radius) * taps + dx + radius];
        const int sx = naive_border_index(x + dx, src.width, mode);
        const int sy = naive_border_index(y + dy, src.height, mode);
        accumulate(sum, w, (sx < 0 || sy < 0) ? constant : src.at(sx, sy));
      }
    }
    dst.at(x, y) = to_pixel<T, C>(sum);
  }
}

// The 2-D mask's device memory, freed on the stream however the launch ends.
class StreamBuffer {
 public:
  StreamBuffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    GPUFILTER_CUDA_CHECK(cudaMallocAsync(&data_, bytes, stream));
  }
  ~StreamBuffer() { cudaFreeAsync(data_, stream_); }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  float* get() const { return static_cast<float*>(data_); }

 private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace

void launch_gaussian_naive(const ImageView& src, const ImageView& dst, const std::vector<float>& weights,
                           const Border& border, const ExecContext& ctx) {
  const int taps = static_cast<int>(weights.size());
  const int radius = taps / 2;
  Weights1D w1{};
  std::copy(weights.begin(), weights.end(), w1.w);

  const StreamBuffer mask_buffer(sizeof(float) * static_cast<std::size_t>(taps * taps), ctx.stream);
  float* mask = mask_buffer.get();
  build_mask_2d_kernel<<<grid_x(blocks_for(taps * taps, 256), "build_mask_2d_kernel"), 256, 0, ctx.stream>>>(
      w1, taps, mask);
  check_launch("build_mask_2d_kernel", ctx);

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Pixel<T, C> constant{};
    for (int c = 0; c < C; ++c) constant.c[c] = static_cast<T>(border.value[static_cast<std::size_t>(c)]);
    const dim3 block(ConvolutionTuning::kNaiveBlock, ConvolutionTuning::kNaiveBlock);
    const dim3 grid(grid_x(blocks_for(src.width, ConvolutionTuning::kNaiveBlock), "gaussian_naive_kernel"),
                    grid_y(blocks_for(src.height, ConvolutionTuning::kNaiveBlock)));
    gaussian_naive_kernel<T, C><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), mask, radius,
                                                                border.mode, constant);
  });
  check_launch("gaussian_naive_kernel", ctx);
}

}  // namespace gpufilter::kernels
