// The C++ side of bench/python's per-call overhead: the host time of one registry op call
// on a small image (device memory, one stream), the floor a binding's call adds to.
// Usage: gpufilter-call-overhead [OP] [WIDTH] [HEIGHT] [CALLS]; prints JSON.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gpufilter/gpufilter.hpp>

int main(int argc, char** argv) {
  using namespace gpufilter;
  const std::string name = argc > 1 ? argv[1] : "blur";
  const int width = argc > 2 ? std::atoi(argv[2]) : 64;
  const int height = argc > 3 ? std::atoi(argv[3]) : 64;
  const int calls = argc > 4 ? std::atoi(argv[4]) : 20000;
  if (!has_device()) {
    std::fprintf(stderr, "gpufilter-call-overhead: no CUDA device (%s)\n", no_device_reason().c_str());
    return 1;
  }
  const Operation* op = find_operation(name);
  if (op == nullptr || !op->produces_image()) {
    std::fprintf(stderr, "gpufilter-call-overhead: no image op '%s'\n", name.c_str());
    return 2;
  }
  const PixelFormat rgba{ChannelType::U8, 4};
  const ParamValues params = op->resolve({});
  const ImageShape out = op->output_shape_for(ImageShape{width, height, rgba}, params);
  DeviceImage src(width, height, rgba), dst(out.width, out.height, out.format);
  Stream stream;
  const ExecContext context{stream.get()};
  auto run = [&] { op->run_gpu(src.view(), dst.view(), params, Border{}, op->default_variant, context); };
  for (int i = 0; i < 200; ++i) run();  // warm-up: kernels loaded, caches filled
  stream.synchronize();
  // As the Python side measures: back-to-back calls, the stream waited for at the end.
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) run();
  stream.synchronize();
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"op\": \"%s\", \"width\": %d, \"height\": %d, \"calls\": %d, \"us_per_call\": %.3f}\n", name.c_str(),
              width, height, calls, us / calls);
  return 0;
}
