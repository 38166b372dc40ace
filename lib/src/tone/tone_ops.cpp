// equalize, threshold, normalize: image ops that run a histogram first (tone.hpp); their
// registry entries (their GPU side: gpu/tone_gpu.cpp).
#include <string>
#include <vector>

#include "tone/tone_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/tone.hpp"
#include "common/operations.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter {
namespace ops {

EqualizeParams equalize_params(const ParamValues& values) {
  return EqualizeParams{values.number_or("per-channel", 0) != 0};
}

ThresholdParams threshold_params(const ParamValues& values) {
  return ThresholdParams{static_cast<int>(values.number_or("value", 128)), values.number_or("otsu", 0) != 0};
}

NormalizeParams normalize_params(const ParamValues& values) { return NormalizeParams{values.number_or("clip", 0)}; }

namespace {

const std::vector<PixelFormat>& u8_formats() {
  static const std::vector<PixelFormat> formats = {
      {ChannelType::U8, 1}, {ChannelType::U8, 3}, {ChannelType::U8, 4}};
  return formats;
}

// What every tone op shares: u8 formats, the histogram variants, exact results, and
// the bytes a perfect two-pass kernel moves (the histogram's read, then a read and a
// write).
Operation tone_operation(std::string name, std::string summary) {
  Operation op;
  op.name = std::move(name);
  op.group = OperationGroup::Statistics;
  op.summary = std::move(summary);
  op.formats = u8_formats();
  op.variants = names_of(kHistogramVariants);
  // The histogram's lane_private: conflict-free atomics by construction, random or constant
  // data alike (docs/gpu-results.md#reductions-and-histogram).
  op.default_variant = "lane_private";
  op.tolerance = [](PixelFormat) { return 0.0; };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 3 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  return op;
}

}  // namespace

Operation make_equalize_operation() {
  Operation op = tone_operation("equalize", "Histogram equalization (luminance of colour images, or --per-channel)");
  op.params = {flag_param("per-channel", "equalize each colour channel alone instead of the luminance")};
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::equalize(src, dst, equalize_params(values));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::equalize(src, dst, equalize_params(values));
  };
  return op;
}

Operation make_threshold_operation() {
  Operation op = tone_operation("threshold", "Binary threshold: 255 above T, 0 elsewhere (--value T or --otsu)");
  op.params = {number_param("value", "the threshold T: values above it become 255", 0, 255, 128, true),
               flag_param("otsu", "choose T per channel by Otsu's method")};
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::threshold(src, dst, threshold_params(values));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::threshold(src, dst, threshold_params(values));
  };
  // --value needs no histogram: one read and one write.
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues& values) {
    const std::size_t passes = values.number_or("otsu", 0) != 0 ? 3 : 2;
    return passes * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  op.test_params = {{"otsu", 1}};
  op.bench_params = {{"otsu", 1}};
  return op;
}

Operation make_normalize_operation() {
  Operation op = tone_operation("normalize", "Contrast stretch to the full range, --clip P percent at each end");
  op.params = {number_param("clip", "percent of samples ignored at each end", 0, 49.9, 0.0)};
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::normalize(src, dst, normalize_params(values));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::normalize(src, dst, normalize_params(values));
  };
  op.test_params = {{"clip", 1.5}};
  op.bench_params = {{"clip", 1}};
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_equalize_operation);
GPUFILTER_REGISTER_OPERATION(make_threshold_operation);
GPUFILTER_REGISTER_OPERATION(make_normalize_operation);

}  // namespace ops
}  // namespace gpufilter
