#pragma once
/// @file
/// Reductions over an image: per-channel statistics and histograms. Both write their
/// result as doubles into memory the caller gives, asynchronously on ctx.stream (device
/// memory for the GPU calls, host memory for the reference), so no call ever waits for
/// the GPU; copy the doubles back when convenient and read them with the helpers below.
///
/// For image_stats and histogram (the GPU calls):
/// - Preconditions: src is a non-empty view of device memory, naturally aligned (a
///   4-channel pixel to its full size), at most 2^30 pixels wide, any pitch. The result
///   pointer is device memory with room for the whole table; only a null pointer is
///   checked. src is only read.
/// - Errors: Error(InvalidArgument) for a view, pointer or parameter that breaks these
///   rules, Error(UnsupportedFormat) for a channel count other than 1, 3 or 4,
///   Error(OutOfMemory) when the scratch memory cannot be had, Error(Cuda) when a launch
///   fails. After an error the result is unspecified.
/// - Synchronisation: none. Scratch memory is taken from the library's own stream-ordered
///   pool (cudaMallocFromPoolAsync; it keeps up to 64 MiB reserved across
///   synchronizations) and given back with cudaFreeAsync on ctx.stream, which do not
///   wait; the result is complete once the stream reaches that point. Only
///   ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes a call wait
///   after each launch.
///
/// The name functions, read_image_stats, default_histogram_params and
/// check_histogram_params touch no GPU.
#include <cstddef>
#include <string>
#include <vector>

#include "gpufilter/image_view.hpp"
#include "gpufilter/reduction_types.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// ---- stats --------------------------------------------------------------------------

/// "auto", "interleaved", "packed", "packed_warp_prefetch" or "packed_warp_bulk";
/// throws Error(InvalidArgument) naming the choices for an unknown name.
ReductionVariant reduction_variant_from_name(const std::string& name);
/// The variant's name, as reduction_variant_from_name() takes it; does not throw.
const char* to_string(ReductionVariant variant);

/// "min", "max", "sum", "mean", "stddev", "min_x", "min_y", "max_x", "max_y", in
/// StatsColumn order; does not throw.
const std::vector<std::string>& stats_column_names();

/// Per channel: minimum, maximum, sum, mean, population standard deviation (divided by
/// the pixel count, as cv::meanStdDev) and where the minimum and maximum first occur in
/// row-major order (the smallest y, then the smallest x among equal values).
/// Integer sums are exact (64-bit); the mean and deviation come from exact integer moments
/// for u8/u16 and from double accumulation for f32 (f32 images must hold no NaN).
/// `device_result`: device memory for channels * kStatsColumns doubles, row-major
/// (channel c, column k at c * kStatsColumns + k). Scratch memory is stream-ordered
/// (the library's pool); nothing synchronizes. Images of more than 2^32 pixels:
/// Error(InvalidArgument).
void image_stats(const ImageView& src, double* device_result, ReductionVariant variant = ReductionVariant::Auto,
                 const ExecContext& ctx = {});

/// One channel's row of the stats table, as read_image_stats() gives it: min, max, sum,
/// mean and stddev in the image's units, and (min_x, min_y), (max_x, max_y) the pixels
/// where the minimum and maximum first occur (StatsColumn's order).
struct ChannelStats {
  double min = 0.0, max = 0.0, sum = 0.0, mean = 0.0, stddev = 0.0;
  long long min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};
/// Reads channels * kStatsColumns doubles (a host copy of image_stats's result) into one
/// ChannelStats per channel. Host only: no GPU, no checks.
std::vector<ChannelStats> read_image_stats(const double* host_result, int channels);

// ---- histogram -----------------------------------------------------------------------

/// "global_atomic", "shared_private" or "lane_private"; throws Error(InvalidArgument)
/// naming the choices for an unknown name.
HistogramVariant histogram_variant_from_name(const std::string& name);
/// The variant's name, as histogram_variant_from_name() takes it; does not throw.
const char* to_string(HistogramVariant variant);

/// 256 bins over the whole range: u8 [0, 256] (bin = value), u16 [0, 65536] (bin =
/// value / 256), f32 [0, 1]. Does not throw.
HistogramParams default_histogram_params(PixelFormat format);
/// Throws Error(InvalidArgument) unless 1 <= bins <= 65536 and lo < hi are finite.
void check_histogram_params(const HistogramParams& params);

/// Per channel counts; `device_counts`: device memory for params.bins * channels doubles,
/// row-major (bin b, channel c at b * channels + c). Exact up to 2^53 samples per bin.
/// params are checked as check_histogram_params does. Scratch memory is stream-ordered
/// (the library's pool); nothing synchronizes.
void histogram(const ImageView& src, double* device_counts, const HistogramParams& params,
               HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

namespace reference {
/// @name The reductions' CPU references
/// src and the result in host memory; they run on the CPU, touch no GPU and return when
/// the result is complete. src is checked as validate_view() does (Error(InvalidArgument)
/// for an empty view or a pitch shorter than a row; Error(UnsupportedFormat) for a channel
/// count other than 1, 3 or 4), histogram's params as check_histogram_params does; the
/// result pointer is not checked.
///@{

/// gpufilter::image_stats on a host image: the same table into `result`.
void image_stats(const ImageView& src, double* result);
/// gpufilter::histogram on a host image: the same table into `counts`.
void histogram(const ImageView& src, double* counts, const HistogramParams& params);
///@}
}  // namespace reference

}  // namespace gpufilter
