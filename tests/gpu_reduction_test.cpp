// The reduction family (stats, histogram) on every variant, the lab's included, and
// every format against the CPU reference: odd sizes, sub-views at odd offsets, a
// constant image and a smooth gradient (low entropy: atomics pile onto few bins, minima
// and maxima tie everywhere), and, in GpuReductionLarge (filter it out with
// --gtest_filter=-GpuReductionLarge.*), a 16K x 16K image for accumulation drift.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/lab.hpp"

namespace gpufilter::gpu_reduction_test {
namespace {

enum class Fill { Random, Constant, Gradient };

void set_channel(const ImageView& view, int x, int y, int c, double value) {
  const std::size_t i = static_cast<std::size_t>(x) * view.format.channels + c;
  switch (view.format.type) {
    case ChannelType::U8: view.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(value); break;
    case ChannelType::U16: view.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(value); break;
    case ChannelType::F32: view.row<float>(y)[i] = static_cast<float>(value); break;
  }
}

void fill(const ImageView& view, Fill how, std::uint64_t seed) {
  if (how == Fill::Random) {
    testing::fill_random(view, seed);
    return;
  }
  const double top = view.format.type == ChannelType::F32 ? 1.0 : view.format.max_value();
  for (int y = 0; y < view.height; ++y)
    for (int x = 0; x < view.width; ++x)
      for (int c = 0; c < view.format.channels; ++c) {
        double v = top * (c + 1) / 7.0;
        if (how == Fill::Gradient) {
          // A slow ramp across the image: long runs of equal values.
          const double t = (x + 2.0 * y) / (view.width + 2.0 * view.height);
          v = top * 0.25 + top * 0.5 * t;
        }
        if (view.format.type != ChannelType::F32) v = std::floor(v);
        set_channel(view, x, y, c, v);
      }
}

const char* fill_name(Fill how) {
  return how == Fill::Random ? "random" : how == Fill::Constant ? "constant" : "gradient";
}

// The op on the GPU (variant) and on the CPU; `result` poisoned with NaN first, so an
// unwritten value fails. Runs on a sub-view at odd offsets when `subview`.
struct DataRun {
  std::vector<double> gpu, cpu;
  DataLayout layout;
};

DataRun run_data_op(const Operation& op, const std::string& variant, PixelFormat format, int width, int height,
                    bool subview, Fill how, const ParamValues& given = {}) {
  const ParamValues params = op.resolve(given);
  const int pad_x = subview ? 3 : 0, pad_y = subview ? 1 : 0;
  HostImage host(width + pad_x + 2, height + pad_y + 1, format);
  const ImageView host_view = subview ? host.view().subview(pad_x, pad_y, width, height) : host.view();
  fill(host.view(), Fill::Random, 99);
  fill(host_view, how, static_cast<std::uint64_t>(width) * 31 + height);
  DeviceImage device(host.view().width, host.view().height, format);
  copy_image_async(host.view(), device.view(), nullptr);
  const ImageView device_view = subview ? device.view().subview(pad_x, pad_y, width, height) : device.view();

  DataRun run;
  run.layout = op.data_layout(ImageShape{width, height, format}, params);
  const std::size_t n = run.layout.size();
  run.cpu.assign(n, 0.0);
  op.run_reference_data(host_view, run.cpu.data(), params);
  run.gpu.assign(n, std::numeric_limits<double>::quiet_NaN());
  double* result = nullptr;
  GPUFILTER_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&result), n * sizeof(double)));
  GPUFILTER_CUDA_CHECK(cudaMemcpy(result, run.gpu.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  Stream stream;
  lab::run_data_variant(op, variant, device_view, result, params, ExecContext{stream.get(), true});
  GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(run.gpu.data(), result, n * sizeof(double), cudaMemcpyDeviceToHost,
                                       stream.get()));
  stream.synchronize();
  GPUFILTER_CUDA_CHECK(cudaFree(result));
  return run;
}

// Every value within the op's tolerance for its column; the first miss is reported.
::testing::AssertionResult agrees(const Operation& op, PixelFormat format, const DataRun& run) {
  const std::size_t columns = run.layout.columns.size();
  for (std::size_t i = 0; i < run.gpu.size(); ++i) {
    const std::string& column = run.layout.columns[i % columns];
    const DataTolerance tol = op.data_tolerance(format, column);
    const double gpu = run.gpu[i], cpu = run.cpu[i];
    if (!(std::abs(gpu - cpu) <= tol.max_abs + tol.max_rel * std::abs(cpu)))
      return ::testing::AssertionFailure()
             << run.layout.row_title << " " << run.layout.row_labels[i / columns] << ", " << column << ": gpu "
             << gpu << ", reference " << cpu;
  }
  return ::testing::AssertionSuccess();
}

struct Size {
  int width, height;
};
const Size kSizes[] = {{1, 1}, {17, 13}, {1921, 1079}};

void check_every_case(const char* op_name, const ParamValues& params = {}) {
  const Operation& op = *find_operation(op_name);
  for (const PixelFormat format : op.formats)
    for (const Size size : kSizes)
      for (bool subview : {false, true})
        for (Fill how : {Fill::Random, Fill::Constant, Fill::Gradient})
          for (const std::string& variant : lab::library_and_lab_variants(op)) {
            if (how != Fill::Random && size.width == 1) continue;
            const DataRun run = run_data_op(op, variant, format, size.width, size.height, subview, how, params);
            EXPECT_TRUE(agrees(op, format, run))
                << op_name << " " << variant << " " << format.name() << " " << size.width << "x" << size.height
                << (subview ? " sub-view " : " ") << fill_name(how);
          }
}

TEST(GpuReduction, StatsEveryVariantFormatAndSize) { check_every_case("stats"); }

TEST(GpuReduction, HistogramEveryVariantFormatAndSize) { check_every_case("histogram"); }

// Bins by the shift (u8 16 bins; u16 65536 bins, too many for shared memory: the
// fallbacks) and by the double formula (bins that are not a power of two wide, ranges
// that cut values off at both ends).
TEST(GpuReduction, HistogramBinsAndRanges) {
  const Operation& op = *find_operation("histogram");
  struct Binned {
    PixelFormat format;
    ParamValues params;
  };
  const std::vector<Binned> cases = {
      {{ChannelType::U8, 1}, {{"bins", 16}}},
      {{ChannelType::U8, 3}, {{"bins", 100}, {"range", std::vector<double>{10, 200}}}},
      {{ChannelType::U16, 4}, {{"bins", 1000}, {"range", std::vector<double>{100, 60000}}}},
      {{ChannelType::U16, 1}, {{"bins", 65536}, {"range", std::vector<double>{0, 65536}}}},
      {{ChannelType::F32, 3}, {{"bins", 100}, {"range", std::vector<double>{0.25, 0.75}}}},
      {{ChannelType::F32, 1}, {{"bins", 7}, {"range", std::vector<double>{-1, 0.5}}}},
  };
  for (const Binned& c : cases)
    for (const std::string& variant : lab::library_and_lab_variants(op))
      for (Fill how : {Fill::Random, Fill::Gradient}) {
        const DataRun run = run_data_op(op, variant, c.format, 301, 77, true, how, c.params);
        EXPECT_TRUE(agrees(op, c.format, run)) << variant << " " << c.format.name() << " " << fill_name(how);
      }
}

// Nothing is lost or counted twice: the counts of a full-range histogram add up to the
// samples, on each variant.
TEST(GpuReduction, HistogramCountsEverySample) {
  const Operation& op = *find_operation("histogram");
  for (const std::string& variant : lab::library_and_lab_variants(op)) {
    const DataRun run = run_data_op(op, variant, PixelFormat{ChannelType::U8, 4}, 1023, 517, true, Fill::Random);
    double total = 0;
    for (double v : run.gpu) total += v;
    EXPECT_EQ(total, 1023.0 * 517 * 4) << variant;
  }
}

// Ties: the first occurrence in row-major order, also when the extreme value repeats
// in many blocks (a constant image: every pixel ties, the answer is (0, 0)).
TEST(GpuReduction, StatsPositionsOfTies) {
  const Operation& op = *find_operation("stats");
  for (const std::string& variant : lab::library_and_lab_variants(op)) {
    const DataRun run = run_data_op(op, variant, PixelFormat{ChannelType::U8, 3}, 1921, 1079, true, Fill::Constant);
    for (int c = 0; c < 3; ++c)
      for (StatsColumn k : {StatsColumn::MinX, StatsColumn::MinY, StatsColumn::MaxX, StatsColumn::MaxY})
        EXPECT_EQ(run.gpu[static_cast<std::size_t>(c * kStatsColumns + static_cast<int>(k))], 0.0) << variant;
  }
}

// The public API: image_stats writes into a device buffer, read_image_stats reads it.
TEST(GpuReduction, StatsLibraryApi) {
  const PixelFormat format{ChannelType::U16, 1};
  HostImage host(5, 2, format);
  const std::uint16_t values[10] = {7, 3, 9, 3, 1000, 1000, 2, 9, 2, 1000};
  for (int i = 0; i < 10; ++i) host.view().row<std::uint16_t>(i / 5)[i % 5] = values[i];
  DeviceImage device(5, 2, format);
  copy_image_async(host.view(), device.view(), nullptr);
  double* result = nullptr;
  GPUFILTER_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&result), kStatsColumns * sizeof(double)));
  // The library's variants through image_stats, the lab's through its API.
  std::vector<std::pair<std::string, std::function<void()>>> runs;
  for (const std::string& name : find_operation("stats")->variants)
    runs.emplace_back(name, [&, name] { image_stats(device.view(), result, reduction_variant_from_name(name)); });
  for (const lab::LabVariant* v : lab::lab_variants_of("stats"))
    runs.emplace_back(v->variant, [&, v] { v->run_data(device.view(), result, {}, ExecContext{}); });
  for (const auto& [variant, run] : runs) {
    run();
    double raw[kStatsColumns];
    GPUFILTER_CUDA_CHECK(cudaMemcpy(raw, result, sizeof(raw), cudaMemcpyDeviceToHost));
    const ChannelStats s = read_image_stats(raw, 1)[0];
    EXPECT_EQ(s.min, 2) << variant;
    EXPECT_EQ(s.min_x, 1) << variant;
    EXPECT_EQ(s.min_y, 1) << variant;
    EXPECT_EQ(s.max, 1000) << variant;
    EXPECT_EQ(s.max_x, 4) << variant;
    EXPECT_EQ(s.max_y, 0) << variant;
    EXPECT_EQ(s.sum, 3035) << variant;
  }
  GPUFILTER_CUDA_CHECK(cudaFree(result));
  EXPECT_THROW(image_stats(host.view(), result), Error);  // host memory
}

// 2^28 samples: an accumulator in float would be off in the sixth digit; the sums must
// be exact and the moments within 1e-9.
TEST(GpuReductionLarge, Stats16KGrayU8) {
  const Operation& op = *find_operation("stats");
  for (const std::string& variant :
       {std::string("packed_warp"), std::string("packed_warp_prefetch"), std::string("packed_warp_deep"),
        std::string("packed_warp_async"), std::string("packed_warp_bulk"), std::string("packed"), std::string("vectorized"),
        std::string("warp_shuffle")}) {
    const DataRun run = run_data_op(op, variant, PixelFormat{ChannelType::U8, 1}, 16384, 16384, false, Fill::Random);
    EXPECT_TRUE(agrees(op, PixelFormat{ChannelType::U8, 1}, run)) << variant;
  }
}

TEST(GpuReductionLarge, Histogram16KGrayU8) {
  const Operation& op = *find_operation("histogram");
  for (const std::string& variant : {std::string("warp_private"), std::string("lane_private")}) {
    const DataRun run =
        run_data_op(op, variant, PixelFormat{ChannelType::U8, 1}, 16384, 16384, false, Fill::Gradient);
    EXPECT_TRUE(agrees(op, PixelFormat{ChannelType::U8, 1}, run)) << variant;
  }
}

// ---- equalize, threshold, normalize ----------------------------------------------------

// The image op on the GPU (into a poisoned output) and on the CPU; exact agreement.
testing::Difference run_tone_op(const Operation& op, const std::string& variant, PixelFormat format, int width,
                                int height, bool subview, Fill how, const ParamValues& given) {
  const ParamValues params = op.resolve(given);
  // A sub-view sits in a parent with margins on every side; a whole image has none.
  const int pad_x = subview ? 3 : 0, pad_y = subview ? 1 : 0;
  const int margin_x = subview ? 2 : 0, margin_y = subview ? 1 : 0;
  HostImage host(width + pad_x + margin_x, height + pad_y + margin_y, format), expected(width, height, format),
      actual(width, height, format);
  const ImageView host_view = subview ? host.view().subview(pad_x, pad_y, width, height) : host.view();
  fill(host.view(), Fill::Random, 5);
  fill(host_view, how, static_cast<std::uint64_t>(width) * 7 + height);
  op.run_reference(host_view, expected.view(), params, Border{});
  testing::poison_against(actual.view(), expected.view());
  DeviceImage device(host.view().width, host.view().height, format), dst(width, height, format);
  copy_image_async(host.view(), device.view(), nullptr);
  copy_image_async(actual.view(), dst.view(), nullptr);
  const ImageView device_view = subview ? device.view().subview(pad_x, pad_y, width, height) : device.view();
  lab::run_variant(op, variant, device_view, dst.view(), params, Border{}, ExecContext{nullptr, true});
  copy_image_async(dst.view(), actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return testing::compare(actual.view(), expected.view());
}

TEST(GpuTone, EveryOpVariantFormatAndSetting) {
  struct Setting {
    const char* op;
    ParamValues params;
  };
  const std::vector<Setting> settings = {
      {"equalize", {}},          {"equalize", {{"per-channel", 1}}}, {"threshold", {{"value", 100}}},
      {"threshold", {{"otsu", 1}}}, {"normalize", {}},                {"normalize", {{"clip", 5}}},
  };
  for (const Setting& s : settings) {
    const Operation& op = *find_operation(s.op);
    for (const PixelFormat format : op.formats)
      for (const Size size : kSizes)
        for (bool subview : {false, true})
          for (Fill how : {Fill::Random, Fill::Constant, Fill::Gradient})
            for (const std::string& variant : lab::library_and_lab_variants(op)) {
              const testing::Difference diff =
                  run_tone_op(op, variant, format, size.width, size.height, subview, how, s.params);
              EXPECT_TRUE(diff.within(0.0)) << s.op << " " << variant << " " << format.name() << " " << size.width
                                            << "x" << size.height << (subview ? " sub-view " : " ") << fill_name(how)
                                            << ": " << diff.describe();
            }
  }
}

}  // namespace
}  // namespace gpufilter::gpu_reduction_test
