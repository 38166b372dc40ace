#pragma once
// How the register-window kernels (separable_fixed.cu, gradient_int.cu), the separable
// strip kernel (separable_strip.cuh) and the decimated blur's interpolation cut an image's
// rows into strips, one strip per thread block row. Plain C++: the CPU tests check it.
//
// Every block of such a kernel does the same work (its strip's rows), so the kernel
// lasts as many "waves" as it takes the GPU's resident blocks to cover the grid: a grid
// of 1.64 waves lasts as long as one of 2 (the 8K gray Sobel grid of 1080 blocks, 660
// resident, measured so on the H100). fixed_strip_plan() picks the strip length that
// fills the last wave: the fewest waves that strips of at most max_rows rows need, then
// as many strips as those waves hold (never shorter than min_rows, so the 2R rows each
// strip loads before its first output stay a small share).
namespace gpufilter::kernels {

// The strip lengths a kernel's plan may choose between.
struct StripBounds {
  int min_rows = 1;
  int max_rows = 1;
};

struct StripPlan {
  int rows = 1;    // rows a strip (the last may be shorter)
  int strips = 1;  // strips covering the image's height: ceil(height / rows)
};

// columns: thread blocks across the image; resident: blocks the whole GPU keeps in
// flight at once (blocks per SM x SMs; < 1 is read as 1).
StripPlan fixed_strip_plan(long long columns, int height, long long resident, int min_rows, int max_rows);

// Strips of `rows` rows each, whatever the occupancy.
StripPlan fixed_strips(int height, int rows);

// How a kernel that walks its strips in whole steps may cut them (step_strip_plan).
struct StepStrips {
  int step_rows = 1;           // rows a step
  int max_steps = 1;           // steps a strip, at most
  double longer_within = 0.0;  // the share of the best fill a longer strip may lose
  int min_steps = 1;           // steps a strip, at least
};

// Strips of min_steps to max_steps whole steps of `step_rows` rows: the count whose grid
// fills the largest share of its waves' block slots, or the longest count within
// `longer_within` of that share. A kernel whose steps load their own halo rows (the
// separable strip kernel) loses nothing on short strips and may take one step; one whose
// strips load 2R rows before their first output (the column walk) keeps a least length
// (min_steps) so those rows stay a small share. An 8K gray image on the separable strip
// kernel is 12 block columns: strips of 4 steps make 3.07 waves, of one step 12.3.
StripPlan step_strip_plan(long long columns, int height, long long resident, const StepStrips& steps);

}  // namespace gpufilter::kernels
