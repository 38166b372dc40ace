// Gaussian blur at any sigma for the same cost: three stacked box filters on each axis,
// each box a running sum (box_stack_plan.hpp), so a pixel costs 2^K reads and 2^K - 1
// additions per channel and axis whatever the radius. The two-pass form, for radii the
// one-pass kernel (box_stack_fused.cu) does not take and for comparison with it.
//
// Both passes are one kernel: each thread walks down one column of a segment of rows,
// keeping the running sums in registers, and the warp stages 16 or 32 steps of its 32
// columns in shared memory to write them transposed, coalesced. The first pass walks the image's
// columns into a transposed scratch image; the second walks the scratch image's columns
// (the image's rows) and writes them transposed back, into dst. A segment starts 2R rows
// early with its sums at zero and the rows before its first input row read as zero
// (R: the stack's reach), so after the warm-up every sum is exact: segments are
// independent and the sums never carry drift from one segment to the next.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/border.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/stream_buffer.hpp"
#include "convolution/box_stack_launch.hpp"
#include "convolution/box_stack_plan.hpp"
#include "convolution/box_stack_tuning.hpp"
#include "convolution/box_stack_walk.cuh"
#include "convolution/filter2d_output.cuh"

namespace gpufilter::kernels {
namespace {

using Tuning = BoxStackTuning;
constexpr int kWarp = 32;

// The scratch image between the passes: u8 images keep 8 fraction bits in u16 (the
// vertical pass's result is within [0, 255]); u16 and f32 images keep f32. The scale is
// folded into the passes' sums (BoxStackWalkArgs::scale) and the constant border value, so the
// kernels convert without multiplying: u16 to and from float through the 2^23 magic
// number (common/pixel.cuh), at full rate, where the hardware's conversions run at 16
// a clock per SM.
template <class T>
struct Scratch {
  using type = std::conditional_t<std::is_same_v<T, std::uint8_t>, std::uint16_t, float>;
  static constexpr float kScale = std::is_same_v<T, std::uint8_t> ? 256.0f : 1.0f;
};

// `v` in scratch units; for u8 images within [0, 65280] up to float drift, which the
// add rounds (to nearest) and the low 16 bits keep.
template <class T, int C>
__device__ __forceinline__ Pixel<typename Scratch<T>::type, C> to_scratch(const Accum<C>& v) {
  Pixel<typename Scratch<T>::type, C> p;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if constexpr (std::is_same_v<T, std::uint8_t>)
      p.c[c] = static_cast<std::uint16_t>(__float_as_uint(fmaxf(v.c[c], 0.0f) + kMagic));
    else
      p.c[c] = v.c[c];
  }
  return p;
}

template <class T, int C>
__device__ __forceinline__ Accum<C> from_scratch(const Pixel<typename Scratch<T>::type, C>& p) {
  Accum<C> v;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if constexpr (std::is_same_v<T, std::uint8_t>)
      v.c[c] = __uint_as_float(kMagicBits | p.c[c]) - kMagic;
    else
      v.c[c] = p.c[c];
  }
  return v;
}

// kFirst: src is the image (T, premultiplied as read) and dst the scratch image;
// otherwise src is the scratch image and dst the output, and `image` the input whose
// centre pixel the output rule may need (AlphaMode::Keep).
template <class T, int C, class B, bool kFirst>
__global__ void __launch_bounds__(kWarp * Tuning::kWarpsPerBlock)
    box_stack_pass_kernel(PitchedView<std::conditional_t<kFirst, T, typename Scratch<T>::type>, C> src,
                          PitchedView<std::conditional_t<kFirst, typename Scratch<T>::type, T>, C> dst,
                          PitchedView<T, C> image, BoxStackWalkArgs args, Accum<C> constant, Filter2dOutput out) {
  using In = std::conditional_t<kFirst, T, typename Scratch<T>::type>;
  using Out = std::conditional_t<kFirst, typename Scratch<T>::type, T>;
  constexpr int kSteps = Tuning::tile_steps(sizeof(Pixel<Out, C>));
  __shared__ Pixel<Out, C> tile[Tuning::kWarpsPerBlock][kSteps][kWarp + 1];

  const int lane = static_cast<int>(threadIdx.x);
  const int warp = static_cast<int>(threadIdx.y);
  const int first_column = (static_cast<int>(blockIdx.x) * Tuning::kWarpsPerBlock + warp) * kWarp;
  if (first_column >= src.width) return;  // the whole warp: only __syncwarp below
  const int column = min(first_column + lane, src.width - 1);  // lanes past the edge walk the last column
  const unsigned char* column_base = src.data + sizeof(Pixel<In, C>) * static_cast<std::size_t>(column);
  const int rows = src.height;
  const int reach = args.total_radius;
  (void)image;  // the first pass has no use for it
  auto& my_tile = tile[warp];

  for (long long segment = blockIdx.y; segment * args.segment_rows < rows; segment += gridDim.y) {
    const int begin = static_cast<int>(segment * args.segment_rows);
    const int end = min(begin + args.segment_rows, rows);
    const int first_input = begin - reach;  // rows before it read as zero

    BoxStackColumnWalk<C> walk;
    walk.clear();
    auto advance = [&](int y) {
      return walk.template advance<B, Pixel<In, C>>(y, rows, first_input, args, zero_accum<C>(), constant,
                                                    column_base, src.pitch,
                                                    [&](const Pixel<In, C>& p) {
                                                      if constexpr (kFirst) return input_value(p, out);
                                                      else return from_scratch<T, C>(p);
                                                    });
    };

    for (int y = begin - 2 * reach; y < begin; ++y) advance(y);

    for (int tile_begin = begin; tile_begin < end; tile_begin += kSteps) {
      const int steps = min(kSteps, end - tile_begin);
      for (int t = 0; t < steps; ++t) {
        const int y = tile_begin + t;
        const Accum<C> value = advance(y);
        if constexpr (kFirst) {
          my_tile[t][lane] = to_scratch<T, C>(value);
        } else {
          const bool needs_centre = out.keep_alpha || out.rule == FilterOutput::Unsharp;
          const Accum<C> centre = needs_centre ? input_value(image.at(y, column), out) : zero_accum<C>();
          const Accum<C> stack[1] = {value};
          my_tile[t][lane] = filter2d_pixel<T, C, 1>(stack, centre, out);
        }
      }
      __syncwarp();
      // Transposed: column first_column + i becomes dst row first_column + i, and lane t
      // writes its step t, so each store covers consecutive pixels of one dst row.
      for (int i = 0; i < kWarp && first_column + i < src.width; ++i)
        if (lane < steps) dst.at(tile_begin + lane, first_column + i) = my_tile[lane][i];
      __syncwarp();
    }
  }
}

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// `scale`: what the pass multiplies its normalised sums by (into or out of scratch units).
BoxStackWalkArgs pass_args(const BoxStackPlan& plan, int rows, float scale, std::size_t pitch) {
  const int wanted = std::max(Tuning::kMinSegmentRows, Tuning::kSegmentPerRadius * plan.total_radius);
  const auto segment_rows = round_up(static_cast<std::size_t>(std::min(wanted, std::max(rows, 1))),
                                     static_cast<std::size_t>(Tuning::kMaxTileSteps));
  return box_stack_walk_args(plan, scale, static_cast<int>(segment_rows), pitch);
}

bool gaussian_factor_fits(const std::vector<float>& factor) {
  const double variance = box_stack_factor_variance(factor);
  const int radius = static_cast<int>(factor.size()) / 2;
  // A Gaussian cut at 3 sigma keeps 97.3% of its variance: sigma 3 itself must pass.
  constexpr double kTruncatedVariance = 0.97;
  return variance >= kTruncatedVariance * Tuning::kMinSigma * Tuning::kMinSigma && radius >= 3.0 * std::sqrt(variance);
}

}  // namespace

bool box_stack_fits(const FilterSpec& spec) {
  return spec.gaussian && spec.output == FilterOutput::Linear && spec.bias == 0.0 && spec.masks.size() == 1 &&
         spec.is_separable() && gaussian_factor_fits(spec.separable[0].x) &&
         gaussian_factor_fits(spec.separable[0].y);
}

void launch_box_stack(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                      BoxStackShape shape, const ExecContext& ctx) {
  if (!box_stack_fits(spec))
    throw Error(ErrorCode::InvalidArgument,
                "box_stack: runs Gaussian blurs of sigma >= 3 (masks reaching at least 3 sigma) only");
  const BoxStackPlan column_plan = cached_box_stack_plan(spec.separable[0].y);
  const BoxStackPlan row_plan = cached_box_stack_plan(spec.separable[0].x);
  if (shape == BoxStackShape::Fused && box_stack_fused_fits(src.format, row_plan)) {
    launch_box_stack_fused(src, dst, column_plan, row_plan, spec, border, ctx);
    return;
  }

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    using S = typename Scratch<T>::type;
    // The scratch image is src transposed: src.height wide, src.width tall.
    const std::size_t scratch_pitch = round_up(sizeof(Pixel<S, C>) * static_cast<std::size_t>(src.height), 256);
    const BoxStackWalkArgs columns = pass_args(column_plan, src.height, Scratch<T>::kScale, src.pitch);
    const BoxStackWalkArgs rows = pass_args(row_plan, src.width, 1.0f / Scratch<T>::kScale, scratch_pitch);
    const Filter2dOutput out = make_filter2d_output<T, C>(spec);
    // Outside the image under Constant: the constant pixel as the first pass sees it
    // (premultiplied); the first pass maps a constant column to itself, so the second
    // sees the same value in scratch units.
    const Accum<C> constant = box_stack_constant<T, C>(border, out, 1.0);
    const Accum<C> scratch_constant = box_stack_constant<T, C>(border, out, Scratch<T>::kScale);
    const StreamBuffer scratch(scratch_pitch * static_cast<std::size_t>(src.width), ctx.stream);
    const PitchedView<S, C> scratch_view{scratch.get<unsigned char>(), src.height, src.width, scratch_pitch};
    const dim3 block(kWarp, Tuning::kWarpsPerBlock);
    const int columns_per_block = kWarp * Tuning::kWarpsPerBlock;
    visit_border(border.mode, [&](auto policy) {
      using B = decltype(policy);
      const dim3 grid1(grid_x(blocks_for(src.width, columns_per_block), "box_stack_pass_kernel"),
                       grid_y(blocks_for(src.height, columns.segment_rows)));
      box_stack_pass_kernel<T, C, B, true><<<grid1, block, 0, ctx.stream>>>(
          pitched<T, C>(src), scratch_view, pitched<T, C>(src), columns, constant, out);
      check_launch("box_stack_pass_kernel (columns)", ctx);
      const dim3 grid2(grid_x(blocks_for(src.height, columns_per_block), "box_stack_pass_kernel"),
                       grid_y(blocks_for(src.width, rows.segment_rows)));
      box_stack_pass_kernel<T, C, B, false><<<grid2, block, 0, ctx.stream>>>(
          scratch_view, pitched<T, C>(dst), pitched<T, C>(src), rows, scratch_constant, out);
      check_launch("box_stack_pass_kernel (rows)", ctx);
    });
  });
}

}  // namespace gpufilter::kernels
