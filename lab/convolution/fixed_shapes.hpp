#pragma once
// The lab's launch shapes of the 8-bit register-window kernels, one plain struct each
// (FixedShape, kernels/convolution/fixed_shape.hpp), measured against the
// library's GradientIntTuning::TunedShape (docs/techniques/convolution.md, "Launch
// shapes"), and the fixed-point separable kernel's own constants.
#include "convolution/gradient_int_tuning.hpp"

namespace gpufilter::lab {

using kernels::FixedShape;
using kernels::StripBounds;

struct FixedShapes {
  // The library's shape, which separable_fixed runs by default.
  using Tuned = kernels::GradientIntTuning::TunedShape;
  // The first shape, kept for comparison, profiled on the H100 (5x5 blur u8x4: 85 registers, 31% theoretical
  // occupancy, issue slots 42% busy, 40% of stalls on L1TEX scoreboard): every row's
  // loads wait for the row's math; 32-row strips, 8 gray pixels a thread. (Its loads no
  // longer sit behind the row's border test, so the compiler now hoists some itself: 126
  // registers at 5x5 RGBA.)
  using Serial = FixedShape<128, 0, 0, 8, 2, false>;
  // More warps: 64 registers where the window allows (gray 8 blocks, 32 warps) and one
  // RGBA pixel a thread (half the window: about 7 blocks instead of 5, for a third more
  // halo bytes taken out per sample).
  using Lean = FixedShape<128, 64, 1, 4, 1, true>;
  // Fewer warps, more loads in flight each: two rows ahead, 80 registers where the
  // window allows.
  using Deep = FixedShape<128, 80, 2, 4, 2, true>;
  // Wider threads for the 3x3 walks (gradient_int, integer_3x3): 8 gray pixels (two words)
  // or 4 RGBA pixels a thread, so a row's loads, byte moves and loop work spread over
  // twice the samples; more registers a thread.
  using Wide = FixedShape<128, 72, 1, 8, 4, true>;

  // separable_fixed's strips, in the wave-filling shapes: at least 16 rows, so the 2R
  // warm-up rows stay a small share of the walk (2R / 16 = 25% more horizontal sums at
  // 5x5), at most 64; it was slower at every shorter length (docs/techniques/convolution.md,
  // "8-bit filters: separable_fixed and gradient_int").
  static constexpr StripBounds kSeparableFixedStripRows{16, 64};
};

// Why separable_fixed left the library: it ran the 5x5 Gaussian slower than the float
// separable kernel on every format, so auto never took it (docs/techniques/convolution.md,
// "8-bit filters: separable_fixed and gradient_int"); separable_packed (vertical pass
// first) superseded it on 8 bits.

}  // namespace gpufilter::lab
