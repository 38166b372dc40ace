#include <algorithm>
#include <cmath>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/reference.hpp"
#include "kernels/convolution/convolution_launch.hpp"
#include "ops/op_checks.hpp"
#include "ops/operations.hpp"

namespace gpufilter {
namespace {

void check_params(const GaussianParams& params) {
  if (!(params.sigma >= GaussianParams::kMinSigma && params.sigma <= GaussianParams::kMaxSigma))
    throw Error(ErrorCode::InvalidArgument, "blur: sigma must be in [" + std::to_string(GaussianParams::kMinSigma) +
                                                ", " + std::to_string(GaussianParams::kMaxSigma) + "], got " +
                                                std::to_string(params.sigma));
  if (params.radius < 0 || params.radius > GaussianParams::kMaxRadius)
    throw Error(ErrorCode::InvalidArgument, "blur: radius must be in [0, " +
                                                std::to_string(GaussianParams::kMaxRadius) +
                                                "] (0: ceil(3*sigma)), got " + std::to_string(params.radius));
}

GaussianParams to_gaussian_params(const ParamValues& values) {
  GaussianParams params;
  params.sigma = values.at("sigma");
  const auto radius = values.find("radius");
  params.radius = radius == values.end() ? 0 : static_cast<int>(radius->second);
  return params;
}

}  // namespace

int GaussianParams::effective_radius() const {
  return radius > 0 ? radius : std::min(kMaxRadius, static_cast<int>(std::ceil(3.0 * sigma)));
}

std::vector<float> gaussian_weights(const GaussianParams& params) {
  check_params(params);
  const int radius = params.effective_radius();
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k)
    sum += w[static_cast<std::size_t>(k + radius)] = std::exp(-0.5 * k * k / (params.sigma * params.sigma));
  std::vector<float> weights;
  for (double v : w) weights.push_back(static_cast<float>(v / sum));
  return weights;
}

void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border,
                   BlurVariant variant, const ExecContext& ctx) {
  const std::vector<float> weights = gaussian_weights(params);
  ops::check_pair("blur", src, dst);
  ops::check_device_pair("blur", src, dst);
  ops::check_no_overlap("blur", src, dst);
  const Border representable = ops::representable_border(border, src.format);
  const int radius = static_cast<int>(weights.size()) / 2;
  // A tile with a wide halo can exceed what a smaller GPU gives one block (99 KiB on
  // sm_86/sm_89): the naive kernel needs no shared memory and runs everywhere.
  if (variant == BlurVariant::Tiled && kernels::gaussian_tiled_fits(src.format, radius))
    kernels::launch_gaussian_tiled(src, dst, weights, representable, ctx);
  else
    kernels::launch_gaussian_naive(src, dst, weights, representable, ctx);
}

BlurVariant blur_variant_from_name(const std::string& name) {
  if (name == "naive") return BlurVariant::Naive;
  if (name == "tiled") return BlurVariant::Tiled;
  throw Error(ErrorCode::InvalidArgument, "blur: unknown variant '" + name + "'; use naive or tiled");
}

namespace ops {

Operation make_gaussian_operation() {
  Operation op;
  op.name = "blur";
  op.summary = "Gaussian blur";
  op.params = {
      {"sigma", "standard deviation of the Gaussian, in pixels", false, GaussianParams::kMinSigma,
       GaussianParams::kMaxSigma, 2.0, "2"},
      {"radius", "taps on each side of the centre (mask width 2*radius+1); 0: ceil(3*sigma)", true, 0.0,
       static_cast<double>(GaussianParams::kMaxRadius), std::nullopt, "ceil(3*sigma)"},
  };
  op.formats = all_pixel_formats();
  op.variants = {"naive", "tiled"};
  op.default_variant = "tiled";
  op.uses_border = true;
  op.run_gpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border,
                  const std::string& variant, const ExecContext& ctx) {
    gaussian_blur(src, dst, to_gaussian_params(values), border, blur_variant_from_name(variant), ctx);
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border) {
    reference::gaussian_blur(src, dst, to_gaussian_params(values), border);
  };
  // Integer formats: the GPU sums in float, the reference in double, so a value
  // within float error of a .5 boundary may round the other way: at most one level.
  // The share of such samples bounds how often: a truncating kernel misses in about
  // half of them. 16-bit values carry 8 bits more, so float error reaches .5
  // boundaries more often (the naive kernel's 2-D sums measured up to 3.5% on the H100).
  op.tolerance = [](PixelFormat format) {
    switch (format.type) {
      case ChannelType::U8: return Tolerance{1.0, 0.01};
      case ChannelType::U16: return Tolerance{1.0, 0.1};
      case ChannelType::F32: break;
    }
    return Tolerance{1e-4};
  };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  op.bench_params = {{"sigma", 1.0}, {"radius", 2.0}};  // 5x5, as NPP's 5x5 Gaussian
  op.test_params = {{"sigma", 1.5}};                    // radius 5: wider than the 1x1 and 17x13 images
  return op;
}

}  // namespace ops
}  // namespace gpufilter
