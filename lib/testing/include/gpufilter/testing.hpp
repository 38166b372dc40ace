#pragma once
// Host-side helpers for checking kernels, shared by the tests and the bench: random
// images (never constant), poisoned outputs, comparisons that say where they failed.
// Rows are split across the host's cores: an 8K f32x4 image is 0.5 GiB.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpufilter/image_view.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/tolerance.hpp"

namespace gpufilter::testing {

// Fills every channel with uniform random values over the format's range
// (f32: [0, 1)); the same values for the same seed, whatever the thread count.
void fill_random(const ImageView& view, std::uint64_t seed);

struct Difference {
  double max_abs = 0.0;  // infinity where either side holds a NaN
  int x = -1, y = -1, channel = -1;  // where max_abs was found (the first such place)
  double actual = 0.0, expected = 0.0;
  bool has_nan = false;
  std::size_t differing = 0;  // channel samples that differ at all (NaNs included)
  std::size_t samples = 0;    // channel samples compared
  bool colours_by_alpha = false;  // colours were compared premultiplied
  bool within(double tolerance) const { return !has_nan && max_abs <= tolerance; }
  // max_abs within bounds and no larger a share of samples differing than allowed.
  bool within(const Tolerance& tolerance) const;
  std::string describe() const;
};

// Largest per-channel |actual - expected|, and where. With `colours_by_alpha` (4 channels),
// colours are compared premultiplied by their own image's alpha, as
// Tolerance::colours_by_alpha says; the alpha channel as it is.
Difference compare(const ImageView& actual, const ImageView& expected, bool colours_by_alpha = false);
// compare() as `tolerance` asks for it.
inline Difference compare(const ImageView& actual, const ImageView& expected, const Tolerance& tolerance) {
  return compare(actual, expected, tolerance.colours_by_alpha);
}

// Writes into `view` a value that differs from `reference` at every channel
// (integers: the top bit flipped; floats: NaN), so an unwritten pixel always fails.
void poison_against(const ImageView& view, const ImageView& reference);

double channel_value(const ImageView& view, int x, int y, int c);

// A data op's result against the reference's, cell by cell, each within the op's
// tolerance for its column. NaN anywhere fails (a poisoned cell left unwritten).
struct DataDifference {
  bool ok = true;
  std::string first_failure;  // "row 'channel 2', column 'mean': 3.5 vs 3.25 (tolerance 1e-09)"
  double max_abs = 0.0;       // largest |actual - expected| over every cell
};
DataDifference compare_data(const Operation& op, PixelFormat input_format, const DataLayout& layout,
                            const double* actual, const double* expected);

}  // namespace gpufilter::testing
