// The library's integer_3x3: the kernel (integer_3x3.cuh) in its tuned shape, and the
// test of which specs it runs.
#include <cmath>
#include <string>

#include "convolution/integer_3x3.cuh"
#include "convolution/integer_3x3_launch.hpp"
#include "convolution/integer_3x3_tuning.hpp"

namespace gpufilter::kernels {

bool integer_3x3_fits(PixelFormat format, const FilterSpec& spec) {
  if (format.type != ChannelType::U8 || spec.output != FilterOutput::Linear || spec.masks.size() != 1) return false;
  const Mask& mask = spec.masks[0];
  if (mask.width > 3 || mask.height > 3) return false;
  double magnitudes = 0.0;
  for (float w : mask.weights) {
    if (!(std::fabs(w) <= static_cast<float>(kInteger3x3MaxWeightSum)) || w != std::nearbyint(w)) return false;
    magnitudes += std::fabs(w);
  }
  // A bias of whole levels, as a fraction of the range (0.2 is 51.000000000000007 levels).
  const double bias = spec.bias * 255.0;
  return magnitudes <= kInteger3x3MaxWeightSum && std::fabs(bias - std::nearbyint(bias)) < 1e-6 &&
         std::fabs(bias) <= 255.0;
}

int integer_3x3_bias(const FilterSpec& spec) { return static_cast<int>(std::lround(spec.bias * 255.0)); }

void launch_integer_3x3(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                        const ExecContext& ctx) {
  if (!integer_3x3_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "integer_3x3: runs 8-bit masks of up to 3x3 integer weights (magnitudes summing to at most " +
                    std::to_string(kInteger3x3MaxWeightSum) + ") with a bias of whole levels");
  launch_integer_3x3_in<Integer3x3Tuning::TunedShape>(src, dst, spec, border, ctx);
}

}  // namespace gpufilter::kernels
