// The reduction family's lab variants: the seed's tree steps after the interleaved one,
// the vectorized walk and the packed shapes the library's prefetch and bulk shapes
// superseded (stats); the per-warp sub-histograms (histogram and the tone ops, whose
// first stage is a histogram).
#include <string>
#include <utility>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/tone.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/lab_families.hpp"
#include "lab/reduction/reduction_lab_launch.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/tone_settings.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter::lab {
namespace {

// The checks of image_stats: at most 2^32 pixels, a result pointer.
void check_stats(const ImageView& src, const double* result) {
  check_device_source("stats", src);
  if (result == nullptr) throw Error(ErrorCode::InvalidArgument, "stats: the result pointer is null");
  if (static_cast<unsigned long long>(src.width) * static_cast<unsigned long long>(src.height) > (1ULL << 32))
    throw Error(ErrorCode::InvalidArgument, "stats: images of more than 2^32 pixels are not supported");
}

LabVariant stats_variant(std::string name, std::string help, DataRun run) {
  LabVariant v;
  v.op = "stats";
  v.variant = std::move(name);
  v.help = std::move(help);
  v.run_data = std::move(run);
  return v;
}

LabVariant stats_step(const char* name, const char* help, StatsStep step) {
  return stats_variant(name, help, [step](const ImageView& src, double* result, const ParamValues&,
                                          const ExecContext& ctx) {
    check_stats(src, result);
    launch_stats_step(src, result, step, ctx);
  });
}

LabVariant packed_warp(const char* name, const char* help, PackedWarpLabShape shape) {
  return stats_variant(name, help, [shape](const ImageView& src, double* result, const ParamValues&,
                                           const ExecContext& ctx) {
    check_stats(src, result);
    launch_stats_packed_warp_shape(src, result, shape, ctx);
  });
}

// The op's own reading of --bins and --range (statistics/reduction_variants.hpp), checked
// as the library's entry point checks them.
HistogramParams histogram_params(PixelFormat format, const ParamValues& values) {
  HistogramParams params = ops::histogram_params(format, values);
  check_histogram_params(params);
  return params;
}

LabVariant histogram_warp_private() {
  LabVariant v;
  v.op = "histogram";
  v.variant = "warp_private";
  v.help = "a sub-histogram a warp, equal bins of a warp merged before the add";
  v.run_data = [](const ImageView& src, double* result, const ParamValues& values, const ExecContext& ctx) {
    check_device_source("histogram", src);
    if (result == nullptr) throw Error(ErrorCode::InvalidArgument, "histogram: the result pointer is null");
    launch_histogram_warp_private(src, result, histogram_params(src.format, values), ctx);
  };
  return v;
}

using Settings = kernels::ToneSettings (*)(const ImageView& src, const ParamValues& values);

// A tone op whose histogram stage runs warp_private.
LabVariant tone_warp_private(const char* op, Settings settings) {
  LabVariant v;
  v.op = op;
  v.variant = "warp_private";
  v.help = "the op's histogram with a sub-histogram a warp";
  v.run = [op, settings](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
                         const ExecContext& ctx) {
    check_same_shape(op, src, dst);
    if (src.format.type != ChannelType::U8)
      throw Error(ErrorCode::UnsupportedFormat, std::string(op) + " takes u8 images, got " + src.format.name());
    kernels::launch_tone(src, dst, settings(src, values), launch_histogram_counts_warp_private, ctx);
  };
  return v;
}

kernels::ToneSettings equalize_settings(const ImageView&, const ParamValues& values) {
  return kernels::equalize_settings(EqualizeParams{values.number_or("per-channel", 0) != 0});
}
kernels::ToneSettings threshold_settings(const ImageView&, const ParamValues& values) {
  return kernels::threshold_settings(
      ThresholdParams{static_cast<int>(values.number_or("value", 128)), values.number_or("otsu", 0) != 0});
}
kernels::ToneSettings normalize_settings(const ImageView& src, const ParamValues& values) {
  return kernels::normalize_settings(NormalizeParams{values.number_or("clip", 0)},
                                     static_cast<double>(src.width) * src.height);
}

}  // namespace

std::vector<LabVariant> reduction_lab_variants() {
  return {
      stats_step("sequential", "shared-memory tree, tid < s does the work: whole warps retire",
                 StatsStep::Sequential),
      stats_step("first_add", "each thread adds two pixels while loading", StatsStep::FirstAdd),
      stats_step("warp_shuffle", "first add, then the tree in registers with warp shuffles", StatsStep::WarpShuffle),
      stats_step("vectorized", "grid-stride 16-byte loads, per-thread accumulators, shuffles", StatsStep::Vectorized),
      packed_warp("packed_warp", "packed, u8 bounds tested against the warp's, no loads ahead",
                  PackedWarpLabShape::Baseline),
      packed_warp("packed_warp_deep", "packed_warp, twice the groups loaded per step", PackedWarpLabShape::Deep),
      packed_warp("packed_warp_async", "packed_warp, the next step copied ahead into shared memory (cp.async)",
                  PackedWarpLabShape::Async),
      histogram_warp_private(),
      tone_warp_private("equalize", equalize_settings),
      tone_warp_private("threshold", threshold_settings),
      tone_warp_private("normalize", normalize_settings),
  };
}

}  // namespace gpufilter::lab
