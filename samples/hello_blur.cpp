// The library's hello world: blur a synthetic image on the GPU and check one pixel
// against the CPU reference. Build target: gpufilter-hello.
#include <gpufilter/gpufilter.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  using namespace gpufilter;
  if (!has_device()) {
    std::printf("no CUDA device (%s)\n", no_device_reason().c_str());
    return 0;
  }
  const PixelFormat rgba{ChannelType::U8, 4};
  const int width = 640, height = 480;

  HostImage input(width, height, rgba), output(width, height, rgba);
  for (int y = 0; y < height; ++y)  // a diagonal gradient
    for (int x = 0; x < width * 4; ++x) input.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>((x / 4 + y) % 256);

  Stream stream;
  DeviceImage src(width, height, rgba), dst(width, height, rgba);
  copy_image_async(input.view(), src.view(), stream.get());
  gaussian_blur(src.view(), dst.view(), GaussianParams{2.0}, Border{BorderMode::Reflect101}, FilterVariant::Auto,
                ExecContext{stream.get()});
  copy_image_async(dst.view(), output.view(), stream.get());
  stream.synchronize();

  HostImage expected(width, height, rgba);
  reference::gaussian_blur(input.view(), expected.view(), GaussianParams{2.0});
  std::printf("pixel (100, 100): gpu %d, cpu %d\n", output.view().row<std::uint8_t>(100)[400],
              expected.view().row<std::uint8_t>(100)[400]);
  return 0;
}
