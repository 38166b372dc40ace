#pragma once
// For the GPU tests of one kernel: a border constant of a different value a channel, and
// a run on device copies of host images, as whole images or as sub-views `pad` pixels in
// from a larger buffer's corner (rows that start off the buffer's alignment); for a filter
// kernel, that run on random pixels against the reference.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::testing {

// `mode`, with a constant of about 0.2, 0.5, 0.9 and 0.4 of the range, in the format's units.
inline Border border_with_constant(BorderMode mode, PixelFormat format) {
  Border border{mode, {}};
  const double shares[] = {0.2, 0.5, 0.9, 0.4};
  for (int c = 0; c < 4; ++c)
    border.value[static_cast<std::size_t>(c)] =
        format.type == ChannelType::F32 ? shares[c] : std::round(shares[c] * format.max_value());
  return border;
}

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

// A filter spec under test, named, with the op whose tolerance judges it.
struct NamedSpec {
  std::string name;
  FilterSpec spec;
  const char* op;
};

// launch(src, dst, spec, border) on a w x h image of random pixels, whole or as a sub-view
// `pad` pixels in, expected within the tolerance the op gives `variant` against the
// reference; `mode`'s constant differs by channel (border_with_constant).
template <class Launch>
void expect_kernel_matches_reference(const NamedSpec& named, const char* variant, PixelFormat format, BorderMode mode,
                                     int w, int h, int pad, Launch&& launch) {
  const Tolerance tolerance = find_operation(named.op)->tolerance_for(format, variant);
  const Border border = border_with_constant(mode, format);
  HostImage host_src(w, h, format), expected(w, h, format), actual(w, h, format);
  fill_random(host_src.view(), static_cast<std::uint64_t>(w * 131 + h * 17 + format.channels));
  reference::apply_filter(host_src.view(), expected.view(), named.spec, border);
  poison_against(actual.view(), expected.view());
  run_on_padded_device_views(host_src.view(), actual.view(), pad, [&](const ImageView& src, const ImageView& dst) {
    launch(src, dst, named.spec, border);
  });
  const Difference diff = compare(actual.view(), expected.view());
  EXPECT_TRUE(diff.within(tolerance)) << named.name << " " << format.name() << " " << to_string(mode) << " " << w
                                      << "x" << h << " pad " << pad << ": " << diff.describe();
}

}  // namespace gpufilter::testing
