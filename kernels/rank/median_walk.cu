// The 3x3 median's walk (rank/median_walk.cuh) over its kinds of columns:
//  - pixel columns, a pixel a lane, any format (rank/median_walk_pixel_columns.cuh);
//  - words, a 32-bit word of channel values a lane on 8- and 16-bit gray (4 or 2 pixels)
//    and 8-bit RGB, where rows start on whole words (rank/median_walk_words.cuh);
//  - RGBA8 pairs, two pixels a lane, where rows start on 8-byte words
//    (rank/median_walk_rgba8_pairs.cuh).
// The border: each lane works out its columns once; each row of a strip at the image's
// top or bottom is mapped as it is read (uniform over the warp); under Constant a read
// outside takes the constant (an instantiation of its own, so the other modes pay nothing
// for it).
#include <cstddef>
#include <cstdint>

#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_launch.hpp"
#include "rank/median_walk.cuh"
#include "rank/median_walk_pixel_columns.cuh"
#include "rank/median_walk_rgba8_pairs.cuh"
#include "rank/median_walk_words.cuh"

namespace gpufilter::kernels {
namespace {

template <class Columns>
void launch_walk(const Columns& columns, const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  constexpr int kThreads = median_walk::Tuning::kWarps * 32;
  const long long elements = static_cast<long long>(src.width) * Columns::kPixelElements;
  const long long groups = blocks_for(elements, Columns::kGroupElements);  // lanes with a group of elements
  const int strips = static_cast<int>(blocks_for(src.height, median_walk::Tuning::kStripRows));
  const dim3 grid(grid_x(blocks_for(groups, kThreads), "median_walk_3x3_kernel"), grid_y(strips));
  median_walk::median_walk_3x3_kernel<Columns><<<grid, kThreads, 0, ctx.stream>>>(
      columns, static_cast<int>(groups), src.height, static_cast<long long>(src.pitch),
      static_cast<long long>(dst.pitch), strips);
}

// The column kind's two instantiations: with the constant border and without.
template <template <bool> class Columns, class... Fields>
void launch_with_border(const BorderReads& reads, const ImageView& src, const ImageView& dst,
                        const ExecContext& ctx, const Fields&... fields) {
  if (reads.constant)
    launch_walk(Columns<true>{fields...}, src, dst, ctx);
  else
    launch_walk(Columns<false>{fields...}, src, dst, ctx);
}

template <class T, int C>
struct PixelColumnsOf {
  template <bool kConstant>
  using type = median_walk::PixelColumns<T, C, kConstant>;
};
template <class T, int C>
struct WordsOf {
  template <bool kConstant>
  using type = median_walk::WordColumns<T, C, kConstant>;
};

}  // namespace

void launch_median_walk_3x3(const ImageView& src, const ImageView& dst, const Border& border,
                            const ExecContext& ctx) {
  const BorderReads reads = border_reads(border.mode, src.width, src.height);
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Pixel<T, C> constant = constant_pixel<T, C>(border);
    // Wider groups where every row of both views starts on their access's alignment.
    constexpr std::size_t kGroupBytes = median_walk_group_bytes(sizeof(T), C);
    const bool wider_groups = kGroupBytes != 0 && rows_aligned(src, dst, kGroupBytes);
    if constexpr (kGroupBytes == 4) {
      if (wider_groups) {
        launch_with_border<WordsOf<T, C>::template type>(reads, src, dst, ctx, pitched<T, C>(src),
                                                          pitched<T, C>(dst), reads, constant);
        return;
      }
    } else if constexpr (kGroupBytes == 8) {
      if (wider_groups) {
        launch_with_border<median_walk::Rgba8PairColumns>(reads, src, dst, ctx, pitched<T, 4>(src),
                                                          pitched<T, 4>(dst), reads,
                                                          reinterpret_cast<const unsigned&>(constant));
        return;
      }
    }
    launch_with_border<PixelColumnsOf<T, C>::template type>(reads, src, dst, ctx, pitched<T, C>(src),
                                                             pitched<T, C>(dst), reads, constant);
  });
  check_launch("median_walk_3x3_kernel", ctx);
}

}  // namespace gpufilter::kernels
