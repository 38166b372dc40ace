// CUB and NPP peers of stats and histogram (see reduction_peers.hpp). A .cu file: CUB's
// algorithms are templates instantiated by nvcc.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/array>

#include <cstdint>

#include "gpufilter/error.hpp"
#include "reduction_peers.hpp"

#ifdef GPUFILTER_HAVE_NPP_STATISTICS
#include <nppi_statistics_functions.h>
#endif

namespace bench {
namespace {

// Room for the peer's own output before CUB's temporary storage.
constexpr std::size_t kOutputBytes = 4096;

unsigned char* temp_of(void* scratch) { return static_cast<unsigned char*>(scratch) + kOutputBytes; }

// DeviceReduce::Sum over every sample of the image's rows and the padding between
// them (pitch * height bytes as one array: CUB takes no pitch). With the bench's
// images the padding is small or none; the figure is the time to sum that many bytes,
// which is what "no slower than CUB's DeviceReduce::Sum on the same bytes" compares.
template <class T, class Sum>
DataPeer cub_sum(int height, std::size_t pitch) {
  const long long items = static_cast<long long>(pitch / sizeof(T)) * height;
  std::size_t temp_bytes = 0;
  GPUFILTER_CUDA_CHECK(
      cub::DeviceReduce::Sum(nullptr, temp_bytes, static_cast<const T*>(nullptr), static_cast<Sum*>(nullptr), items));
  DataPeer peer;
  peer.name = "cub_reduce_sum";
  peer.scratch_bytes = kOutputBytes + temp_bytes;
  peer.launch = [items, temp_bytes](const gpufilter::ImageView& src, void* scratch, cudaStream_t stream) {
    std::size_t bytes = temp_bytes;
    GPUFILTER_CUDA_CHECK(cub::DeviceReduce::Sum(temp_of(scratch), bytes, static_cast<const T*>(src.data),
                                                static_cast<Sum*>(scratch), items, stream));
  };
  return peer;
}

// Per channel, 256 bins over the op's default range ([0, 256) for u8, [0, 65536) for
// u16, [0, 1) for f32: CUB's upper level is exclusive), rows with their pitch.
template <class T, int C, class Level>
DataPeer cub_histogram(int width, int height, std::size_t pitch, Level lower, Level upper) {
  constexpr int kBins = 256;
  ::cuda::std::array<int, C> levels;
  ::cuda::std::array<Level, C> lowers, uppers;
  for (int c = 0; c < C; ++c) {
    levels[c] = kBins + 1;
    lowers[c] = lower;
    uppers[c] = upper;
  }
  auto histograms = [](void* scratch) {
    ::cuda::std::array<int*, C> h;
    for (int c = 0; c < C; ++c) h[c] = static_cast<int*>(scratch) + c * kBins;
    return h;
  };
  std::size_t temp_bytes = 0;
  GPUFILTER_CUDA_CHECK((cub::DeviceHistogram::MultiHistogramEven<C, C>(
      nullptr, temp_bytes, static_cast<const T*>(nullptr), histograms(nullptr), levels, lowers, uppers, width, height,
      pitch)));
  static_assert(sizeof(int) * kBins * 4 <= kOutputBytes, "the histograms fit before the temporary storage");
  DataPeer peer;
  peer.name = "cub_histogram_even";
  peer.scratch_bytes = kOutputBytes + temp_bytes;
  peer.launch = [=](const gpufilter::ImageView& src, void* scratch, cudaStream_t stream) {
    std::size_t bytes = temp_bytes;
    GPUFILTER_CUDA_CHECK((cub::DeviceHistogram::MultiHistogramEven<C, C>(
        temp_of(scratch), bytes, static_cast<const T*>(src.data), histograms(scratch), levels, lowers, uppers,
        src.width, src.height, src.pitch, stream)));
  };
  return peer;
}

template <class T, class Level>
void add_cub_histogram(std::vector<DataPeer>& peers, int channels, int width, int height, std::size_t pitch,
                       Level lower, Level upper) {
  if (channels == 1) peers.push_back(cub_histogram<T, 1, Level>(width, height, pitch, lower, upper));
  if (channels == 3) peers.push_back(cub_histogram<T, 3, Level>(width, height, pitch, lower, upper));
  if (channels == 4) peers.push_back(cub_histogram<T, 4, Level>(width, height, pitch, lower, upper));
}

#ifdef GPUFILTER_HAVE_NPP_STATISTICS
void check_npp(NppStatus status, const char* call) {
  if (status < 0)
    throw gpufilter::Error(gpufilter::ErrorCode::Cuda, std::string(call) + " failed with NPP status " +
                                                           std::to_string(static_cast<int>(status)));
}

NppStreamContext npp_context(cudaStream_t stream) {
  NppStreamContext ctx{};
  ctx.hStream = stream;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&ctx.nCudaDeviceId));
  cudaDeviceProp prop{};
  GPUFILTER_CUDA_CHECK(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId));
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  GPUFILTER_CUDA_CHECK(cudaStreamGetFlags(stream, &ctx.nStreamFlags));
  return ctx;
}

// Gray u8 only: NPP's Mean_StdDev takes one channel (C1R) or one of three (C3CR).
DataPeer npp_mean_stddev(int width, int height) {
  const NppiSize roi{width, height};
  std::size_t buffer = 0;
  check_npp(nppiMeanStdDevGetBufferHostSize_8u_C1R_Ctx(roi, &buffer, npp_context(nullptr)),
            "nppiMeanStdDevGetBufferHostSize_8u_C1R_Ctx");
  DataPeer peer;
  peer.name = "npp_mean_stddev";
  peer.scratch_bytes = kOutputBytes + buffer;
  peer.launch = [roi](const gpufilter::ImageView& src, void* scratch, cudaStream_t stream) {
    auto* out = static_cast<Npp64f*>(scratch);
    check_npp(nppiMean_StdDev_8u_C1R_Ctx(static_cast<const Npp8u*>(src.data), static_cast<int>(src.pitch), roi,
                                         temp_of(scratch), out, out + 1, npp_context(stream)),
              "nppiMean_StdDev_8u_C1R_Ctx");
  };
  return peer;
}

// u8 gray and RGBA, 256 bins over [0, 256).
DataPeer npp_histogram(int channels, int width, int height) {
  const NppiSize roi{width, height};
  std::size_t buffer = 0;
  int levels[4] = {257, 257, 257, 257};
  if (channels == 1)
    check_npp(nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(roi, 257, &buffer, npp_context(nullptr)),
              "nppiHistogramEvenGetBufferSize_8u_C1R_Ctx");
  else
    check_npp(nppiHistogramEvenGetBufferSize_8u_C4R_Ctx(roi, levels, &buffer, npp_context(nullptr)),
              "nppiHistogramEvenGetBufferSize_8u_C4R_Ctx");
  DataPeer peer;
  peer.name = "npp_histogram_even";
  peer.scratch_bytes = kOutputBytes + buffer;
  peer.launch = [roi, channels](const gpufilter::ImageView& src, void* scratch, cudaStream_t stream) {
    auto* hist = static_cast<Npp32s*>(scratch);
    const auto* data = static_cast<const Npp8u*>(src.data);
    const int step = static_cast<int>(src.pitch);
    if (channels == 1) {
      check_npp(nppiHistogramEven_8u_C1R_Ctx(data, step, roi, hist, 257, 0, 256, temp_of(scratch), npp_context(stream)),
                "nppiHistogramEven_8u_C1R_Ctx");
      return;
    }
    Npp32s* hists[4] = {hist, hist + 256, hist + 512, hist + 768};
    int n_levels[4] = {257, 257, 257, 257};
    Npp32s lower[4] = {0, 0, 0, 0}, upper[4] = {256, 256, 256, 256};
    check_npp(nppiHistogramEven_8u_C4R_Ctx(data, step, roi, hists, n_levels, lower, upper, temp_of(scratch),
                                           npp_context(stream)),
              "nppiHistogramEven_8u_C4R_Ctx");
  };
  return peer;
}
#endif

}  // namespace

std::vector<DataPeer> reduction_peers(const std::string& op, gpufilter::PixelFormat format, int width, int height,
                                      std::size_t pitch) {
  using gpufilter::ChannelType;
  std::vector<DataPeer> peers;
  if (op == "stats") {
    switch (format.type) {
      case ChannelType::U8: peers.push_back(cub_sum<std::uint8_t, unsigned long long>(height, pitch)); break;
      case ChannelType::U16: peers.push_back(cub_sum<std::uint16_t, unsigned long long>(height, pitch)); break;
      case ChannelType::F32: peers.push_back(cub_sum<float, double>(height, pitch)); break;
    }
#ifdef GPUFILTER_HAVE_NPP_STATISTICS
    if (format == gpufilter::PixelFormat{ChannelType::U8, 1}) peers.push_back(npp_mean_stddev(width, height));
#endif
  } else if (op == "histogram") {
    switch (format.type) {
      case ChannelType::U8: add_cub_histogram<std::uint8_t, int>(peers, format.channels, width, height, pitch, 0, 256); break;
      case ChannelType::U16:
        add_cub_histogram<std::uint16_t, int>(peers, format.channels, width, height, pitch, 0, 65536);
        break;
      case ChannelType::F32:
        add_cub_histogram<float, float>(peers, format.channels, width, height, pitch, 0.0f, 1.0f);
        break;
    }
#ifdef GPUFILTER_HAVE_NPP_STATISTICS
    if (format.type == ChannelType::U8 && format.channels != 3)
      peers.push_back(npp_histogram(format.channels, width, height));
#endif
  }
  return peers;
}

}  // namespace bench
