// The library's gradient_int: the kernel (gradient_int.cuh) in its tuned shape, and the
// test of which specs it runs.
#include <string>
#include <vector>

#include "convolution/gradient_int.cuh"
#include "convolution/gradient_int_launch.hpp"
#include "convolution/gradient_int_tuning.hpp"

namespace gpufilter::kernels {
namespace {

bool is_derivative(const std::vector<float>& f, float s) { return f.size() == 3 && f[0] == -s && f[1] == 0.0f && f[2] == s; }

// (a, c, a) with small non-negative integers a and c.
bool is_integer_smoothing(const std::vector<float>& f) {
  if (f.size() != 3 || f[0] != f[2]) return false;
  for (float w : f)
    if (!(w >= 0.0f && w <= 64.0f) || w != static_cast<float>(static_cast<int>(w))) return false;
  return true;
}

}  // namespace

bool gradient_int_fits(PixelFormat format, const FilterSpec& spec) {
  if (format.type != ChannelType::U8 || spec.output != FilterOutput::Magnitude) return false;
  if (format.channels == 4 && spec.alpha == AlphaMode::Premultiply) return false;
  if (!spec.is_separable() || spec.separable.size() != 2) return false;
  const SeparableMask& dx = spec.separable[0];
  const SeparableMask& dy = spec.separable[1];
  if (dx.x.size() != 3) return false;
  const float s = dx.x[2];
  return is_derivative(dx.x, s) && is_derivative(dy.y, s) && is_integer_smoothing(dx.y) && dx.y == dy.x;
}

void launch_gradient_int(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx) {
  if (!gradient_int_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "gradient_int: runs the Sobel, Scharr and Prewitt magnitudes on 8-bit images "
                "(not premultiplied alpha)");
  launch_gradient_int_in<GradientIntTuning::TunedShape>(src, dst, spec, border, ctx);
}

}  // namespace gpufilter::kernels
