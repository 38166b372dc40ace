#pragma once
// The launcher of the 8-bit integer 3x3 kernel (integer_3x3.cu). src and dst are
// validated device views of equal size and format that do not overlap; `border.value`
// is representable in u8.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// The largest sum of the weights' magnitudes the kernel takes: premultiplied colours
// (colour x alpha, up to 255^2) summed under it, with 255 times the bias, stay below
// 2^22: exact as floats, whatever the output does with them.
constexpr int kInteger3x3MaxWeightSum = 62;

// Whether the integer 3x3 kernel runs this spec: u8; one mask of at most 3x3 whose
// weights are integers with magnitudes summing to at most kInteger3x3MaxWeightSum; the
// Linear rule with a bias of a whole number of levels (bias * 255 an integer); every
// alpha mode.
bool integer_3x3_fits(PixelFormat format, const FilterSpec& spec);

// The bias of a spec that integer_3x3_fits(), in levels.
int integer_3x3_bias(const FilterSpec& spec);

// The mask's integer sums, exact, saturated to 8 bits (premultiplied colours divided by
// the filtered alpha), in the tuned launch shape (Integer3x3Tuning::TunedShape); throws
// Error(UnsupportedFormat) where integer_3x3_fits() is false.
void launch_integer_3x3(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                        const ExecContext& ctx);

}  // namespace gpufilter::kernels
