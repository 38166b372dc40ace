// The transpose's bounds (seed 000, 4.4.2): same-shape copies with the naive
// transpose's 2-D thread mapping that read and write rows (copy_row: both sides
// coalesced, the upper bound) or columns (copy_col: both sides strided, the lower
// bound). They do not transpose, so they cannot be variants of the registry's transpose
// (its conformance test checks every variant against the reference); they run here
// through the lab's launcher (lab/geometry/transpose_bounds.cu).
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "gpufilter/geometry.hpp"
#include "gpufilter/testing.hpp"
#include "lab/geometry/geometry_lab_launch.hpp"
#include "memory_experiments.hpp"

namespace bench::memory {
namespace {

using gpufilter::BlockShape;
using gpufilter::ChannelType;
using gpufilter::DeviceImage;
using gpufilter::HostImage;
using gpufilter::ImageView;
using gpufilter::PixelFormat;

const PixelFormat kBoundFormats[] = {{ChannelType::U8, 1}, {ChannelType::U8, 3}, {ChannelType::U8, 4},
                                     {ChannelType::F32, 1}, {ChannelType::F32, 4}};
// The transpose's --param block= shapes (threads across x threads down), in its order.
const BlockShape kBoundShapes[] = {BlockShape::Square16x16, BlockShape::Thin8x32, BlockShape::Wide32x8};

}  // namespace

void run_transpose_bounds(Context& context) {
  struct Cell {
    bool columns;
    BlockShape shape;
  };
  std::vector<Cell> cells;
  for (const bool columns : {false, true})
    for (const BlockShape shape : kBoundShapes) cells.push_back({columns, shape});
  // One column of results per format: each format's buffers exist only while it runs.
  std::vector<std::vector<std::string>> results(cells.size());
  std::vector<std::string> header{"bound", "block"};
  for (const PixelFormat format : kBoundFormats) {
    header.push_back(format.name());
    DeviceImage src(k8KWidth, k8KHeight, format), dst(k8KWidth, k8KHeight, format);
    HostImage host_src(k8KWidth, k8KHeight, format), host_dst(k8KWidth, k8KHeight, format);
    gpufilter::testing::fill_random(host_src.view(), 23);
    gpufilter::copy_image_async(host_src.view(), src.view(), context.raw_stream());
    context.stream.synchronize();
    const std::size_t moved = 2 * src.view().row_bytes() * static_cast<std::size_t>(k8KHeight);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const Cell& cell = cells[i];
      const std::string name = std::string(cell.columns ? "copy_col" : "copy_row") + "/" +
                               gpufilter::to_string(cell.shape) + "/" + format.name();
      poison(context, dst.view());
      const auto ms = context.measure(
          "transpose_bounds/" + name, moved,
          [&] {
            gpufilter::lab::launch_copy_bound(src.view(), dst.view(), cell.columns, cell.shape, context.exec);
          },
          [&] {
            download(context, dst.view(), host_dst);
            return compare_bytes(host_dst.view(), 0, host_src.view(), 0, src.view().row_bytes(), false);
          });
      results[i].push_back(format_cell(moved, ms));
    }
  }
  Table table(header);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::vector<std::string> row{cells[i].columns ? "copy_col" : "copy_row", gpufilter::to_string(cells[i].shape)};
    row.insert(row.end(), results[i].begin(), results[i].end());
    table.add(row);
  }
  table.print("Transpose bounds: copy_row (upper) and copy_col (lower) (seed 000, 4.4.2)",
              "8K (7680 x 4320) same-shape copies, a thread per pixel with the naive transpose's 2-D mapping and "
              "block shapes (--param block=, threads across x down). copy_row: threadIdx.x walks a row, reads and "
              "writes coalesced; copy_col: threadIdx.x walks a column, a warp's 32 accesses 32 rows apart on both "
              "sides. GB/s counts read + write; each result is checked equal to its source.");
}

}  // namespace bench::memory
