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
#include <string>

#include "common/border.cuh"
#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
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
constexpr int kChunk = kThreads / kWarp;                  // row elements one lane scans
constexpr int kRowFloats = kThreads + kThreads / kWarp;  // one channel of one row, padded
constexpr int kBuffers = 3;                               // batches in flight

// One float of padding every 32: a lane's chunk and its neighbours' fall in distinct banks.
__device__ __forceinline__ int padded(int e) { return e + (e >> 5); }

struct RowStack {
  int radius[Tuning::kBoxes];
  int reach;    // R, the sum of the radii
  float scale;  // 1 / prod(2 r + 1)
};

struct FusedArgs {
  BoxStackWalkArgs columns;
  RowStack rows;
  int strip_width;  // output columns a block writes
};

template <int C>
constexpr std::size_t fused_shared_bytes() {
  return sizeof(float) * kBuffers * Tuning::fused_batch_rows(C) * C * kRowFloats;
}

// The row stack over one channel of one row, in place, by one warp. On entry `row`
// holds the column walk's values at [0, used) and zeros after; on return [R, used - R)
// holds the stack's unnormalised sums. Each box is a difference of prefix sums: every
// stage's values outside where they are defined are zero, so a prefix sum taken from
// element 0 holds exactly the sums a box needs (floats: a prefix over a row of 512
// values of at most M stays within 2^-16 of M relative, far inside the contract).
__device__ __forceinline__ void stack_row(float* row, const RowStack& stack, int used, int lane) {
  float v[kChunk];
  const int first = lane * kChunk;
#pragma unroll
  for (int i = 0; i < kChunk; ++i) v[i] = row[padded(first + i)];
  int low = 0, high = used;  // where this stage's values are defined
#pragma unroll 1
  for (int b = 0; b < Tuning::kBoxes; ++b) {
    const int r = stack.radius[b];
#pragma unroll
    for (int i = 1; i < kChunk; ++i) v[i] += v[i - 1];
    const float total = v[kChunk - 1];
    float inclusive = total;
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      const float n = __shfl_up_sync(0xffffffffu, inclusive, d);
      if (lane >= d) inclusive += n;
    }
    const float before = inclusive - total;
    __syncwarp();  // every lane has read the previous stage
#pragma unroll
    for (int i = 0; i < kChunk; ++i) row[padded(first + i)] = v[i] + before;
    __syncwarp();
    low += r;
    high -= r;
#pragma unroll
    for (int i = 0; i < kChunk; ++i) {
      const int e = first + i;
      const float upper = row[padded(min(e + r, kThreads - 1))];
      const float lower = e - r - 1 >= 0 ? row[padded(e - r - 1)] : 0.0f;
      v[i] = e >= low && e < high ? upper - lower : 0.0f;
    }
  }
  __syncwarp();
#pragma unroll
  for (int i = 0; i < kChunk; ++i) row[padded(first + i)] = v[i];
}

template <class T, int C, class B>
__global__ void __launch_bounds__(kThreads, 1)
    box_stack_fused_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, FusedArgs args, Accum<C> constant,
                           Filter2dOutput out) {
  constexpr int kRows = Tuning::fused_batch_rows(C);
  constexpr int kBatchFloats = kRows * C * kRowFloats;  // [row][channel][column]
  extern __shared__ float batches[];                    // kBuffers batches

  const int slot = static_cast<int>(threadIdx.x);
  const int lane = slot % kWarp;
  const int warp = slot / kWarp;
  const int reach = args.rows.reach;
  const int strip_begin = static_cast<int>(blockIdx.x) * args.strip_width;
  const int used = args.strip_width + 2 * reach;  // columns walked: the strip and its halo
  const int image_column = strip_begin - reach + slot;
  const bool inside = image_column >= 0 && image_column < src.width;
  // Halo columns outside the image are the columns the border maps them to, or under
  // Constant the constant itself (a constant column blurs to itself); slots past `used`
  // hold zeros, which the row stack expects.
  const bool walks = slot < used && (inside || !B::kConstant);
  const int column = inside ? image_column : B::map(image_column, src.width);
  const Accum<C> fixed_value = slot < used ? constant : zero_accum<C>();
  const int rows = src.height;
  const BoxStackWalkArgs& walk_args = args.columns;
  const int column_reach = walk_args.total_radius;
  const int output_x = strip_begin + slot;
  const bool writes = slot < args.strip_width && output_x < dst.width;

  for (long long segment = blockIdx.y; segment * walk_args.segment_rows < rows; segment += gridDim.y) {
    const int begin = static_cast<int>(segment * walk_args.segment_rows);
    const int end = min(begin + walk_args.segment_rows, rows);
    const int first_input = begin - column_reach;
    BoxStackColumnWalk<C> walk;
    walk.clear();
    auto column_value = [&](int y) {
      if (!walks) return fixed_value;
      return walk.template advance<B>(y, rows, first_input, walk_args, constant,
                                      [&](int q) { return input_value(src.at(column, q), out); });
    };
    if (walks)
      for (int y = begin - 2 * column_reach; y < begin; ++y) column_value(y);

    const int batch_count = (end - begin + kRows - 1) / kRows;
    auto batch_rows = [&](int b) { return min(kRows, end - (begin + b * kRows)); };
    auto batch_buffer = [&](int b) { return batches + (b % kBuffers) * kBatchFloats; };
    for (int i = 0; i < batch_count + 2; ++i) {
      if (i < batch_count) {  // the column walk of batch i
        float* buffer = batch_buffer(i);
        const int first_row = begin + i * kRows;
        for (int t = 0; t < batch_rows(i); ++t) {
          const Accum<C> v = column_value(first_row + t);
#pragma unroll
          for (int c = 0; c < C; ++c) buffer[(t * C + c) * kRowFloats + padded(slot)] = v.c[c];
        }
      }
      if (i >= 1 && i - 1 < batch_count) {  // the row stack of batch i - 1
        float* buffer = batch_buffer(i - 1);
        for (int line = warp; line < batch_rows(i - 1) * C; line += kWarps)
          stack_row(buffer + line * kRowFloats, args.rows, used, lane);
      }
      if (i >= 2 && writes) {  // the output of batch i - 2
        const float* buffer = batch_buffer(i - 2);
        const int first_row = begin + (i - 2) * kRows;
        for (int t = 0; t < batch_rows(i - 2); ++t) {
          const int y = first_row + t;
          Accum<C> sums[1];
#pragma unroll
          for (int c = 0; c < C; ++c)
            sums[0].c[c] = buffer[(t * C + c) * kRowFloats + padded(reach + slot)] * args.rows.scale;
          const Accum<C> centre = out.keep_alpha ? input_value(src.at(output_x, y), out) : zero_accum<C>();
          dst.at(output_x, y) = filter2d_pixel<T, C, 1>(sums, centre, out);
        }
      }
      __syncthreads();
    }
  }
}

RowStack row_stack(const BoxStackPlan& plan) {
  RowStack stack{};
  for (int k = 0; k < Tuning::kBoxes; ++k) stack.radius[k] = plan.radius[k];
  stack.reach = plan.total_radius;
  stack.scale = plan.scale;
  return stack;
}

std::size_t shared_bytes_for(int channels) {
  switch (channels) {
    case 1: return fused_shared_bytes<1>();
    case 3: return fused_shared_bytes<3>();
    default: break;
  }
  return fused_shared_bytes<4>();
}

}  // namespace

bool box_stack_fused_fits(PixelFormat format, const FilterSpec& spec) {
  if (!box_stack_fits(spec)) return false;
  const BoxStackPlan row_plan = cached_box_stack_plan(spec.separable[0].x);
  return kThreads - 2 * row_plan.total_radius >= Tuning::kFusedMinStripWidth &&
         shared_bytes_for(format.channels) <= max_shared_memory_per_block();
}

void launch_box_stack_fused(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  if (!box_stack_fused_fits(src.format, spec))
    throw Error(ErrorCode::InvalidArgument, "box_stack (fused): the row stack's reach leaves no strip, or the "
                                            "row buffers do not fit this GPU's shared memory");
  const BoxStackPlan column_plan = cached_box_stack_plan(spec.separable[0].y);
  const BoxStackPlan row_plan = cached_box_stack_plan(spec.separable[0].x);
  const int widest_strip = kThreads - 2 * row_plan.total_radius;
  const long long strips = blocks_for(src.width, widest_strip);
  const int strip_width = static_cast<int>(blocks_for(src.width, static_cast<int>(strips)));  // balanced

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Filter2dOutput out = make_filter2d_output<T, C>(spec);
    const Accum<C> constant = box_stack_constant<T, C>(border, out, 1.0);
    const std::size_t shared_bytes = fused_shared_bytes<C>();
    visit_border(border.mode, [&](auto policy) {
      using B = decltype(policy);
      auto kernel = box_stack_fused_kernel<T, C, B>;
      // One wave: as many segments per strip as the resident blocks allow, each of them
      // as long as that makes it (a segment's warm-up is paid once).
      const int resident = cached_sm_count() * cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kThreads,
                                                                      shared_bytes);
      const long long segments = std::max<long long>(1, resident / strips);
      const int segment_rows = static_cast<int>(blocks_for(src.height, static_cast<int>(std::min<long long>(
                                                                           segments, std::max(src.height, 1)))));
      FusedArgs args{};
      args.columns = box_stack_walk_args(column_plan, 1.0f, std::max(segment_rows, 1));
      args.rows = row_stack(row_plan);
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
