#pragma once
namespace gpufilter::kernels {

// The 8-bit fixed-point separable kernel (separable_fixed.cu) and the integer gradient
// kernel (gradient_int.cu). docs/techniques/convolution.md, "8-bit filters", has the
// reasoning; the figures behind the choices are the lead's to measure.
struct SeparableFixedTuning {
  // Largest radius: the vertical window keeps 2R+1 rows of 16-bit horizontal sums, one
  // register each, per channel sample a thread owns (8 samples for gray and RGBA, 12
  // for RGB): 72 to 108 registers at R = 4. Beyond it the float `separable` runs.
  static constexpr int kMaxRadius = 4;
  // Pixels a thread owns in x: 8 gray (two 32-bit words), 4 RGB (three words: 4 RGB
  // pixels are the smallest whole number of words), 2 RGBA (two words). More would
  // amortise the halo (the horizontal pass reads P + 2R pixels for P outputs) but
  // costs 2R+1 more registers per sample.
  static constexpr int pixels_per_thread(int channels) { return channels == 1 ? 8 : channels == 3 ? 4 : 2; }
  // Each thread walks this many output rows down its column strip; the first 2R rows
  // of the window are loaded before the first output (2R/kStripRows extra horizontal
  // work: 12.5% at R = 2), and shorter strips give more threads to hide DRAM latency.
  static constexpr int kStripRows = 32;
  // 128 threads across: a warp's loads of one row are 32 x 8 contiguous bytes (gray).
  static constexpr int kBlockThreads = 128;
  // Measured on an H100 (8K, --quick, session 3, docs/gpu-results.md): gradient_int
  // runs the 8-bit Sobel magnitude in 98 us against the 2-D tile's 232 us (2.4x), so
  // auto takes it; separable_fixed runs the 5x5 Gaussian in 162 / 237 / 275 us (gray,
  // RGB, RGBA) against the float separable kernel's 79 / 220 / 245 us, slower on every
  // format, so auto leaves it to an explicit --variant until it is profiled and
  // revised (its registers, 85-119 a thread at 5x5, cap the warps an SM keeps).
  static constexpr bool kAutoPicksGradientInt = true;
  static constexpr bool kAutoPicksSeparableFixed = false;
};

}  // namespace gpufilter::kernels
