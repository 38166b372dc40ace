// The stacked-box Gaussian in one pass (box_stack.cu runs it in two, through a scratch
// image): each block owns a strip of output columns and a segment of rows, and moves
// the image through its shared memory once.
//
// Its threads walk the strip's columns plus the row stack's reach R on each side down
// the segment (box_stack_walk.cuh), a few rows at a time into a row buffer; one warp per
// row and channel then runs the row stack over that buffer as three running box sums,
// each the difference of two prefix sums (a warp scan), and the block writes the strip's
// pixels. Three buffers rotate so that the column walk of one batch, the row stack of
// the one before and the output of the one before that share one barrier.
//
// What it saves against two passes: the scratch image (written and read once more: 3x
// the bytes of the image in all for u8, 5x for u16 and f32). What it costs: the halo
// columns are walked by every strip that needs them (2R of kFusedThreads per block),
// and every segment starts with its 2R rows of warm-up.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/border.cuh"
#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/prefetch.cuh"
#include "convolution/box_stack_launch.hpp"
#include "convolution/box_stack_plan.hpp"
#include "convolution/box_stack_tuning.hpp"
#include "convolution/box_stack_walk.cuh"
#include "convolution/filter2d_output.cuh"

namespace gpufilter::kernels {
namespace {

using Tuning = BoxStackTuning;
constexpr int kThreads = Tuning::kFusedThreads;
constexpr int kWarp = 32;
constexpr int kWarps = kThreads / kWarp;
// A row of one channel in shared memory: kGuard zeros (the prefix sums before element
// 0), then 32 chunks of kChunk elements, one per lane. An odd chunk puts the 32 lanes'
// elements i, or any shifted window of them, in 32 distinct banks, so every access of
// the row stack is an immediate offset from one address per lane.
constexpr int kChunk = 17;
constexpr int kRowElements = kWarp * kChunk;  // >= kThreads: the elements past the walked columns are zero
constexpr int kGuard = Tuning::kFusedGuard;   // > the largest box radius
constexpr int kLineFloats = kGuard + kRowElements;
constexpr int kBuffers = 3;  // batches in flight
static_assert(kRowElements >= kThreads, "every walked column needs an element");

struct FusedArgs {
  BoxStackWalkArgs columns;
  BoxStackPlan rows;  // the row stack's radii, reach and scale
  int strip_width;    // output columns a block writes
};

// The batches, plus kGuard floats after the last line: the row stack reads up to the
// largest radius past a line's end (values it then discards), so they must be there.
constexpr std::size_t fused_shared_floats(int channels) {
  return static_cast<std::size_t>(kBuffers) * Tuning::fused_batch_rows(channels) * channels * kLineFloats + kGuard;
}

// The row stack over one channel of one row, in place, by one warp. On entry `row`
// (element 0, after its guard) holds the column walk's values at [0, used) and zeros
// or values of no use after; on return [R, used - R) holds the stack's unnormalised
// sums. Each box is the difference of two prefix sums. Elements a box cannot compute
// (within its radius of the row's ends) come out as partial sums, not zeros: the next
// prefix sum carries them, and every difference that is kept cancels them, to within
// float rounding relative to sums of the same size as the kept ones (a prefix over 544
// values of at most M stays within 2^-14 of M, far inside the contract). Elements past
// `used` only ever reach elements after them and within R before them.
__device__ __forceinline__ void stack_row(float* row, const BoxStackPlan& stack, int lane) {
  float* mine = row + lane * kChunk;
  float v[kChunk];
#pragma unroll
  for (int i = 0; i < kChunk; ++i) v[i] = mine[i];
#pragma unroll 1
  for (int b = 0; b < Tuning::kBoxes; ++b) {
#pragma unroll
    for (int i = 1; i < kChunk; ++i) v[i] += v[i - 1];
    float inclusive = v[kChunk - 1];
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      const float n = __shfl_up_sync(0xffffffffu, inclusive, d);
      if (lane >= d) inclusive += n;
    }
    // The lanes before this one, shifted in rather than this lane's total taken back
    // out: the elements past the kept ones may be large, and must not leak leftwards.
    float before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) before = 0.0f;
#pragma unroll
    for (int i = 0; i < kChunk; ++i) mine[i] = v[i] + before;
    __syncwarp();
    const int r = stack.radius[b];
    const float* upper = mine + r;
    const float* lower = mine - r - 1;  // before element 0: the guard's zeros
#pragma unroll
    for (int i = 0; i < kChunk; ++i) v[i] = upper[i] - lower[i];
    __syncwarp();  // every lane has read this stage before the next one writes
  }
#pragma unroll
  for (int i = 0; i < kChunk; ++i) mine[i] = v[i];
}

// A u8 pixel as 2^23 + each byte, one instruction a channel (the walk's sums cancel the
// offset, box_stack_walk.cuh).
template <int C>
__device__ __forceinline__ Accum<C> offset_bytes(const Pixel<std::uint8_t, C>& p) {
  Accum<C> a;
  if constexpr (C == 4) {
    const unsigned word = reinterpret_cast<const unsigned&>(p);
#pragma unroll
    for (int i = 0; i < 4; ++i) a.c[i] = __uint_as_float(__byte_perm(word, kMagicBits, 0x7540u + i));
  } else {
#pragma unroll
    for (int i = 0; i < C; ++i) a.c[i] = __uint_as_float(kMagicBits | p.c[i]);
  }
  return a;
}

// kOffsetBytes: u8 images without premultiplied alpha, read through offset_bytes().
template <class T, int C, class B, bool kOffsetBytes>
__global__ void __launch_bounds__(kThreads, 1)
    box_stack_fused_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, FusedArgs args, Accum<C> constant,
                           Filter2dOutput out) {
  constexpr int kRows = Tuning::fused_batch_rows(C);
  constexpr int kL2BatchesAhead = Tuning::fused_l2_batches_ahead(C);
  // Registers a loaded pixel takes: whole words, or one a channel where the pixel is no
  // whole number of words (loaded a channel at a time).
  constexpr int kPixelRegisters =
      sizeof(Pixel<T, C>) % 4 == 0 ? static_cast<int>(sizeof(Pixel<T, C>) / 4) : C;
  constexpr int kAhead = std::min(kRows, std::max(1, Tuning::kFusedRowsAhead / kPixelRegisters));
  using Walk = BoxStackColumnWalk<C>;
  constexpr int kBatchFloats = kRows * C * kLineFloats;  // [row][channel][guard, elements]
  extern __shared__ float batches[];                     // kBuffers batches

  // Zero once: the guards are never written.
  for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(fused_shared_floats(C)); i += kThreads)
    batches[i] = 0.0f;
  __syncthreads();

  const int slot = static_cast<int>(threadIdx.x);
  const int lane = slot % kWarp;
  const int warp = slot / kWarp;
  const int reach = args.rows.total_radius;
  const int strip_begin = static_cast<int>(blockIdx.x) * args.strip_width;
  const int used = args.strip_width + 2 * reach;  // columns walked: the strip and its halo
  const int image_column = strip_begin - reach + slot;
  const bool inside = image_column >= 0 && image_column < src.width;
  // Halo columns outside the image are the columns the border maps them to, or under
  // Constant the constant itself (a constant column blurs to itself); slots past `used`
  // hold zeros.
  const bool walks = slot < used && (inside || !B::kConstant);
  const int column = inside ? image_column : B::map(image_column, src.width);
  const unsigned char* column_base = src.data + sizeof(Pixel<T, C>) * static_cast<std::size_t>(walks ? column : 0);
  const Accum<C> fixed_value = slot < used ? constant : zero_accum<C>();
  Accum<C> zero_read = zero_accum<C>(), constant_read = constant;  // as convert() gives them
  if constexpr (kOffsetBytes) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      zero_read.c[c] = kMagic;
      constant_read.c[c] += kMagic;
    }
  }
  const int rows = src.height;
  const BoxStackWalkArgs& walk_args = args.columns;
  const int column_reach = walk_args.total_radius;
  const int output_x = strip_begin + slot;
  const bool writes = slot < args.strip_width && output_x < dst.width;

  for (long long segment = blockIdx.y; segment * walk_args.segment_rows < rows; segment += gridDim.y) {
    const int begin = static_cast<int>(segment * walk_args.segment_rows);
    const int end = min(begin + walk_args.segment_rows, rows);
    const int first_input = begin - column_reach;
    Walk walk;
    walk.clear();
    auto convert = [&](const Pixel<T, C>& p) {
      if constexpr (kOffsetBytes) return offset_bytes(p);
      else return input_value(p, out);
    };
    auto column_value = [&](int y) {
      if (!walks) return fixed_value;
      return walk.template advance<B, Pixel<T, C>>(y, rows, first_input, walk_args, zero_read, constant_read,
                                                   column_base, src.pitch, convert);
    };
    if (walks)
      for (int y = begin - 2 * column_reach; y < begin; ++y) column_value(y);

    const int batch_count = (end - begin + kRows - 1) / kRows;
    auto batch_rows = [&](int b) { return min(kRows, end - (begin + b * kRows)); };
    auto batch_buffer = [&](int b) { return batches + (b % kBuffers) * kBatchFloats + kGuard; };
    auto store = [&](float* buffer, int t, const Accum<C>& v) {
#pragma unroll
      for (int c = 0; c < C; ++c) {
        buffer[(t * C + c) * kLineFloats] = v.c[c];
        // The elements past the walked columns start every batch at zero too: the row
        // stack leaves sums there that would grow from batch to batch.
        if (slot < kRowElements - kThreads) buffer[(t * C + c) * kLineFloats + kThreads] = 0.0f;
      }
    };
    // The first kAhead rows' reads of each batch, issued before the previous batch's row
    // stack and output: every warp reaches the column walk together after the barrier,
    // and would otherwise all wait on their first loads at once.
    typename Walk::template Loaded<Pixel<T, C>, kAhead> ahead;
    bool ahead_loaded = false;
    for (int i = 0; i < batch_count + 2; ++i) {
      if (i < batch_count) {  // the column walk of batch i
        if constexpr (kL2BatchesAhead > 0) {
          // The rows this column's walk will first read kL2BatchesAhead batches on.
          const int lead = begin + (i + kL2BatchesAhead) * kRows + walk_args.highest_offset;
          if (walks)
            for (int r = 0; r < kRows; ++r)
              if (lead + r >= 0 && lead + r < rows)
                prefetch_l2(column_base + static_cast<std::size_t>(lead + r) * src.pitch);
        }
        float* buffer = batch_buffer(i) + slot;
        const int first_row = begin + i * kRows;
        const int steps = batch_rows(i);
        int t = 0;
        if (ahead_loaded) {
#pragma unroll
          for (int a = 0; a < kAhead; ++a)
            if (a < steps) store(buffer, a, walk.advance_loaded(ahead.pixel[a], walk_args, convert));
          t = min(kAhead, steps);
        }
        for (; t < steps; ++t) store(buffer, t, column_value(first_row + t));
      }
      ahead_loaded = false;
      if (walks && i + 1 < batch_count) {
        const int next_row = begin + (i + 1) * kRows;
        if (Walk::inside(next_row, kAhead, rows, first_input, walk_args)) {
          Walk::load(ahead, next_row, walk_args, column_base, src.pitch);
          ahead_loaded = true;
        }
      }
      if (i >= 1 && i - 1 < batch_count) {  // the row stack of batch i - 1
        float* buffer = batch_buffer(i - 1);
        for (int line = warp; line < batch_rows(i - 1) * C; line += kWarps)
          stack_row(buffer + line * kLineFloats, args.rows, lane);
      }
      if (i >= 2 && writes) {  // the output of batch i - 2
        const float* buffer = batch_buffer(i - 2) + reach + slot;
        const int first_row = begin + (i - 2) * kRows;
        for (int t = 0; t < batch_rows(i - 2); ++t) {
          const int y = first_row + t;
          Accum<C> sums[1];
#pragma unroll
          for (int c = 0; c < C; ++c) sums[0].c[c] = buffer[(t * C + c) * kLineFloats] * args.rows.scale;
          const Accum<C> centre = out.keep_alpha ? input_value(src.at(output_x, y), out) : zero_accum<C>();
          dst.at(output_x, y) = filter2d_pixel<T, C, 1>(sums, centre, out);
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace

bool box_stack_fused_fits(PixelFormat format, const BoxStackPlan& row_plan) {
  const int widest_box = *std::max_element(row_plan.radius, row_plan.radius + Tuning::kBoxes);
  return kThreads - 2 * row_plan.total_radius >= Tuning::kFusedMinStripWidth && widest_box < kGuard &&
         sizeof(float) * fused_shared_floats(format.channels) <= max_shared_memory_per_block();
}

bool box_stack_fused_fits(PixelFormat format, const FilterSpec& spec) {
  return box_stack_fits(spec) && box_stack_fused_fits(format, cached_box_stack_plan(spec.separable[0].x));
}

void launch_box_stack_fused(const ImageView& src, const ImageView& dst, const BoxStackPlan& column_plan,
                            const BoxStackPlan& row_plan, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  const int widest_strip = kThreads - 2 * row_plan.total_radius;
  const long long strips = blocks_for(src.width, widest_strip);
  const int strip_width = static_cast<int>(blocks_for(src.width, static_cast<int>(strips)));  // balanced

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Filter2dOutput out = make_filter2d_output<T, C>(spec);
    const Accum<C> constant = box_stack_constant<T, C>(border, out, 1.0);
    const std::size_t shared_bytes = sizeof(float) * fused_shared_floats(C);
    visit_border(border.mode, [&](auto policy) {
      using B = decltype(policy);
      auto kernel = box_stack_fused_kernel<T, C, B, false>;
      if constexpr (std::is_same_v<T, std::uint8_t>)
        if (!out.premultiply) kernel = box_stack_fused_kernel<T, C, B, true>;
      // One wave: as many segments per strip as the resident blocks allow, each of them
      // as long as that makes it (a segment's warm-up is paid once).
      const int resident = cached_sm_count() * cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kThreads,
                                                                      shared_bytes);
      const long long segments = std::max<long long>(1, resident / strips);
      const int segment_rows = static_cast<int>(blocks_for(src.height, static_cast<int>(std::min<long long>(
                                                                           segments, std::max(src.height, 1)))));
      FusedArgs args{};
      args.columns = box_stack_walk_args(column_plan, 1.0f, std::max(segment_rows, 1), src.pitch);
      args.rows = row_plan;
      args.strip_width = strip_width;
      const dim3 grid(grid_x(strips, "box_stack_fused_kernel"),
                      grid_y(blocks_for(src.height, args.columns.segment_rows)));
      kernel<<<grid, kThreads, shared_bytes, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), args, constant,
                                                           out);
      check_launch("box_stack_fused_kernel", ctx);
    });
  });
}

}  // namespace gpufilter::kernels
