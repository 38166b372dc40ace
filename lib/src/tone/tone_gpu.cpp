// equalize(), threshold() and normalize() on the GPU, and those ops' GPU sides.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/tone.hpp"
#include "kernels/reduction/reduction_launch.hpp"
#include "kernels/reduction/tone_settings.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter {
namespace {

void check_tone_pair(const char* op, const ImageView& src, const ImageView& dst) {
  ops::check_pair(op, src, dst);
  ops::check_device_pair(op, src, dst);
  ops::check_no_overlap(op, src, dst);
  if (src.format.type != ChannelType::U8)
    throw Error(ErrorCode::UnsupportedFormat, std::string(op) + " takes u8 images, got " + src.format.name());
}

// The histogram stage of the library's variant.
kernels::HistogramStage histogram_stage(HistogramVariant variant) {
  return [variant](const ImageView& src, unsigned long long* counts, const HistogramParams& params,
                   const ExecContext& ctx) { kernels::launch_histogram_counts(src, counts, params, variant, ctx); };
}

}  // namespace

void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params, HistogramVariant variant,
              const ExecContext& ctx) {
  check_tone_pair("equalize", src, dst);
  kernels::launch_tone(src, dst, kernels::equalize_settings(params), histogram_stage(variant), ctx);
}

void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params, HistogramVariant variant,
               const ExecContext& ctx) {
  check_tone_pair("threshold", src, dst);
  if (params.value < 0 || params.value > 255)
    throw Error(ErrorCode::InvalidArgument, "threshold: value must be in [0, 255], got " + std::to_string(params.value));
  kernels::launch_tone(src, dst, kernels::threshold_settings(params), histogram_stage(variant), ctx);
}

void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params, HistogramVariant variant,
               const ExecContext& ctx) {
  check_tone_pair("normalize", src, dst);
  if (!(params.clip_percent >= 0.0 && params.clip_percent < 50.0))
    throw Error(ErrorCode::InvalidArgument, "normalize: clip must be in [0, 50) percent");
  const double pixels = static_cast<double>(src.width) * src.height;
  kernels::launch_tone(src, dst, kernels::normalize_settings(params, pixels), histogram_stage(variant), ctx);
}

namespace {

// Each runs its histogram stage with the variant named.
template <class Params, void (*Run)(const ImageView&, const ImageView&, const Params&, HistogramVariant,
                                    const ExecContext&),
          Params (*ParamsOf)(const ParamValues&)>
void bind_tone(Operation& op) {
  op.run_gpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
                  const std::string& variant, const ExecContext& ctx) {
    const HistogramVariant v = histogram_variant_from_name(variant);
    Run(src, dst, ParamsOf(values), v, ctx);
  };
}

GPUFILTER_BIND_GPU("equalize", (bind_tone<EqualizeParams, equalize, ops::equalize_params>));
GPUFILTER_BIND_GPU("threshold", (bind_tone<ThresholdParams, threshold, ops::threshold_params>));
GPUFILTER_BIND_GPU("normalize", (bind_tone<NormalizeParams, normalize, ops::normalize_params>));

}  // namespace
}  // namespace gpufilter
