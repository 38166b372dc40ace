#pragma once
// Launchers for the reduction family (seed 002: tree reductions in shared memory, and
// past it). src is a validated device view; the result is written asynchronously.
#include <functional>

#include "gpufilter/image_view.hpp"
#include "gpufilter/reduction_types.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// channels * kStatsColumns doubles into `result` (device memory), one launch.
void launch_stats(const ImageView& src, double* result, ReductionVariant variant, const ExecContext& ctx);

// params.bins * channels doubles into `result` (device memory). Where the private
// copies do not fit in shared memory, lane_private falls back to fewer copies, then to
// shared_private, and shared_private to global_atomic.
void launch_histogram(const ImageView& src, double* result, const HistogramParams& params,
                      HistogramVariant variant, const ExecContext& ctx);
// The same counts as 64-bit integers, channel-major (channel c, bin b at c * bins + b),
// into device memory the caller owns (zeroed here, on the stream).
void launch_histogram_counts(const ImageView& src, unsigned long long* counts, const HistogramParams& params,
                             HistogramVariant variant, const ExecContext& ctx);

// Tone ops (tone.hpp): u8 views of 1, 3 or 4 channels, src and dst validated.
enum class ToneMode { EqualizeLuma, EqualizeChannels, ThresholdValue, ThresholdOtsu, Normalize };
struct ToneSettings {
  ToneMode mode = ToneMode::EqualizeChannels;
  int threshold = 128;       // ThresholdValue
  double clip_count = 0.0;   // Normalize: samples clipped at each end
};
// The tone ops' first stage: the 256-bin counts of a u8 image over [0, 256] into
// `counts` (launch_histogram_counts with a variant, or the lab's kernels).
using HistogramStage = std::function<void(const ImageView& src, unsigned long long* counts,
                                          const HistogramParams& params, const ExecContext& ctx)>;
void launch_tone(const ImageView& src, const ImageView& dst, const ToneSettings& settings,
                 const HistogramStage& histogram, const ExecContext& ctx);

}  // namespace gpufilter::kernels
