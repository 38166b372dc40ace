// The edges of the fast reduction kernels (packed stats, lane_private histogram, the
// vectorized gray equalize): sums that overflow 32 bits (2^24 + pixels of 255), constant
// images (every sample in one bin, every pixel a tie), whole images walked as one
// segment (contiguous rows) and sub-views starting at every byte offset of a 16-byte
// chunk and a 48-byte group, falling minima (the packed kernel's replay path), and the
// lane_private fallback to fewer copies under a smaller GPU's shared memory.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/lab.hpp"
#include "reduction/reduction_tuning.hpp"
#include "shared_memory_cap.hpp"

namespace gpufilter::gpu_reduction_edges_test {
namespace {

// Every sample of the view: value(x, y, c).
template <class F>
void fill_with(const ImageView& view, F value) {
  for (int y = 0; y < view.height; ++y)
    for (int x = 0; x < view.width; ++x)
      for (int c = 0; c < view.format.channels; ++c) {
        const std::size_t i = static_cast<std::size_t>(x) * view.format.channels + c;
        const double v = value(x, y, c);
        switch (view.format.type) {
          case ChannelType::U8: view.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(v); break;
          case ChannelType::U16: view.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(v); break;
          case ChannelType::F32: view.row<float>(y)[i] = static_cast<float>(v); break;
        }
      }
}

struct DataResult {
  std::vector<double> gpu, cpu;
  DataLayout layout;
};

// The op on `host` (a view of a larger host image at (x0, y0), or the whole of it) on
// the GPU, through the same view of a device copy, and on the CPU.
DataResult run_on(const Operation& op, const std::string& variant, const HostImage& host, int x0, int y0, int width,
                  int height, const ParamValues& given = {}) {
  const ParamValues params = op.resolve(given);
  const ImageView host_view = host.view().subview(x0, y0, width, height);
  DeviceImage device(host.view().width, host.view().height, host.view().format);
  copy_image_async(host.view(), device.view(), nullptr);
  const ImageView device_view = device.view().subview(x0, y0, width, height);
  DataResult r;
  r.layout = op.data_layout(ImageShape{width, height, host.view().format}, params);
  const std::size_t n = r.layout.size();
  r.cpu.assign(n, 0.0);
  op.run_reference_data(host_view, r.cpu.data(), params);
  r.gpu.assign(n, std::numeric_limits<double>::quiet_NaN());
  double* result = nullptr;
  GPUFILTER_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&result), n * sizeof(double)));
  GPUFILTER_CUDA_CHECK(cudaMemcpy(result, r.gpu.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  lab::run_data_variant(op, variant, device_view, result, params, ExecContext{nullptr, true});
  GPUFILTER_CUDA_CHECK(cudaMemcpy(r.gpu.data(), result, n * sizeof(double), cudaMemcpyDeviceToHost));
  GPUFILTER_CUDA_CHECK(cudaFree(result));
  return r;
}

::testing::AssertionResult agrees(const Operation& op, PixelFormat format, const DataResult& r) {
  const std::size_t columns = r.layout.columns.size();
  for (std::size_t i = 0; i < r.gpu.size(); ++i) {
    const std::string& column = r.layout.columns[i % columns];
    const DataTolerance tol = op.data_tolerance(format, column);
    if (!(std::abs(r.gpu[i] - r.cpu[i]) <= tol.max_abs + tol.max_rel * std::abs(r.cpu[i])))
      return ::testing::AssertionFailure() << r.layout.row_title << " " << r.layout.row_labels[i / columns] << ", "
                                           << column << ": gpu " << r.gpu[i] << ", reference " << r.cpu[i];
  }
  return ::testing::AssertionSuccess();
}

// The stats variants with the segment walk (packed u8 arithmetic), and vectorized.
const std::vector<std::string> kPackedStatsVariants = {"packed", "packed_warp", "packed_warp_prefetch",
                                                       "packed_warp_deep", "packed_warp_async",
                                                       "packed_warp_bulk"};
std::vector<std::string> packed_and_vectorized() {
  std::vector<std::string> v = kPackedStatsVariants;
  v.push_back("vectorized");
  return v;
}

double stat(const DataResult& r, int channel, StatsColumn column) {
  return r.gpu[static_cast<std::size_t>(channel * kStatsColumns + static_cast<int>(column))];
}

// 4097 x 4097 > 2^24 pixels of 255: a 32-bit float sum would round, a 32-bit integer sum
// of squares would wrap (255^2 * 2^24 > 2^32). Every variant, gray and RGBA, exact.
TEST(GpuReductionEdges, StatsSumsPast32BitsAllVariants) {
  const Operation& op = *find_operation("stats");
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 4}}) {
    const int side = format.channels == 1 ? 4097 : 2049;  // RGBA: 2^22 pixels, 2^24 samples
    HostImage host(side, side, format);
    fill_with(host.view(), [](int, int, int) { return 255.0; });
    for (const std::string& variant : lab::library_and_lab_variants(op)) {
      const DataResult r = run_on(op, variant, host, 0, 0, side, side);
      const double n = static_cast<double>(side) * side;
      for (int c = 0; c < format.channels; ++c) {
        EXPECT_EQ(stat(r, c, StatsColumn::Sum), 255.0 * n) << variant << " " << format.name();
        EXPECT_EQ(stat(r, c, StatsColumn::Mean), 255.0) << variant << " " << format.name();
        EXPECT_EQ(stat(r, c, StatsColumn::StdDev), 0.0) << variant << " " << format.name();
        EXPECT_EQ(stat(r, c, StatsColumn::Min), 255.0) << variant << " " << format.name();
        EXPECT_EQ(stat(r, c, StatsColumn::MinX), 0.0) << variant << " " << format.name();
        EXPECT_EQ(stat(r, c, StatsColumn::MaxY), 0.0) << variant << " " << format.name();
      }
    }
  }
}

// u16 at the top of its range: 65535^2 per sample, 2^24 + samples.
TEST(GpuReductionEdges, StatsU16TopOfRange) {
  const Operation& op = *find_operation("stats");
  const PixelFormat format{ChannelType::U16, 1};
  HostImage host(4097, 4097, format);
  fill_with(host.view(), [](int x, int y, int) { return (x + y) % 3 == 0 ? 0.0 : 65535.0; });
  for (const std::string& variant : packed_and_vectorized()) {
    const DataResult r = run_on(op, variant, host, 0, 0, 4097, 4097);
    EXPECT_TRUE(agrees(op, format, r)) << variant;
  }
}

// Sub-views starting at every byte offset of a 48-byte group (so every head length and
// every phase), widths around the group sizes, on random data and on a falling ramp
// (each row's minimum falls all along: the packed kernel replays often).
TEST(GpuReductionEdges, PackedStatsAndLaneHistogramAtEveryOffset) {
  const Operation& stats = *find_operation("stats");
  const Operation& histogram = *find_operation("histogram");
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3},
                                   PixelFormat{ChannelType::U8, 4}, PixelFormat{ChannelType::U16, 3},
                                   PixelFormat{ChannelType::F32, 4}}) {
    for (bool ramp : {false, true}) {
      HostImage host(200, 9, format);
      if (ramp) {
        fill_with(host.view(), [&](int x, int y, int c) {
          const double top = format.type == ChannelType::F32 ? 1.0 : format.max_value();
          return std::floor(top * (1.0 - (x + 200.0 * y) / 1801.0) * (c + 1) / 4.0);
        });
      } else {
        testing::fill_random(host.view(), 7);
      }
      for (int x0 = 0; x0 < 48; ++x0)
        for (int width : {1, 5, 16, 17, 47, 48, 49, 131}) {
          if (x0 + width > 200) continue;
          for (const std::string& variant : kPackedStatsVariants) {
            const DataResult s = run_on(stats, variant, host, x0, 1, width, 7);
            EXPECT_TRUE(agrees(stats, format, s))
                << variant << " " << format.name() << " x0 " << x0 << " width " << width << " ramp " << ramp;
          }
          const DataResult h = run_on(histogram, "lane_private", host, x0, 1, width, 7);
          EXPECT_TRUE(agrees(histogram, format, h)) << format.name() << " x0 " << x0 << " width " << width;
        }
    }
  }
}

// packed_warp tests samples against the warp's best values and replays only groups that
// beat them, so the first occurrence must survive: extremes tied all over the image
// (two values only), extremes planted several times per channel (in one step of a warp,
// in neighbouring lanes, in later steps, in the head of a sub-view's rows), and a ramp
// falling over the whole image (the bounds fall at every step). Whole images (one
// segment for the grid) and sub-views (a warp per row), gray, RGB and RGBA, against the
// reference's first positions, on every stats variant.
TEST(GpuReductionEdges, StatsFirstPositionsUnderWarpBounds) {
  const Operation& op = *find_operation("stats");
  enum class Pattern { TwoValues, Planted, FallingRamp };
  for (const PixelFormat format :
       {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U8, 4}}) {
    for (Pattern pattern : {Pattern::TwoValues, Pattern::Planted, Pattern::FallingRamp}) {
      const int width = 1024, height = 96;  // 1024 pixels: contiguous rows for every channel count
      HostImage host(width, height, format);
      const double n = static_cast<double>(width) * height;
      fill_with(host.view(), [&](int x, int y, int c) {
        const unsigned h = static_cast<unsigned>(x * 73856093) ^ static_cast<unsigned>(y * 19349663) ^
                           static_cast<unsigned>(c * 83492791);
        switch (pattern) {
          case Pattern::TwoValues: return 100.0 + ((h >> 7) & 1u);
          case Pattern::FallingRamp: return std::floor(255.0 * (1.0 - (y * width + x) / n));
          case Pattern::Planted: break;
        }
        // Pixels 1000 + 4k for k < 8 (one warp step: neighbouring 16-byte chunks), a
        // later row, and the last pixel: the minimum 3 and the maximum 250, per channel
        // shifted by c so the channels' answers differ.
        const int p = y * width + x - c;
        if (p >= 1000 && p < 1032 && (p - 1000) % 4 == 0) return (p / 4) % 2 == 0 ? 3.0 : 250.0;
        if (y == 61 && (x == 5 + c || x == 900)) return 3.0;
        if (y == 62 && x == 7 + c) return 250.0;
        if (y == height - 1 && x == width - 1) return c % 2 == 0 ? 3.0 : 250.0;
        return 20.0 + static_cast<double>((h >> 5) % 200u);
      });
      for (const std::string& variant : lab::library_and_lab_variants(op)) {
        const DataResult whole = run_on(op, variant, host, 0, 0, width, height);
        EXPECT_TRUE(agrees(op, format, whole))
            << variant << " " << format.name() << " pattern " << static_cast<int>(pattern) << " whole";
        const DataResult sub = run_on(op, variant, host, 3, 1, width - 9, height - 2);
        EXPECT_TRUE(agrees(op, format, sub))
            << variant << " " << format.name() << " pattern " << static_cast<int>(pattern) << " sub-view";
      }
    }
  }
}

// The walk's step loop at its ends: rows (a warp each) whose body is a whole number of
// a warp's steps (32 lanes x groups per step) and one group more or less, for every
// multiple of 32 groups up to 9, so that each walk shape (2, 4 or 8 groups a step, 1 to
// 3 for three channels; loads 0, 1 or 3 steps ahead) meets rows of one step, of a part
// step, of steps ending in a lane's last group, and loads ahead past the row's end;
// with a falling ramp (the bounds fall at every step) and random data; and one such row
// alone (a one-row view is one segment, walked by the grid's threads).
TEST(GpuReductionEdges, PackedWarpWalksAtStepBoundaries) {
  const Operation& op = *find_operation("stats");
  for (const PixelFormat format :
       {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U8, 4}}) {
    const int group_samples = format.channels == 3 ? 48 : 16;
    for (int lane_groups = 1; lane_groups <= 9; ++lane_groups)
      for (int extra : {-1, 0, 1}) {
        const int width = (32 * lane_groups + extra) * group_samples / format.channels;
        for (bool ramp : {false, true}) {
          HostImage host(width + 5, 6, format);
          if (ramp) {
            const double n = (width + 5) * 6.0;
            fill_with(host.view(), [&](int x, int y, int c) {
              return std::floor(255.0 * (1.0 - (y * (width + 5) + x) / n) * (c + 2) / 5.0);
            });
          } else {
            testing::fill_random(host.view(), static_cast<std::uint64_t>(width));
          }
          for (const std::string& variant : kPackedStatsVariants) {
            const DataResult rows = run_on(op, variant, host, 0, 1, width, 5);
            EXPECT_TRUE(agrees(op, format, rows))
                << variant << " " << format.name() << " width " << width << " ramp " << ramp;
            const DataResult row = run_on(op, variant, host, 0, 2, width, 1);
            EXPECT_TRUE(agrees(op, format, row))
                << variant << " " << format.name() << " one row, width " << width << " ramp " << ramp;
          }
        }
      }
  }
}

// packed_warp_bulk's block stages (whole images on sm_90 and later; elsewhere the
// per-warp ring): one-row views (one segment) at every head length before the first
// 16-byte boundary, with bodies of whole stages and one group more or less (a part
// stage last), gray, RGB and RGBA; then an RGBA image of many stages per block, so that
// every slot of the ring is refilled and its barrier's phase flips several times.
TEST(GpuReductionEdges, BulkStagesAtEveryHeadAndStageEnd) {
  const Operation& op = *find_operation("stats");
  using Walk = kernels::PackedWarpBulkWalk;
  for (const PixelFormat format :
       {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U8, 4}}) {
    const int group_samples = format.channels == 3 ? 48 : 16;
    const int groups_per_thread =
        format.channels == 1 ? Walk::kGroups1 : format.channels == 3 ? Walk::kGroups3 : Walk::kGroups4;
    const int stage_groups = groups_per_thread * kernels::ReductionTuning::kThreads;
    for (int stages : {1, 3})
      for (int extra : {-1, 0, 1}) {
        const int width = ((stages * stage_groups + extra) * group_samples + format.channels - 1) / format.channels;
        HostImage host(width + 16, 3, format);
        testing::fill_random(host.view(), static_cast<std::uint64_t>(width));
        for (int x0 = 0; x0 < 16; ++x0) {
          const DataResult row = run_on(op, "packed_warp_bulk", host, x0, 1, width, 1);
          EXPECT_TRUE(agrees(op, format, row))
              << format.name() << " stages " << stages << " extra " << extra << " x0 " << x0;
        }
      }
  }
  const PixelFormat rgba{ChannelType::U8, 4};
  HostImage big(4096, 2304, rgba);  // 37.7 MB: about 4600 stages of 8 KiB
  testing::fill_random(big.view(), 3);
  const DataResult whole = run_on(op, "packed_warp_bulk", big, 0, 0, 4096, 2304);
  EXPECT_TRUE(agrees(op, rgba, whole)) << "many stages per block";
}

// The histogram's counts and blocks-done counter are zeroed on the stream before each
// call and its scratch is reused from the library's pool: calls back to back on one
// stream, nothing synchronized between them, each get their own exact counts.
TEST(GpuReductionEdges, HistogramBackToBackOnOneStream) {
  const Operation& op = *find_operation("histogram");
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 4}}) {
    HostImage a(777, 301, format), b(777, 301, format);
    testing::fill_random(a.view(), 21);
    fill_with(b.view(), [](int x, int, int c) { return static_cast<double>((x + c) % 7); });
    DeviceImage da(777, 301, format), db(777, 301, format);
    copy_image_async(a.view(), da.view(), nullptr);
    copy_image_async(b.view(), db.view(), nullptr);
    GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
    const ParamValues params = op.resolve({});
    const std::size_t n = op.data_layout(ImageShape{777, 301, format}, params).size();
    std::vector<double> expect_a(n), expect_b(n);
    op.run_reference_data(a.view(), expect_a.data(), params);
    op.run_reference_data(b.view(), expect_b.data(), params);
    for (const std::string& variant : lab::library_and_lab_variants(op)) {
      Stream stream;
      double* results = nullptr;
      GPUFILTER_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&results), 3 * n * sizeof(double)));
      const ExecContext ctx{stream.get(), false};
      lab::run_data_variant(op, variant, da.view(), results, params, ctx);
      lab::run_data_variant(op, variant, db.view(), results + n, params, ctx);
      lab::run_data_variant(op, variant, da.view(), results + 2 * n, params, ctx);
      std::vector<double> got(3 * n);
      GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(got.data(), results, 3 * n * sizeof(double), cudaMemcpyDeviceToHost,
                                           static_cast<cudaStream_t>(stream.get())));
      stream.synchronize();
      GPUFILTER_CUDA_CHECK(cudaFree(results));
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[i], expect_a[i]) << variant << " " << format.name() << " first call, entry " << i;
        ASSERT_EQ(got[n + i], expect_b[i]) << variant << " " << format.name() << " second call, entry " << i;
        ASSERT_EQ(got[2 * n + i], expect_a[i]) << variant << " " << format.name() << " third call, entry " << i;
      }
    }
  }
}

// Images whose rows are contiguous (row bytes a multiple of the device pitch alignment)
// are walked as one segment by the whole grid; a single row too.
TEST(GpuReductionEdges, WholeImagesAsOneSegment) {
  const Operation& stats = *find_operation("stats");
  const Operation& histogram = *find_operation("histogram");
  struct Case {
    PixelFormat format;
    int width, height;
  };
  const std::vector<Case> cases = {{{ChannelType::U8, 1}, 1024, 37},   {{ChannelType::U8, 3}, 512, 33},
                                   {{ChannelType::U8, 4}, 256, 41},    {{ChannelType::U8, 1}, 100003, 1},
                                   {{ChannelType::U16, 1}, 512, 19},   {{ChannelType::F32, 3}, 512, 5},
                                   {{ChannelType::U8, 4}, 2048, 1100}};
  for (const Case& c : cases) {
    HostImage host(c.width, c.height, c.format);
    testing::fill_random(host.view(), 11);
    for (const std::string& variant : packed_and_vectorized()) {
      const DataResult s = run_on(stats, variant, host, 0, 0, c.width, c.height);
      EXPECT_TRUE(agrees(stats, c.format, s)) << variant << " " << c.format.name() << " " << c.width;
    }
    const DataResult h = run_on(histogram, "lane_private", host, 0, 0, c.width, c.height);
    EXPECT_TRUE(agrees(histogram, c.format, h)) << c.format.name() << " " << c.width;
  }
}

// A constant image puts every sample of a channel in one bin: 2^24 + counts in one
// counter of every variant, and the 32 lane copies of lane_private all on one bin.
TEST(GpuReductionEdges, HistogramConstantImagesAllVariants) {
  const Operation& op = *find_operation("histogram");
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 4}}) {
    const int side = format.channels == 1 ? 4097 : 2049;
    HostImage host(side, side, format);
    fill_with(host.view(), [](int, int, int c) { return 200.0 - c; });
    for (const std::string& variant : lab::library_and_lab_variants(op)) {
      if (variant == "global_atomic") continue;  // 2^24 atomics on one address: minutes
      const DataResult r = run_on(op, variant, host, 0, 0, side, side);
      EXPECT_TRUE(agrees(op, format, r)) << variant << " " << format.name();
      for (int c = 0; c < format.channels; ++c)
        EXPECT_EQ(r.gpu[static_cast<std::size_t>((200 - c) * format.channels + c)], static_cast<double>(side) * side)
            << variant << " " << format.name();
    }
  }
}

// packed_warp_async under sm_75's 64 KiB of shared memory per block: gray's ring fits
// (10 + 32 KiB), RGB's and RGBA's do not and packed_warp runs; exact either way.
TEST(GpuReductionEdges, PackedWarpAsyncUnderSmallSharedMemory) {
  const Operation& op = *find_operation("stats");
  const SharedMemoryCap cap(kSm75SharedMemory);
  for (const PixelFormat format :
       {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U8, 4}}) {
    HostImage host(1031, 67, format);
    testing::fill_random(host.view(), 5);
    const DataResult rows = run_on(op, "packed_warp_async", host, 3, 1, 1021, 65);
    EXPECT_TRUE(agrees(op, format, rows)) << format.name() << " sub-view";
    const DataResult row = run_on(op, "packed_warp_async", host, 0, 5, 1031, 1);
    EXPECT_TRUE(agrees(op, format, row)) << format.name() << " one row";
  }
}

// Under a smaller GPU's shared memory lane_private takes 8 copies (RGBA at 64 KiB) or
// falls back to shared_private (u16 with 4096 bins); the counts stay exact.
TEST(GpuReductionEdges, LanePrivateFallbacks) {
  const Operation& op = *find_operation("histogram");
  const SharedMemoryCap cap(kSm75SharedMemory);
  struct Case {
    PixelFormat format;
    ParamValues params;
  };
  const std::vector<Case> cases = {{{ChannelType::U8, 4}, {}},
                                   {{ChannelType::U8, 3}, {}},
                                   {{ChannelType::U16, 1}, {{"bins", 4096}}},
                                   {{ChannelType::F32, 4}, {{"bins", 100}}}};
  for (const Case& c : cases)
    for (bool constant : {false, true}) {
      HostImage host(301, 77, c.format);
      if (constant) {
        fill_with(host.view(), [](int, int, int) { return 0.0; });
      } else {
        testing::fill_random(host.view(), 3);
      }
      const DataResult r = run_on(op, "lane_private", host, 3, 1, 297, 75, c.params);
      EXPECT_TRUE(agrees(op, c.format, r)) << c.format.name() << " constant " << constant;
    }
}

// Gray equalize through the vectorized table kernel (aligned source and destination:
// whole images as one segment, or rows) and the pixel kernel (a source sub-view one byte
// off), against the reference. x0 < 0: the source is a whole image.
TEST(GpuReductionEdges, EqualizeGrayAlignedAndNot) {
  const Operation& op = *find_operation("equalize");
  const PixelFormat format{ChannelType::U8, 1};
  for (int x0 : {-1, 0, 1, 16}) {
    for (int width : {1024, 999, 4096}) {
      const bool whole = x0 < 0;
      const int left = whole ? 0 : x0, top = whole ? 0 : 1;
      HostImage host(width + (whole ? 0 : 32), whole ? 19 : 21, format), expected(width, 19, format),
          actual(width, 19, format);
      testing::fill_random(host.view(), 5);
      const ImageView src_view = host.view().subview(left, top, width, 19);
      op.run_reference(src_view, expected.view(), op.resolve({}), Border{});
      DeviceImage device(host.view().width, host.view().height, format), dst(width, 19, format);
      copy_image_async(host.view(), device.view(), nullptr);
      for (const std::string& variant : lab::library_and_lab_variants(op)) {
        testing::poison_against(actual.view(), expected.view());
        copy_image_async(actual.view(), dst.view(), nullptr);
        lab::run_variant(op, variant, device.view().subview(left, top, width, 19), dst.view(), op.resolve({}),
                         Border{}, ExecContext{nullptr, true});
        copy_image_async(dst.view(), actual.view(), nullptr);
        GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
        const testing::Difference diff = testing::compare(actual.view(), expected.view());
        EXPECT_TRUE(diff.within(0.0)) << variant << " x0 " << x0 << " width " << width << ": " << diff.describe();
      }
    }
  }
}

}  // namespace
}  // namespace gpufilter::gpu_reduction_edges_test
