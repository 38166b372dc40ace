#pragma once
// gpufilter-memory-bench: the seeds' memory-access experiments that the registry-driven
// bench cannot express (start offsets, tails, a 1 GiB buffer, upload paths, AoS vs SoA,
// block sizes). Each experiment prints one Markdown table; every timed result is
// checked against its source first, so a wrong kernel shows "FAILED", never a time.
// See bench/README.md ("gpufilter-memory-bench").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuda_timer.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/stream.hpp"

namespace bench::memory {

// 8K RGBA u8, the image size of the targets.
constexpr int k8KWidth = 7680;
constexpr int k8KHeight = 4320;
constexpr std::size_t k8KRgbaBytes = std::size_t{k8KWidth} * k8KHeight * 4;
// The 1 GiB buffer: 8192 u8x4 pixels (32 KiB) per row, 32768 rows, no padding.
constexpr int kGiBWidth = 8192;
constexpr int kGiBHeight = 32768;
constexpr std::size_t kGiB = std::size_t{1} << 30;
// Left free beside an experiment's buffers (the L2 flusher, the CUDA context's own use).
constexpr std::size_t kMemoryMargin = std::size_t{512} << 20;
// Cases that count this many bytes or more (the 1 GiB buffers) time fewer launches: one
// takes milliseconds and their spread is small. 8K RGBA copies (2 x 127 MiB) stay below.
constexpr std::size_t kLargeCaseBytes = std::size_t{512} << 20;
constexpr int kLargeCaseIterations = 5;
// The experiments' pixel: 8-bit RGBA.
constexpr gpufilter::PixelFormat kRgba{gpufilter::ChannelType::U8, 4};
// Bytes the poisoned destinations are filled with before each case.
constexpr unsigned char kPoison = 0xA5;

struct Options {
  int warmup = 3;
  int iterations = 20;
  std::vector<std::string> only;  // experiment names; empty: all
};

// What every experiment shares: the stream, the timer and flusher, the failures seen.
struct Context {
  Options options;
  gpufilter::Stream stream;
  gpufilter::ExecContext exec;
  L2Flusher flusher;
  EventTimer timer;
  std::vector<std::string> failures;

  explicit Context(const Options& opts);
  cudaStream_t raw_stream() const { return stream.get(); }
  // Copies `host` into `device` on the stream and waits for it.
  void upload(const gpufilter::HostImage& host, const gpufilter::ImageView& device);

  // The median milliseconds of `launch` (warm-up, then timed launches each after an L2
  // flush), then `check()` on what the last launch left: "" when right, else why not.
  // A throw or a failed check is recorded in `failures` under `name` and gives nullopt.
  // Cases of `bytes` >= kLargeCaseBytes time at most kLargeCaseIterations launches.
  std::optional<double> measure(const std::string& name, std::size_t bytes, const std::function<void()>& launch,
                                const std::function<std::string()>& check);
  // As measure(), with each sample from `sample()` (milliseconds; one more first, as
  // warm-up), for cases that do untimed work between launches (touching managed memory
  // on the host).
  std::optional<double> measure_samples(const std::string& name, int samples, const std::function<double()>& sample,
                                        const std::function<std::string()>& check);
  void fail(const std::string& name, const std::string& why);
};

// A Markdown table printed at once, with a title line and notes under it.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(const std::string& title, const std::string& notes) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "92.8 µs" / "12.34 ms"; "FAILED" for nullopt.
std::string format_time(std::optional<double> ms);
// bytes / time in GB/s ("2859"); "-" for nullopt.
std::string format_gbps(std::size_t bytes, std::optional<double> ms);
// "92.8 µs, 2859 GB/s"; "FAILED" for nullopt.
std::string format_cell(std::size_t bytes, std::optional<double> ms);
// a / b as "0.97"; "-" when either is missing.
std::string format_ratio(std::optional<double> numerator_ms, std::optional<double> denominator_ms);

// Device memory free now (cudaMemGetInfo).
std::size_t free_device_bytes();

// Linear device memory (cudaMalloc, or cudaMallocManaged with `managed`), seen as an
// image of packed rows; move-less, freed by the destructor.
class FlatBuffer {
 public:
  FlatBuffer(int width, int height, gpufilter::PixelFormat format, bool managed = false);
  ~FlatBuffer();
  FlatBuffer(const FlatBuffer&) = delete;
  FlatBuffer& operator=(const FlatBuffer&) = delete;
  const gpufilter::ImageView& view() const { return view_; }
  std::size_t bytes() const { return view_.pitch * static_cast<std::size_t>(view_.height); }

 private:
  gpufilter::ImageView view_{};
};

// Fills every byte of a device view with kPoison (enqueued on the context's stream).
void poison(Context& context, const gpufilter::ImageView& view);
// Copies a device view into a host image of the same shape and waits.
void download(Context& context, const gpufilter::ImageView& device, const gpufilter::HostImage& host);

// check_row(y) for every row, in bands over the host's cores (the checks read up to
// 1 GiB); the answer of the lowest failing band, or "" when every row passed.
std::string check_rows(int rows, const std::function<std::string(int y)>& check_row);

// Row by row: bytes [x, x + bytes) of `actual` row y equal bytes [expected_x, ...) of
// `expected` row y, and (with `guarded`) every other byte of `actual`'s row is kPoison,
// so a kernel that writes outside its view fails too. "" when all hold, else where not.
std::string compare_bytes(const gpufilter::ImageView& actual, std::size_t x, const gpufilter::ImageView& expected,
                          std::size_t expected_x, std::size_t bytes, bool guarded);

// An 8-bit invert's result: each byte of `actual` is 255 - the byte of `source` at the
// same place where its channel is in `mask`, and the source byte elsewhere. The channel
// of a byte is its index mod the pixel size, or (planes stacked vertically, plane_rows
// > 0) its row / plane_rows. "" when all hold, else where not.
std::string compare_inverted(const gpufilter::ImageView& actual, const gpufilter::ImageView& source, unsigned mask,
                             int plane_rows = 0);

// The experiments, each printing its table.
void run_offsets(Context& context);
void run_tails(Context& context);
void run_flat(Context& context);
void run_block_sizes(Context& context);
void run_uploads(Context& context);
void run_layouts(Context& context);
void run_transpose_bounds(Context& context);
void run_resize_double(Context& context);

}  // namespace bench::memory
