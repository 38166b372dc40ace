#pragma once
// How the decimated down pass cuts its walk into segments, and where the rows that
// straddle two segments meet: plain C++ shared by decimate_kernel, residual_kernel and
// the CPU tests.
//
// The down pass walks steps of h input rows; step s feeds the low-res rows
// s - overlap .. s (overlap: the down Gaussian's taps in steps, less one), so low-res
// row b sums steps b .. b + overlap, and `rows` low-res rows need steps(rows) steps. A
// block walks a segment of `length` consecutive steps, each step once, with no warm-up.
// A row whose steps all lie in one segment is complete there. A row whose steps
// straddle a boundary takes its first steps from the segment before, which stores them
// in the row's own place (d), and the rest from the segment after, which stores them in
// a carry row; the residual kernel adds the carry row to d's. With segments longer than
// the overlap no row straddles two boundaries, so the sums do not depend on the order in
// which blocks finish, and nothing is atomic.
#include "common/host_device.hpp"
#include "convolution/decimated_tuning.hpp"

namespace gpufilter::kernels {

struct DownSegments {
  int length = 1;   // steps a segment walks, more than overlap (or all steps)
  int overlap = 0;  // the rows a step feeds besides its own: the carry rows of a boundary

  GPUFILTER_HD int steps(int rows) const { return rows + overlap; }
  GPUFILTER_HD int count(int rows) const { return (steps(rows) + length - 1) / length; }
  // Carry rows to allocate: overlap for each segment (the first segment's are unused).
  GPUFILTER_HD int carry_rows(int rows) const { return count(rows) * overlap; }
  // The carry row that the segment starting at step `first` stores row y < first in.
  GPUFILTER_HD int carry_from(int first, int y) const { return first / length * overlap + y - first + overlap; }
  // The carry row holding the rest of row y, or -1: a row within overlap of its
  // segment's end continues in the next segment.
  GPUFILTER_HD int carry_of(int y) const {
    const int k = y % length - (length - overlap);
    return k >= 0 ? (y / length + 1) * overlap + k : -1;
  }
};

}  // namespace gpufilter::kernels
