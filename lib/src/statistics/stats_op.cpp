// The stats op: its variants' names, its table's columns and its registry entry (its GPU
// side: gpu/statistics_gpu.cpp).
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"
#include "common/operations.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter {

ReductionVariant reduction_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kReductionVariants, name, "stats");
}

const char* to_string(ReductionVariant variant) { return ops::name_of(ops::kReductionVariants, variant); }

const std::vector<std::string>& stats_column_names() {
  static const std::vector<std::string> names = {"min",    "max",   "sum",   "mean", "stddev",
                                                 "min_x", "min_y", "max_x", "max_y"};
  return names;
}

std::vector<ChannelStats> read_image_stats(const double* host_result, int channels) {
  std::vector<ChannelStats> stats(static_cast<std::size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const double* row = host_result + c * kStatsColumns;
    const auto at = [row](StatsColumn column) { return row[static_cast<int>(column)]; };
    ChannelStats& s = stats[static_cast<std::size_t>(c)];
    s.min = at(StatsColumn::Min);
    s.max = at(StatsColumn::Max);
    s.sum = at(StatsColumn::Sum);
    s.mean = at(StatsColumn::Mean);
    s.stddev = at(StatsColumn::StdDev);
    s.min_x = static_cast<long long>(at(StatsColumn::MinX));
    s.min_y = static_cast<long long>(at(StatsColumn::MinY));
    s.max_x = static_cast<long long>(at(StatsColumn::MaxX));
    s.max_y = static_cast<long long>(at(StatsColumn::MaxY));
  }
  return stats;
}

namespace ops {

std::vector<std::string> channel_labels(int channels) {
  std::vector<std::string> labels;
  for (int c = 0; c < channels; ++c) labels.push_back("c" + std::to_string(c));
  return labels;
}

Operation make_stats_operation() {
  Operation op;
  op.name = "stats";
  op.group = OperationGroup::Statistics;
  op.summary = "Per-channel min, max, sum, mean, standard deviation and min/max positions, in one pass";
  op.formats = all_pixel_formats();
  op.variants = names_of(kReductionVariants);
  // auto: packed_warp_prefetch (packed_warp, one read at 16 bytes a load, u8 summed four
  // samples a word, minima and maxima tested against the warp's bounds, with the next
  // step's loads issued before this step's arithmetic: the fastest measured on gray and
  // RGBA u8), and packed_warp_bulk for RGB u8 on sm_90 on, the faster there
  // (ReductionTuning::kAutoBulkForThreeChannels, docs/techniques/reduction.md).
  // u16 and f32 run packed's sample-by-sample path.
  op.default_variant = "auto";
  op.output = OutputKind::Data;
  op.data_layout = [](const ImageShape& input, const ParamValues&) {
    DataLayout layout;
    layout.row_title = "channel";
    for (int c = 0; c < input.format.channels; ++c) layout.row_labels.push_back(std::to_string(c));
    layout.columns = stats_column_names();
    return layout;
  };
  op.run_reference_data = [](const ImageView& src, double* result, const ParamValues&) {
    reference::image_stats(src, result);
  };
  // Integer images: everything exact but the mean and deviation (one rounding each, from
  // exact moments, against the reference's long double sums). f32: double sums in
  // another order than the reference's; the deviation also loses digits to
  // E[x^2] - E[x]^2 where it is small beside the mean.
  op.data_tolerance = [](PixelFormat format, const std::string& column) {
    const bool moment = column == "mean" || column == "stddev";
    if (format.type != ChannelType::F32) return moment ? DataTolerance{0.0, 1e-9} : DataTolerance{};
    if (column == "sum" || column == "mean") return DataTolerance{1e-9, 1e-6};
    if (column == "stddev") return DataTolerance{1e-6, 1e-6};
    return DataTolerance{};
  };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes() +
           sizeof(double) * kStatsColumns * static_cast<std::size_t>(format.channels);
  };
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_stats_operation);

}  // namespace ops
}  // namespace gpufilter
