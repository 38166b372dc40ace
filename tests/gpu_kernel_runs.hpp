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
#include <cstring>
#include <string>
#include <vector>

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

// The rank-1 masks the 8-bit tensor-core kernels are held to, up to radius `max_radius`: the
// default blur (13x13) in every alpha mode, 3x3, 7x15 (a 5x7 mask centred in a taller
// window), the widest (17x17 at radius 8), a 5x5 box, a bias (the general output rule), and
// the Unsharp rule at 7x7 and at sharpen's default.
inline std::vector<NamedSpec> rank_one_masks(int max_radius) {
  const auto with_alpha = [](FilterSpec spec, AlphaMode alpha) {
    spec.alpha = alpha;
    return spec;
  };
  std::vector<NamedSpec> list;
  const FilterSpec blur = gaussian_spec(GaussianParams{});  // the default: sigma 2, 13x13
  list.push_back({"gaussian_13x13", blur, "blur"});
  list.push_back({"gaussian_13x13_separate", with_alpha(blur, AlphaMode::Separate), "blur"});
  list.push_back({"gaussian_13x13_keep", with_alpha(blur, AlphaMode::Keep), "blur"});
  list.push_back({"gaussian_3x3", gaussian_spec(GaussianParams{0.6, 1}), "blur"});
  GaussianParams oblong{1.0, 3};
  oblong.sigma_y = 2.3;  // 7 wide, 15 tall
  oblong.radius_y = 7;
  list.push_back({"gaussian_7x15", gaussian_spec(oblong), "blur"});
  list.push_back({"gaussian_" + std::to_string(2 * max_radius + 1) + "x" + std::to_string(2 * max_radius + 1),
                  gaussian_spec(GaussianParams{2.7, max_radius}), "blur"});
  list.push_back({"box_5x5", box_spec(BoxParams{5, 5, AlphaMode::Premultiply}), "box"});
  FilterSpec biased = blur;  // not convex: the general output rule
  biased.bias = 0.1;
  biased.convex = false;
  list.push_back({"gaussian_13x13_bias", biased, "blur"});
  SharpenParams unsharp;
  unsharp.amount = 1.5;
  unsharp.threshold = 0.02;
  list.push_back({"sharpen_7x7", sharpen_spec(unsharp), "sharpen"});
  list.push_back({"sharpen_default", sharpen_spec(SharpenParams{}), "sharpen"});
  return list;
}

// An Unsharp threshold is a step: where the reference's detail lies within a hair of it,
// the kernel's float error (or the tensor-core form's integer taps, each within 2^-16 of
// its weight) may put a sample on the other side, a difference of amount x threshold.
// There both sides are right: `expected` takes, sample by sample, whichever of the
// references with the threshold kThresholdSlack of the range lower and higher lies nearer
// to `actual`. Elsewhere the two agree, so every other sample is held to the one answer.
inline void take_either_side_of_the_threshold(const ImageView& src, const ImageView& actual, const ImageView& expected,
                                              const FilterSpec& spec, const Border& border) {
  constexpr double kThresholdSlack = 2e-4;  // 0.05 levels of 8 bits
  const PixelFormat format = src.format;
  HostImage lower(src.width, src.height, format), higher(src.width, src.height, format);
  FilterSpec edge = spec;
  edge.threshold = spec.threshold - kThresholdSlack;
  reference::apply_filter(src, lower.view(), edge, border);
  edge.threshold = spec.threshold + kThresholdSlack;
  reference::apply_filter(src, higher.view(), edge, border);
  const ImageView low = lower.view(), high = higher.view();
  const std::size_t bytes = format.channel_bytes();
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < format.channels; ++c) {
        const double a = channel_value(actual, x, y, c);
        const bool take_higher =
            std::fabs(a - channel_value(high, x, y, c)) < std::fabs(a - channel_value(low, x, y, c));
        const std::size_t at = (static_cast<std::size_t>(x) * format.channels + static_cast<std::size_t>(c)) * bytes;
        const ImageView& side = take_higher ? high : low;
        std::memcpy(static_cast<unsigned char*>(expected.data) + static_cast<std::size_t>(y) * expected.pitch + at,
                    static_cast<const unsigned char*>(side.data) + static_cast<std::size_t>(y) * side.pitch + at,
                    bytes);
      }
}

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
  if (named.spec.output == FilterOutput::Unsharp && named.spec.threshold > 0.0)
    take_either_side_of_the_threshold(host_src.view(), actual.view(), expected.view(), named.spec, border);
  const Difference diff = compare(actual.view(), expected.view());
  EXPECT_TRUE(diff.within(tolerance)) << named.name << " " << format.name() << " " << to_string(mode) << " " << w
                                      << "x" << h << " pad " << pad << ": " << diff.describe();
}

}  // namespace gpufilter::testing
