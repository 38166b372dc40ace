#pragma once
// Peers of the data ops (stats, histogram): CUB's DeviceReduce::Sum and
// DeviceHistogram::HistogramEven (always: CUB ships in the toolkit's headers), and NPP's
// Mean_StdDev and HistogramEven where the build defines GPUFILTER_HAVE_NPP_STATISTICS
// (linking CUDA::nppist and CUDA::nppc).
//
// A peer is timed, not checked against the reference: its result has another shape
// (CUB's sum is one number over the samples; NPP's mean and deviation cover one channel).
// Each launch writes into the device scratch the harness gives it, scratch_bytes long,
// allocated once per case and reused across runs.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gpufilter/image_view.hpp"

namespace bench {

using DataPeerLaunch = std::function<void(const gpufilter::ImageView& src, void* scratch, cudaStream_t stream)>;

struct DataPeer {
  std::string name;               // "cub_reduce_sum", "cub_histogram_even", "npp_mean_stddev", ...
  std::size_t scratch_bytes = 0;  // device scratch the launch needs
  DataPeerLaunch launch;
};

// The peers of `op` ("stats" or "histogram") for a device image of this shape (pitch
// included: CUB's temporary storage depends on the sample count). Empty for other ops
// and formats the peers do not take.
std::vector<DataPeer> reduction_peers(const std::string& op, gpufilter::PixelFormat format, int width, int height,
                                      std::size_t pitch);

}  // namespace bench
