// Linear enlargement by exactly 2 on 8K 8-bit images: the integer kernel that resize's
// `fast` variant takes (resize_double_linear.cu) against the float window kernel it
// took before (resize_linear_up.cu), which the registry bench no longer reaches at 2x.
// Both are called through their launchers; each result must equal the other's.
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "geometry/geometry_launch.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/testing.hpp"
#include "memory_experiments.hpp"

namespace bench::memory {

void run_resize_double(Context& context) {
  using gpufilter::ChannelType;
  using gpufilter::DeviceImage;
  using gpufilter::HostImage;
  using gpufilter::ImageView;
  using gpufilter::PixelFormat;
  Table table({"format", "integer (resize_double_linear)", "float window (resize_linear_up)", "window / integer"});
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3},
                                   PixelFormat{ChannelType::U8, 4}}) {
    DeviceImage src(k8KWidth, k8KHeight, format), dst(2 * k8KWidth, 2 * k8KHeight, format);
    HostImage host_src(k8KWidth, k8KHeight, format);
    HostImage integer_result(2 * k8KWidth, 2 * k8KHeight, format), window_result(2 * k8KWidth, 2 * k8KHeight, format);
    gpufilter::testing::fill_random(host_src.view(), 29);
    gpufilter::copy_image_async(host_src.view(), src.view(), context.raw_stream());
    context.stream.synchronize();
    const std::size_t moved = src.view().row_bytes() * static_cast<std::size_t>(k8KHeight) +
                              dst.view().row_bytes() * static_cast<std::size_t>(2 * k8KHeight);
    const auto launched = [](bool taken, const char* kernel) {
      if (!taken)
        throw gpufilter::Error(gpufilter::ErrorCode::InvalidArgument, std::string(kernel) + " declined the views");
    };
    poison(context, dst.view());
    const auto integer_ms = context.measure(
        "resize_double/integer/" + format.name(), moved,
        [&] {
          launched(gpufilter::kernels::launch_resize_double_linear(src.view(), dst.view(), context.exec),
                   "resize_double_linear");
        },
        [&] {
          download(context, dst.view(), integer_result);
          return std::string();  // checked below, against the window kernel's result
        });
    poison(context, dst.view());
    const auto window_ms = context.measure(
        "resize_double/window/" + format.name(), moved,
        [&] {
          launched(gpufilter::kernels::launch_resize_linear_up(src.view(), dst.view(), context.exec),
                   "resize_linear_up");
        },
        [&] {
          download(context, dst.view(), window_result);
          return compare_bytes(window_result.view(), 0, integer_result.view(), 0, dst.view().row_bytes(), false);
        });
    table.add({format.name(), format_cell(moved, integer_ms), format_cell(moved, window_ms),
               format_ratio(window_ms, integer_ms)});
  }
  table.print("Resize 2x linear on 8K 8-bit images: integer kernel vs float window kernel",
              "7680 x 4320 to 15360 x 8640 (resize --scale 2 --filter linear); GB/s counts the source read once and "
              "the output written once. The two results must be equal byte for byte (a difference fails the "
              "window row); both equal the CPU reference in the GPU tests (ResizeDoubleGpu).");
}

}  // namespace bench::memory
