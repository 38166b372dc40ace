#pragma once
// The strip kernel with its vertical pass, or both passes, on the 8-bit integer tensor
// cores (separable_strip_imma.cuh): one rank-1 mask (Linear or Unsharp output) of radius
// up to SeparableStripImmaTuning::kMaxRadius on RGBA8, on GPUs with integer tensor cores
// (sm_80 on); on 8-bit gray and RGB the vertical pass (separable_strip_imma_bytes.cuh).
// launch_separable_strip runs it where separable_strip_imma_takes(), in the passes
// SeparableStripImmaTuning::library_passes gives its radius; the lab's
// `separable_strip_imma` (the vertical pass) and `separable_strip_imma_both` wherever they
// run.
// src and dst are validated device views of equal size and format that do not overlap;
// `border.value` is representable in the pixel type.
#include "convolution/separable_strip_imma_tuning.hpp"
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Whether the kernel runs this spec on this format in `passes`: RGBA8 (8-bit gray and RGB
// in the vertical pass), a compiled radius,
// and factors of non-negative taps summing to 1 (imma_integer_taps): the vertical, and
// for ImmaPasses::Both the horizontal too, without an Unsharp threshold.
bool separable_strip_imma_fits(PixelFormat format, const FilterSpec& spec, ImmaPasses passes);

// separable_strip_imma_fits() and the current GPU has the integer tensor cores (sm_80 on).
bool separable_strip_imma_runs(PixelFormat format, const FilterSpec& spec, ImmaPasses passes);

// Where the library's strip prefers it, on any device: the kernel's rules (as
// separable_strip_imma_fits, less the device's shared memory) from
// SeparableStripImmaTuning::library_min_radius on, every alpha mode (gray and RGB from
// byte_library_min_radius).
bool separable_strip_imma_preferred(PixelFormat format, const FilterSpec& spec);

// Where the library's strip takes it: preferred, and it runs on the current GPU.
bool separable_strip_imma_takes(PixelFormat format, const FilterSpec& spec);

// Throws Error(UnsupportedFormat) where separable_strip_imma_runs() is false.
void launch_separable_strip_imma(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                 const Border& border, const ExecContext& ctx, ImmaPasses passes);

// The library's form: in the passes its radius takes (SeparableStripImmaTuning::library_passes;
// the vertical where both do not fit), for a spec it takes.
void launch_separable_strip_imma(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                 const Border& border, const ExecContext& ctx);

namespace strip_imma {
// 8-bit gray and RGB (separable_strip_imma_bytes.cu), the vertical pass on the tensor cores.
void launch_bytes(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                 const ExecContext& ctx);
}  // namespace strip_imma

}  // namespace gpufilter::kernels
