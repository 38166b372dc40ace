// The copy experiments: start offsets, tails, flat buffers against cudaMemcpyAsync, and
// threads per block. Copies go through the library's copy variants or the lab's (both
// fall back to the scalar kernel where a chunked one cannot run) or, for block sizes, the
// lab's copy launcher itself; no kernel is copied here.
#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/testing.hpp"
#include "lab/copy/copy_chunks_launch.hpp"
#include "lab/lab.hpp"
#include "memory_experiments.hpp"

namespace bench::memory {
namespace {

using gpufilter::ChannelType;
using gpufilter::DeviceImage;
using gpufilter::HostImage;
using gpufilter::ImageView;
using gpufilter::PixelFormat;

constexpr PixelFormat kU8{ChannelType::U8, 1};

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The library's copy variant of that name, or the lab's (lab/copy/copy_lab.cpp).
void copy_named(const std::string& variant, const ImageView& src, const ImageView& dst,
                const gpufilter::ExecContext& ctx) {
  static const gpufilter::Operation& op = *gpufilter::find_operation("copy");
  gpufilter::lab::run_variant(op, variant, src, dst, {}, {}, ctx);
}

}  // namespace

// Claims 2 and 4: rows that start k bytes past a 16-byte boundary. The head/tail split
// should keep the chunked kernels at their aligned speed; scalar shows the raw effect.
void run_offsets(Context& context) {
  constexpr int kRowBytes = k8KWidth * 4;  // an 8K RGBA row, copied as u8x1
  constexpr int kSlack = 32;               // room for offsets 0..16 and guard bytes after
  constexpr int kRows = k8KHeight;
  const std::size_t moved = 2 * static_cast<std::size_t>(kRowBytes) * kRows;
  DeviceImage src(kRowBytes + kSlack, kRows, kU8), dst(kRowBytes + kSlack, kRows, kU8);
  HostImage host_src(kRowBytes + kSlack, kRows, kU8), host_dst(kRowBytes + kSlack, kRows, kU8);
  gpufilter::testing::fill_random(host_src.view(), 11);
  context.upload(host_src, src.view());

  struct Column {
    const char* name;
    const char* variant;
    bool dst_at_zero;  // destination rows at the 16-byte boundary whatever k
  };
  const Column columns[] = {
      {"scalar", "scalar", false}, {"int4", "int4", false},
      {"vectorized", "vectorized", false}, {"ldg", "ldg", false},
      {"cg", "cg", false}, {"int4, dst at 0", "int4", true},
      {"vectorized, dst at 0", "vectorized", true},
  };
  std::vector<std::string> header{"k (bytes)"};
  for (const Column& c : columns) header.emplace_back(c.name);
  Table table(header);
  for (int k = 0; k <= 16; ++k) {
    std::vector<std::string> row{std::to_string(k)};
    for (const Column& c : columns) {
      const int dst_x = c.dst_at_zero ? 0 : k;
      const ImageView s = src.view().subview(k, 0, kRowBytes, kRows);
      const ImageView d = dst.view().subview(dst_x, 0, kRowBytes, kRows);
      poison(context, dst.view());
      const auto ms = context.measure(
          "offsets/" + std::string(c.name) + "/k=" + std::to_string(k), moved,
          [&] { copy_named(c.variant, s, d, context.exec); },
          [&] {
            download(context, dst.view(), host_dst);
            return compare_bytes(host_dst.view(), static_cast<std::size_t>(dst_x), host_src.view(),
                                 static_cast<std::size_t>(k), kRowBytes, true);
          });
      row.push_back(format_cell(moved, ms));
    }
    table.add(row);
  }
  table.print("Start offsets (seeds 003 and 000: alignment, offset = 11)",
              "u8x1 copies of " + std::to_string(kRowBytes) + " bytes (an 8K RGBA row) x " + std::to_string(kRows) +
                  " rows; source and destination rows start k bytes past a 16-byte boundary (views at x = k of "
                  "images whose pitch is a multiple of 16). The chunked kernels copy the bytes up to the first "
                  "boundary (head) and after the last (tail) one per thread. \"dst at 0\": the destination rows "
                  "start at the boundary, so unless k mod 16 = 0 copy() cannot use 16-byte pieces on both sides "
                  "and runs its scalar kernel: the cost of that fallback. Every result is checked byte for byte, "
                  "and the bytes around the destination view must be untouched.");
}

// Claim 3: rows whose length is not a multiple of 16 bytes end in a tail copied byte by
// byte; at 8K it should not show, on short rows it might.
void run_tails(Context& context) {
  struct Shape {
    int row_bytes;
    int rows;
  };
  constexpr int kNarrowRows = k8KHeight * 30;  // short rows, about the same bytes as 8K RGBA
  const Shape shapes[] = {{k8KWidth * 4, k8KHeight},     {k8KWidth * 4 + 1, k8KHeight}, {k8KWidth * 4 + 5, k8KHeight},
                          {k8KWidth * 4 + 15, k8KHeight}, {1024, kNarrowRows},           {1024 + 5, kNarrowRows},
                          {1024 + 15, kNarrowRows}};
  const char* const variants[] = {"scalar", "int", "int2", "int4", "vectorized"};
  constexpr int kGuard = 16;  // bytes after each row's view that must stay untouched
  std::vector<std::string> header{"row bytes x rows", "tail bytes (16-byte pieces)"};
  for (const char* v : variants) header.emplace_back(v);
  Table table(header);
  for (const Shape& shape : shapes) {
    const std::size_t moved = 2 * static_cast<std::size_t>(shape.row_bytes) * static_cast<std::size_t>(shape.rows);
    DeviceImage src(shape.row_bytes, shape.rows, kU8), dst(shape.row_bytes + kGuard, shape.rows, kU8);
    HostImage host_src(shape.row_bytes, shape.rows, kU8), host_dst(shape.row_bytes + kGuard, shape.rows, kU8);
    gpufilter::testing::fill_random(host_src.view(), 3);
    context.upload(host_src, src.view());
    const ImageView d = dst.view().subview(0, 0, shape.row_bytes, shape.rows);
    std::vector<std::string> row{std::to_string(shape.row_bytes) + " x " + std::to_string(shape.rows),
                                 std::to_string(shape.row_bytes % 16)};
    for (const char* name : variants) {
      poison(context, dst.view());
      const auto ms = context.measure(
          "tails/" + std::string(name) + "/" + std::to_string(shape.row_bytes), moved,
          [&] { copy_named(name, src.view(), d, context.exec); },
          [&] {
            download(context, dst.view(), host_dst);
            return compare_bytes(host_dst.view(), 0, host_src.view(), 0, static_cast<std::size_t>(shape.row_bytes),
                                 true);
          });
      row.push_back(format_cell(moved, ms));
    }
    table.add(row);
  }
  table.print("Tails (seed 003: remainders)",
              "u8x1 copies, rows 16-byte aligned at their start. The tail is the bytes after the last whole piece "
              "of each variant's width (4, 8 or 16 bytes), copied one per thread by the row's first block. Short "
              "rows (1 KiB) make the tail 0.5-1.5% of the bytes and give each row one partly filled block; their "
              "row count keeps about the bytes of 8K RGBA. " +
                  std::to_string(kGuard) + " bytes after each destination row must stay untouched.");
}

// Claim 1's target: copy int4 >= 95% of cudaMemcpyAsync device-to-device on the same bytes.
void run_flat(Context& context) {
  struct Size {
    const char* name;
    int width;  // u8x4 pixels per row; rows are packed, so the buffer is one flat range
    int height;
  };
  const Size sizes[] = {{"8K RGBA u8 (127 MiB)", k8KWidth, k8KHeight}, {"1 GiB", kGiBWidth, kGiBHeight}};
  Table table({"buffer", "cudaMemcpyAsync", "cudaMemcpy2DAsync", "copy int4", "copy vectorized",
               "int4 speed / cudaMemcpyAsync", "vectorized speed / cudaMemcpyAsync"});
  for (const Size& size : sizes) {
    const std::size_t bytes = static_cast<std::size_t>(size.width) * 4 * static_cast<std::size_t>(size.height);
    const std::size_t needed = 2 * bytes + kMemoryMargin;
    if (const std::size_t free_bytes = free_device_bytes(); free_bytes < needed) {
      table.add({size.name, "skipped: " + mib(free_bytes) + " free, " + mib(needed) + " needed", "", "", "", "", ""});
      continue;
    }
    FlatBuffer src(size.width, size.height, kRgba), dst(size.width, size.height, kRgba);
    HostImage host_src(size.width, size.height, kRgba), host_dst(size.width, size.height, kRgba);
    gpufilter::testing::fill_random(host_src.view(), 5);
    context.upload(host_src, src.view());
    const auto check = [&] {
      download(context, dst.view(), host_dst);
      return compare_bytes(host_dst.view(), 0, host_src.view(), 0, src.view().row_bytes(), false);
    };
    const cudaStream_t stream = context.raw_stream();
    const std::size_t moved = 2 * bytes;
    const auto timed = [&](const char* name, const std::function<void()>& launch) {
      poison(context, dst.view());
      return context.measure("flat/" + std::string(name) + "/" + size.name, moved, launch, check);
    };
    const auto memcpy_ms = timed("cudaMemcpyAsync", [&] {
      GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(dst.view().data, src.view().data, bytes, cudaMemcpyDeviceToDevice, stream));
    });
    const auto memcpy2d_ms = timed("cudaMemcpy2DAsync", [&] {
      const ImageView s = src.view(), d = dst.view();
      GPUFILTER_CUDA_CHECK(cudaMemcpy2DAsync(d.data, d.pitch, s.data, s.pitch, s.row_bytes(),
                                             static_cast<std::size_t>(s.height), cudaMemcpyDeviceToDevice, stream));
    });
    const auto int4_ms = timed("int4", [&] { copy_named("int4", src.view(), dst.view(), context.exec); });
    const auto vectorized_ms = timed("vectorized", [&] { copy_named("vectorized", src.view(), dst.view(), context.exec); });
    table.add({size.name, format_cell(moved, memcpy_ms), format_cell(moved, memcpy2d_ms), format_cell(moved, int4_ms),
               format_cell(moved, vectorized_ms), format_ratio(memcpy_ms, int4_ms),
               format_ratio(memcpy_ms, vectorized_ms)});
  }
  table.print("Flat buffers: copy kernels vs cudaMemcpyAsync (issue target: int4 >= 0.95)",
              "Source and destination are cudaMalloc buffers of packed u8x4 rows (8K: 7680 x 4320; 1 GiB: 8192 x "
              "32768), so the 1-D cudaMemcpyAsync, the 2-D cudaMemcpy2DAsync and the kernels move exactly the same "
              "bytes. Speed ratio = cudaMemcpyAsync time / kernel time (above 1: the kernel is faster). Skipped "
              "where the GPU lacks 2 x the buffer + 512 MiB free.");
}

// Claim 7's other half: threads per block. The lab's chunked launcher takes a block size
// (CopyShape::threads), so one build times 128..1024 for int4, unroll4 and grid_stride.
void run_block_sizes(Context& context) {
  const std::size_t moved = 2 * k8KRgbaBytes;
  DeviceImage src(k8KWidth, k8KHeight, kRgba), dst(k8KWidth, k8KHeight, kRgba);
  HostImage host_src(k8KWidth, k8KHeight, kRgba), host_dst(k8KWidth, k8KHeight, kRgba);
  gpufilter::testing::fill_random(host_src.view(), 7);
  context.upload(host_src, src.view());
  struct Column {
    const char* name;
    gpufilter::lab::CopyShape shape;
  };
  Column columns[3] = {{"int4", {}}, {"unroll4", {}}, {"grid_stride", {}}};
  columns[1].shape.unroll = 4;
  columns[2].shape.grid_stride = true;
  Table table({"threads per block", "int4", "unroll4", "grid_stride"});
  for (int threads : {128, 256, 512, 1024}) {
    std::vector<std::string> row{std::to_string(threads) + (threads == 256 ? " (the library's)" : "")};
    for (Column& c : columns) {
      c.shape.threads = threads;
      poison(context, dst.view());
      const auto ms = context.measure(
          "blocks/" + std::string(c.name) + "/" + std::to_string(threads), moved,
          [&] {
            if (!gpufilter::lab::launch_copy_chunks(src.view(), dst.view(), c.shape, context.exec))
              throw gpufilter::Error(gpufilter::ErrorCode::InvalidArgument, "the chunked copy declined the views");
          },
          [&] {
            download(context, dst.view(), host_dst);
            return compare_bytes(host_dst.view(), 0, host_src.view(), 0, src.view().row_bytes(), false);
          });
      row.push_back(format_cell(moved, ms));
    }
    table.add(row);
  }
  table.print("Threads per block (seed 000: 256 vs 512)",
              "8K RGBA u8 copy through the chunked copy launcher with CopyShape::threads set; int4: one 16-byte "
              "chunk per thread, unroll4: four, grid_stride: a grid of 4 blocks per SM looping over the rows.");
}

}  // namespace bench::memory
