#pragma once
/// @file
/// The median filter: each output sample is the median of its channel over a square
/// window of (2 * radius + 1)^2 pixels, read through the border. Every channel is filtered
/// alone, alpha included, as cv::medianBlur does: a median picks one of the window's
/// values, so channels filtered together could only mix values from different pixels.
/// The result is an input value (or the border's constant), so every variant gives the
/// same, exact output.
///
/// median_filter() has the shape and the contract of the filters in filters.hpp:
/// - Preconditions: src and dst are non-empty views of device memory, of equal size and
///   format, each naturally aligned (a 4-channel pixel to its full size), not
///   overlapping; any pitch, sub-views included.
/// - Errors: Error(InvalidArgument) for views or a radius that break these rules (the
///   message names the op and the accepted range), Error(UnsupportedFormat) for a channel
///   count other than 1, 3 or 4, Error(Cuda) when a launch fails. After an error dst is
///   unspecified.
/// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns;
///   only ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes it wait.
/// to_string(), all_median_variants() and median_variant_from_name() touch no GPU.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// The median filter's window.
struct MedianParams {
  int radius = 1;  ///< the window is (2 * radius + 1) pixels square: 1 is 3x3, 3 is 7x7
  static constexpr int kMaxRadius = 3;  ///< the largest radius the kernels take
};

/// The kernels of the median filter; each runs every radius, format and border.
enum class MedianVariant {
  Auto,   ///< walk for 3x3 windows on 16- and 32-bit channels, and on 8-bit images
          ///< whose rows start on the words walk loads; tiled otherwise
  Naive,  ///< one thread per pixel: its window read from global memory with a border
          ///< branch at every tap, the median found by a selection sort
  Tiled,  ///< a shared-memory tile with its halo (border handled only by edge blocks);
          ///< selection networks in registers shared by neighbouring outputs (5x5 and
          ///< 7x7: a 2x2 block of them); 8- and 16-bit RGBA ordered as 16-bit pairs, two
          ///< channels per instruction
  Walk,   ///< 3x3: no shared memory; a lane per column walks down a strip of rows, its
          ///< neighbours' pixels by warp shuffles, each window row sorted once for the
          ///< three outputs that hold it; 8- and 16-bit gray and 8-bit RGB whose rows
          ///< start on 4-byte words take a word of channel values a lane, RGBA8 on 8-byte
          ///< words a pair of pixels. Larger windows run Tiled.
};

/// The variant's name: "auto", "naive", "tiled" or "walk"; "unknown" for another value.
const char* to_string(MedianVariant variant);
/// The variant of that name; throws Error(InvalidArgument) naming the choices on an
/// unknown name.
MedianVariant median_variant_from_name(const std::string& name);
/// Every variant, `Auto` first.
const std::vector<MedianVariant>& all_median_variants();

/// Median of each channel over a (2 * params.radius + 1)^2 window (radius 1 to
/// MedianParams::kMaxRadius), read through `border`, from `src` into `dst` with the
/// kernel `variant` names, on ctx.stream (see the file's contract above).
void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border = {},
                   MedianVariant variant = MedianVariant::Auto, const ExecContext& ctx = {});

}  // namespace gpufilter
