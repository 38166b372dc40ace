// Transposes through a shared-memory tile (seed 000, 4.4.2, and seed 001's shared
// memory): rows of the source are read whole into the tile, rows of the destination
// written whole from it, so both global sides are coalesced; the transposition
// happens in shared memory. `tiled` leaves the column reads' bank conflicts in,
// `tiled_padded` adds a column, `fast` also packs several pixels per global word.
#include <cstdint>

#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"
#include "geometry/pixel_bytes.cuh"

namespace gpufilter::kernels {
namespace {

// A block owns a tile of T = TX*P source columns (sx0..) by T destination columns
// (dx0..), both multiples of T, so the words of P pixels it reads from source rows
// and writes to destination rows start at multiples of P on both sides, mirrored or
// not. tile[i][j] holds the pixel at dx = dx0 + i, sx = sx0 + j.
template <int N, int A, int P, int TX, int TY, int kPad>
__global__ void __launch_bounds__(TX * TY)
    transpose_tiled_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst, std::size_t dst_pitch,
                           int width, int height, QuarterTurnMap map, unsigned tiles_x) {
  constexpr int T = TX * P;
  using Pixel = PixelBytes<N, A>;
  using Word = PixelWord<N, A, P>;
  using Unit = typename Word::Unit;
  __shared__ Pixel tile[T][T + kPad];

  const long long sx0 = static_cast<long long>(blockIdx.x % tiles_x) * T;
  const long long dx0 = static_cast<long long>(blockIdx.x / tiles_x) * T;
  const int column = static_cast<int>(threadIdx.x) * P;  // first pixel of this thread's word in a tile row

  // Source rows sy = f(dx) for the tile's destination columns, whole words where the
  // word lies inside the row, pixel by pixel at the right edge.
  for (int i = threadIdx.y; i < T; i += TY) {
    const long long dx = dx0 + i;
    if (dx >= height) break;
    const long long sy = map.mirror_y ? height - 1 - dx : dx;
    const unsigned char* row = src + static_cast<std::size_t>(sy) * src_pitch;
    const long long x = sx0 + column;
    if (x + P <= width) {
      Word word;
      const Unit* units = reinterpret_cast<const Unit*>(row + static_cast<std::size_t>(x) * N);
#pragma unroll
      for (int u = 0; u < Word::kUnits; ++u) word.unit[u] = units[u];
#pragma unroll
      for (int p = 0; p < P; ++p) tile[i][column + p] = word.pixel[p];
    } else {
#pragma unroll
      for (int p = 0; p < P; ++p)
        if (x + p < width) tile[i][column + p] = reinterpret_cast<const Pixel*>(row)[x + p];
    }
  }
  __syncthreads();
  // Destination rows dy = g(sx) for the tile's source columns; a word gathers P pixels
  // from one column of the tile (the bank-conflicted read when kPad is 0).
  for (int j = threadIdx.y; j < T; j += TY) {
    const long long sx = sx0 + j;
    if (sx >= width) break;
    const long long dy = map.mirror_x ? width - 1 - sx : sx;
    unsigned char* row = dst + static_cast<std::size_t>(dy) * dst_pitch;
    const long long x = dx0 + column;
    if (x + P <= height) {
      Word word;
#pragma unroll
      for (int p = 0; p < P; ++p) word.pixel[p] = tile[column + p][j];
      Unit* units = reinterpret_cast<Unit*>(row + static_cast<std::size_t>(x) * N);
#pragma unroll
      for (int u = 0; u < Word::kUnits; ++u) units[u] = word.unit[u];
    } else {
#pragma unroll
      for (int p = 0; p < P; ++p)
        if (x + p < height) reinterpret_cast<Pixel*>(row)[x + p] = tile[column + p][j];
    }
  }
}

template <int N, int A, int P, int TX, int TY, int kPad>
void launch_tiled(const ImageView& src, const ImageView& dst, QuarterTurnMap map, const ExecContext& ctx) {
  constexpr int T = TX * P;
  const long long tiles_x = blocks_for(src.width, T);
  const long long tiles_d = blocks_for(src.height, T);
  const unsigned grid = grid_x(tiles_x * tiles_d, "transpose_tiled_kernel");
  transpose_tiled_kernel<N, A, P, TX, TY, kPad><<<grid, dim3(TX, TY), 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, map, static_cast<unsigned>(tiles_x));
}

}  // namespace

void launch_transpose_tiled(const ImageView& src, const ImageView& dst, QuarterTurnMap map, bool padded,
                            const ExecContext& ctx) {
  constexpr int TX = GeometryTuning::kTileThreadsX, TY = GeometryTuning::kTileThreadsY;
  visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    if (padded)
      launch_tiled<N, A, 1, TX, TY, 1>(src, dst, map, ctx);
    else
      launch_tiled<N, A, 1, TX, TY, 0>(src, dst, map, ctx);
  });
  check_launch("transpose_tiled_kernel", ctx);
}

bool launch_transpose_fast(const ImageView& src, const ImageView& dst, QuarterTurnMap map, const ExecContext& ctx) {
  if (launch_transpose_bytes(src, dst, map, ctx)) return true;  // 1-byte pixels
  const bool launched = visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    constexpr FastTransposeShape shape = fast_transpose_shape(N);
    constexpr int P = shape.pixels_per_word, TX = shape.threads_x, TY = shape.threads_y;
    static_assert(TX * TY <= 1024, "a block holds at most 1024 threads");
    constexpr int kUnitBytes = PixelWord<N, A, P>::kUnitBytes;
    if (!rows_aligned(src, dst, kUnitBytes)) return false;
    launch_tiled<N, A, P, TX, TY, 1>(src, dst, map, ctx);
    return true;
  });
  if (launched) check_launch("transpose_tiled_kernel", ctx);
  return launched;
}

}  // namespace gpufilter::kernels
