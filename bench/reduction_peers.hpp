#pragma once
// Peers of the data ops: CUB's DeviceReduce::Sum for stats and
// DeviceHistogram::MultiHistogramEven for histogram (always: CUB ships with the
// toolkit's headers), NPP's Mean_StdDev (gray u8) and HistogramEven (u8 gray and RGBA)
// where the build defines GPUFILTER_HAVE_NPP_STATISTICS (linking CUDA::nppist).
//
// A peer computes less than the op (CUB's sum is one number over every sample; NPP's
// mean and deviation cover one channel), so it stores its own values at the start of the
// result buffer and its check_data judges them against the matching reference columns.
// Scratch (CUB's temporary storage, NPP's buffer) is allocated on a row's first launch,
// the bench's warm-up, and reused while the image shape stays the same.
#include <vector>

#include "gpufilter/registry.hpp"
#include "peers.hpp"

namespace bench {

std::vector<PeerRow> reduction_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                     const gpufilter::ParamValues& params);

}  // namespace bench
