// CUB and NPP peers of stats and histogram (see reduction_peers.hpp). A .cu file: CUB's
// algorithms are templates that nvcc instantiates.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/array>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"
#include "reduction_peers.hpp"

#ifdef GPUFILTER_HAVE_NPP_STATISTICS
#include <nppi_statistics_functions.h>

#include "npp_context.hpp"
#endif

namespace bench {
namespace {

// Device scratch that grows to the largest size asked for; kept for the row's life.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (data_) cudaFree(data_);
  }
  void* get(std::size_t bytes) {
    if (bytes > bytes_) {
      if (data_) GPUFILTER_CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      GPUFILTER_CUDA_CHECK(cudaMalloc(&data_, bytes));
      bytes_ = bytes;
    }
    return data_;
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// What a row remembers between its launch and its check.
struct RowState {
  Scratch scratch;
  bool padded = false;  // the last image had padding between rows (CUB's sum covered it)
};

std::string mismatch(const char* what, double actual, double expected) {
  std::ostringstream text;
  text.precision(17);
  text << what << ": " << actual << " vs " << expected;
  return text.str();
}

// ---- CUB DeviceReduce::Sum ----------------------------------------------------------

// Every sample of the image as one array of pitch * height bytes (CUB takes no pitch):
// with the bench's images (rows a multiple of 512 bytes) there is no padding, and the
// figure is the time to sum the image's bytes, what "no slower than DeviceReduce::Sum
// on the same bytes" compares. The sum lands in result[0] (its 8 bytes: a 64-bit
// integer for u8/u16, a double for f32) and is checked against the reference's sums.
template <class T, class Sum>
PeerRow cub_sum_row() {
  auto state = std::make_shared<RowState>();
  PeerRow row;
  row.name = "cub_reduce_sum";
  row.data_launch = [state](const gpufilter::ImageView& src, double* result, cudaStream_t stream) {
    const long long items = static_cast<long long>(src.pitch / sizeof(T)) * src.height;
    state->padded = src.pitch != src.row_bytes();
    std::size_t temp_bytes = 0;
    GPUFILTER_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, static_cast<const T*>(src.data),
                                                reinterpret_cast<Sum*>(result), items, stream));
    GPUFILTER_CUDA_CHECK(cub::DeviceReduce::Sum(state->scratch.get(temp_bytes), temp_bytes,
                                                static_cast<const T*>(src.data), reinterpret_cast<Sum*>(result),
                                                items, stream));
  };
  row.check_data = [state](const gpufilter::DataLayout& layout, const double* actual,
                           const double* expected) -> std::string {
    if (state->padded) return "";  // the padding was summed too: timed, not checked
    Sum sum{};
    std::memcpy(&sum, actual, sizeof(Sum));
    double expected_sum = 0.0;
    const std::size_t columns = layout.columns.size();
    for (std::size_t c = 0; c < layout.row_labels.size(); ++c)
      expected_sum += expected[c * columns + static_cast<int>(gpufilter::StatsColumn::Sum)];
    const double got = static_cast<double>(sum);
    if (std::abs(got - expected_sum) > 1e-6 * std::abs(expected_sum)) return mismatch("sum", got, expected_sum);
    return "";
  };
  return row;
}

// ---- CUB DeviceHistogram::MultiHistogramEven ----------------------------------------

// 256 bins per channel over the op's default range ([0, 256) for u8, [0, 65536) for u16,
// [0, 1) for f32: CUB's upper level is exclusive; the bench's random f32 samples never
// reach 1), rows with their pitch. Counts as ints, channel after channel, in result.
template <class T, int C, class Level>
PeerRow cub_histogram_row(Level lower, Level upper) {
  auto state = std::make_shared<RowState>();
  PeerRow row;
  row.name = "cub_histogram_even";
  row.data_launch = [state, lower, upper](const gpufilter::ImageView& src, double* result, cudaStream_t stream) {
    ::cuda::std::array<int*, C> histograms;
    ::cuda::std::array<int, C> levels;
    ::cuda::std::array<Level, C> lowers, uppers;
    for (int c = 0; c < C; ++c) {
      histograms[c] = reinterpret_cast<int*>(result) + c * 256;
      levels[c] = 257;
      lowers[c] = lower;
      uppers[c] = upper;
    }
    std::size_t temp_bytes = 0;
    GPUFILTER_CUDA_CHECK((cub::DeviceHistogram::MultiHistogramEven<C, C>(
        nullptr, temp_bytes, static_cast<const T*>(src.data), histograms, levels, lowers, uppers, src.width,
        src.height, src.pitch, stream)));
    GPUFILTER_CUDA_CHECK((cub::DeviceHistogram::MultiHistogramEven<C, C>(
        state->scratch.get(temp_bytes), temp_bytes, static_cast<const T*>(src.data), histograms, levels, lowers,
        uppers, src.width, src.height, src.pitch, stream)));
  };
  row.check_data = [](const gpufilter::DataLayout&, const double* actual, const double* expected) -> std::string {
    const int* counts = reinterpret_cast<const int*>(actual);
    for (int c = 0; c < C; ++c)
      for (int b = 0; b < 256; ++b)
        if (counts[c * 256 + b] != expected[b * C + c])
          return mismatch(("channel " + std::to_string(c) + ", bin " + std::to_string(b)).c_str(),
                          counts[c * 256 + b], expected[b * C + c]);
    return "";
  };
  return row;
}

template <class T, class Level>
void add_cub_histogram(std::vector<PeerRow>& rows, int channels, Level lower, Level upper) {
  if (channels == 1) rows.push_back(cub_histogram_row<T, 1, Level>(lower, upper));
  if (channels == 3) rows.push_back(cub_histogram_row<T, 3, Level>(lower, upper));
  if (channels == 4) rows.push_back(cub_histogram_row<T, 4, Level>(lower, upper));
}

#ifdef GPUFILTER_HAVE_NPP_STATISTICS
// ---- NPP ----------------------------------------------------------------------------

void check_npp(NppStatus status, const char* call) {
  if (status < 0)
    throw gpufilter::Error(gpufilter::ErrorCode::Cuda, std::string(call) + " failed with NPP status " +
                                                           std::to_string(static_cast<int>(status)));
}

// Gray u8: mean and standard deviation into result[0], result[1].
PeerRow npp_mean_stddev_row() {
  auto state = std::make_shared<RowState>();
  PeerRow row;
  row.name = "npp_mean_stddev";
  row.data_launch = [state](const gpufilter::ImageView& src, double* result, cudaStream_t stream) {
    const NppiSize roi{src.width, src.height};
    const NppStreamContext ctx = npp_context(stream);
    std::size_t buffer = 0;
    check_npp(nppiMeanStdDevGetBufferHostSize_8u_C1R_Ctx(roi, &buffer, ctx), "nppiMeanStdDevGetBufferHostSize");
    check_npp(nppiMean_StdDev_8u_C1R_Ctx(static_cast<const Npp8u*>(src.data), static_cast<int>(src.pitch), roi,
                                         static_cast<Npp8u*>(state->scratch.get(buffer + 1)), result, result + 1,
                                         ctx),
              "nppiMean_StdDev_8u_C1R_Ctx");
  };
  row.check_data = [](const gpufilter::DataLayout&, const double* actual, const double* expected) -> std::string {
    const double mean = expected[static_cast<int>(gpufilter::StatsColumn::Mean)];
    const double stddev = expected[static_cast<int>(gpufilter::StatsColumn::StdDev)];
    // Absolute floors for --data=constant (a deviation of 0) and dark images (a mean near 0).
    if (std::abs(actual[0] - mean) > 1e-6 * mean + 1e-9) return mismatch("mean", actual[0], mean);
    if (std::abs(actual[1] - stddev) > 1e-4 * stddev + 1e-6) return mismatch("stddev", actual[1], stddev);
    return "";
  };
  return row;
}

// u8 gray and RGBA, 256 bins over [0, 256): counts as ints, channel after channel.
PeerRow npp_histogram_row(int channels) {
  auto state = std::make_shared<RowState>();
  PeerRow row;
  row.name = "npp_histogram_even";
  row.data_launch = [state, channels](const gpufilter::ImageView& src, double* result, cudaStream_t stream) {
    const NppiSize roi{src.width, src.height};
    const NppStreamContext ctx = npp_context(stream);
    auto* hist = reinterpret_cast<Npp32s*>(result);
    const auto* data = static_cast<const Npp8u*>(src.data);
    const int step = static_cast<int>(src.pitch);
    std::size_t buffer = 0;
    if (channels == 1) {
      check_npp(nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(roi, 257, &buffer, ctx), "nppiHistogramEvenGetBufferSize");
      check_npp(nppiHistogramEven_8u_C1R_Ctx(data, step, roi, hist, 257, 0, 256,
                                             static_cast<Npp8u*>(state->scratch.get(buffer + 1)), ctx),
                "nppiHistogramEven_8u_C1R_Ctx");
      return;
    }
    int levels[4] = {257, 257, 257, 257};
    check_npp(nppiHistogramEvenGetBufferSize_8u_C4R_Ctx(roi, levels, &buffer, ctx), "nppiHistogramEvenGetBufferSize");
    Npp32s* hists[4] = {hist, hist + 256, hist + 512, hist + 768};
    Npp32s lower[4] = {0, 0, 0, 0}, upper[4] = {256, 256, 256, 256};
    check_npp(nppiHistogramEven_8u_C4R_Ctx(data, step, roi, hists, levels, lower, upper,
                                           static_cast<Npp8u*>(state->scratch.get(buffer + 1)), ctx),
              "nppiHistogramEven_8u_C4R_Ctx");
  };
  row.check_data = [channels](const gpufilter::DataLayout&, const double* actual,
                              const double* expected) -> std::string {
    const int* counts = reinterpret_cast<const int*>(actual);
    for (int c = 0; c < channels; ++c)
      for (int b = 0; b < 256; ++b)
        if (counts[c * 256 + b] != expected[b * channels + c])
          return mismatch("count", counts[c * 256 + b], expected[b * channels + c]);
    return "";
  };
  return row;
}
#endif

// The peers compute the default histogram only: 256 bins over the whole range.
bool default_histogram(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                       const gpufilter::ParamValues& params) {
  const gpufilter::ParamValues resolved = op.resolve(params);
  const gpufilter::HistogramParams defaults = gpufilter::default_histogram_params(format);
  if (resolved.has("bins") && resolved.number("bins") != defaults.bins) return false;
  if (resolved.has("range")) {
    const std::vector<double>& range = resolved.numbers("range");
    if (range[0] != defaults.lo || range[1] != defaults.hi) return false;
  }
  return true;
}

}  // namespace

std::vector<PeerRow> reduction_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                     const gpufilter::ParamValues& params) {
  using gpufilter::ChannelType;
  std::vector<PeerRow> rows;
  if (op.name == "stats") {
    switch (format.type) {
      case ChannelType::U8: rows.push_back(cub_sum_row<std::uint8_t, unsigned long long>()); break;
      case ChannelType::U16: rows.push_back(cub_sum_row<std::uint16_t, unsigned long long>()); break;
      case ChannelType::F32: rows.push_back(cub_sum_row<float, double>()); break;
    }
#ifdef GPUFILTER_HAVE_NPP_STATISTICS
    if (format == gpufilter::PixelFormat{ChannelType::U8, 1}) rows.push_back(npp_mean_stddev_row());
#endif
  } else if (op.name == "histogram" && default_histogram(op, format, params)) {
    switch (format.type) {
      case ChannelType::U8: add_cub_histogram<std::uint8_t, int>(rows, format.channels, 0, 256); break;
      case ChannelType::U16: add_cub_histogram<std::uint16_t, int>(rows, format.channels, 0, 65536); break;
      case ChannelType::F32: add_cub_histogram<float, float>(rows, format.channels, 0.0f, 1.0f); break;
    }
#ifdef GPUFILTER_HAVE_NPP_STATISTICS
    if (format.type == ChannelType::U8 && format.channels != 3) rows.push_back(npp_histogram_row(format.channels));
#endif
  }
  for (PeerRow& row : rows) row.reference_params = params;
  return rows;
}

}  // namespace bench
