// Several ops on one stream, with the intermediate images staying on the GPU: blur,
// then sharpen, then the edges' magnitude. Nothing waits until the result is needed.
#include <gpufilter/gpufilter.hpp>

#include "sample_check.hpp"

int main() {
  using namespace gpufilter;
  if (!has_device()) return sample::kNoGpu;
  const PixelFormat rgba{ChannelType::U8, 4};
  const int width = 800, height = 600;
  HostImage input(width, height, rgba), output(width, height, rgba);
  sample::draw_test_image(input.view());

  const GaussianParams blur{1.5};
  SharpenParams detail;
  detail.sigma = 2.0;
  detail.amount = 0.7;
  EdgeParams edges;  // Sobel magnitude, alpha kept

  Stream stream;
  const ExecContext ctx{stream.get()};
  DeviceImage a(width, height, rgba), b(width, height, rgba);
  copy_image_async(input.view(), a.view(), stream.get());
  gaussian_blur(a.view(), b.view(), blur, Border{}, FilterVariant::Auto, ctx);
  sharpen(b.view(), a.view(), detail, Border{}, FilterVariant::Auto, ctx);
  edge_detect(a.view(), b.view(), edges, Border{}, FilterVariant::Auto, ctx);
  copy_image_async(b.view(), output.view(), stream.get());
  stream.synchronize();  // the only wait

  HostImage x(width, height, rgba), y(width, height, rgba);
  reference::gaussian_blur(input.view(), x.view(), blur);
  reference::apply_filter(x.view(), y.view(), sharpen_spec(detail));
  reference::apply_filter(y.view(), x.view(), edge_spec(edges));
  // Each stage may round one level differently; the edges then see that difference.
  const int difference = sample::max_difference(output.view(), x.view());
  std::printf("blur -> sharpen -> edges: largest difference from the CPU reference %d level(s)\n", difference);
  return difference <= 8 ? 0 : 1;
}
