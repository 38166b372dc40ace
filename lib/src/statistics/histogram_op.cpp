// The histogram op: its variants' names, its parameters' checks and its registry entry
// (its GPU side: gpu/statistics_gpu.cpp).
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "statistics/histogram_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"
#include "common/operations.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter {

HistogramVariant histogram_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kHistogramVariants, name, "histogram");
}

const char* to_string(HistogramVariant variant) { return ops::name_of(ops::kHistogramVariants, variant); }

HistogramParams default_histogram_params(PixelFormat format) {
  switch (format.type) {
    case ChannelType::U8: return HistogramParams{256, 0.0, 256.0};
    case ChannelType::U16: return HistogramParams{256, 0.0, 65536.0};
    case ChannelType::F32: return HistogramParams{256, 0.0, 1.0};
  }
  return HistogramParams{};
}

void check_histogram_params(const HistogramParams& params) {
  if (params.bins < 1 || params.bins > 65536)
    throw Error(ErrorCode::InvalidArgument, "histogram: bins must be in [1, 65536], got " + std::to_string(params.bins));
  if (!std::isfinite(params.lo) || !std::isfinite(params.hi) || !(params.lo < params.hi))
    throw Error(ErrorCode::InvalidArgument, "histogram: the range needs finite lo < hi");
}

namespace ops {

HistogramParams histogram_params(PixelFormat format, const ParamValues& values) {
  HistogramParams params = default_histogram_params(format);
  if (values.has("bins")) params.bins = static_cast<int>(values.number("bins"));
  if (values.has("range")) {
    params.lo = values.numbers("range")[0];
    params.hi = values.numbers("range")[1];
  }
  return params;
}

namespace {

std::string edge_label(double value) {
  std::ostringstream text;
  text.precision(10);
  text << value;
  return text.str();
}

}  // namespace

Operation make_histogram_operation() {
  Operation op;
  op.name = "histogram";
  op.group = OperationGroup::Statistics;
  op.summary =
      "Per-channel histogram: --bins equal bins over --range lo,hi (default: u8 0,256, u16 0,65536, f32 0,1); "
      "hi counts in the last bin, values outside are not counted";
  op.params = {
      number_param("bins", "number of equal bins", 1, 65536, std::nullopt, true, "256"),
      numbers_param("range", "lo,hi", 2, 2, -1e30, 1e30, false, "LO,HI", "format range"),
  };
  op.check = [](const ParamValues& values) {
    if (values.has("range") && !(values.numbers("range")[0] < values.numbers("range")[1]))
      throw Error(ErrorCode::InvalidArgument, "histogram: range needs lo < hi");
  };
  op.formats = all_pixel_formats();
  op.variants = names_of(kHistogramVariants);
  // lane_private: conflict-free atomics by construction, random or constant data alike, the
  // fastest measured; shared_private and the lab's warp_private are slower (the latter's
  // match-and-merge costs more than it saves) (docs/gpu-results.md#reductions-and-histogram).
  op.default_variant = "lane_private";
  op.output = OutputKind::Data;
  op.data_layout = [](const ImageShape& input, const ParamValues& values) {
    const HistogramParams params = histogram_params(input.format, values);
    DataLayout layout;
    layout.row_title = "bin";
    for (int b = 0; b < params.bins; ++b)
      layout.row_labels.push_back(edge_label(params.lo + (params.hi - params.lo) * b / params.bins));
    layout.columns = channel_labels(input.format.channels);
    layout.chartable = true;
    return layout;
  };
  op.run_reference_data = [](const ImageView& src, double* result, const ParamValues& values) {
    reference::histogram(src, result, histogram_params(src.format, values));
  };
  op.run_cpu_data = [](const ImageView& src, double* result, const ParamValues& values) {
    cpu::histogram(src, result, histogram_params(src.format, values));
  };
  op.data_tolerance = [](PixelFormat, const std::string&) { return DataTolerance{}; };  // counts are exact
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues& values) {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes() +
           sizeof(double) * static_cast<std::size_t>(histogram_params(format, values).bins) * format.channels;
  };
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_histogram_operation);

}  // namespace ops
}  // namespace gpufilter
