#pragma once
/// @file
/// The geometry ops' parameter types and kernel choices (geometry.hpp has the ops).
/// Plain types: the kernels see these, never the ops' declarations.
namespace gpufilter {

/// A rectangle of an image, in pixels.
struct Rect {
  int x = 0;       ///< left column
  int y = 0;       ///< top row
  int width = 0;   ///< columns
  int height = 0;  ///< rows
};

// ---- transpose and quarter turns (seed 000, section 4.4: the transpose experiment) ----
/// The library's transposes; the seed's other steps (naive_col, unroll4_*, diagonal_*)
/// are the lab's (docs/lab.md). Odd quarter turns run the same kernels.
enum class TransposeVariant {
  NaiveRow,     ///< a thread per pixel, rows read (coalesced), columns written (strided)
  Tiled,        ///< a 32x32 tile through shared memory (column reads hit one bank)
  TiledPadded,  ///< the tile with one column of padding (no bank conflicts)
  Fast,         ///< padded tile, several pixels per thread packed in words of up to 16 bytes;
                ///< views not aligned to the word run TiledPadded
  FastWide,     ///< Fast with 16-byte global words for 1-byte pixels (4x4 byte blocks
                ///< transposed in registers); other pixels, and 1-byte views not aligned
                ///< to 16 bytes, as Fast (the default)
};
/// Block shape of the naive variant: Wide32x8, Square16x16 or Thin8x32 threads in x by
/// y (the lab's column-reading steps take it too: the seed found thin blocks, 8x32,
/// faster for column reads). The tiled variants ignore it.
enum class BlockShape { Wide32x8, Square16x16, Thin8x32 };

/// The kernel of transpose() and rotate_quarter_turns().
struct TransposeOptions {
  TransposeVariant variant = TransposeVariant::FastWide;  ///< the kernel
  BlockShape block = BlockShape::Square16x16;             ///< NaiveRow's block shape
};


/// The kernels of rotate() by any angle ("bilinear" and "bilinear_tiled" by name).
enum class RotateVariant {
  Direct,  ///< a thread per pixel, source positions in double
  Tiled,   ///< a warp per 8x4 pixel patch, fixed-point steps from a double start per thread,
           ///< edges without branches (the lab has it four pixels a thread and through a
           ///< texture object); outputs too tall for its grid (about a million rows) run Direct
};

// ---- flips (rotate 180 is FlipAxis::Both) ------------------------------------------
/// The mirror flip() makes.
enum class FlipAxis {
  Horizontal,  ///< mirror left-right (cv::flip code 1)
  Vertical,    ///< mirror top-bottom (cv::flip code 0)
  Both,        ///< both: a half turn (cv::flip code -1)
};
/// The kernels of flip(); views whose alignment does not allow 16-byte words run Naive.
enum class FlipVariant {
  Naive,       ///< a thread per pixel
  Vectorized,  ///< 16-byte words reversed in registers where the views' alignment allows
  Wide,        ///< Vectorized with byte-permute reversal, four rows per thread for 16-byte
               ///< words and 48-byte words (3-byte pixels) through a warp's shared stage
               ///< (the default; vertical flips run Vectorized's row copy)
};

// ---- resize ----------------------------------------------------------------------------
/// The interpolation of resize(). Output pixel (x, y) samples the source around
/// ((x + 0.5) * sw / dw - 0.5, likewise in y), as OpenCV's cv::resize; beyond the edges
/// the edge pixels repeat.
enum class ResizeFilter {
  Nearest,  ///< the source pixel holding the output pixel's centre (cv::INTER_NEAREST_EXACT)
  Linear,   ///< 2x2 taps (cv::INTER_LINEAR); shrinking skips pixels: use area
  Cubic,    ///< 4x4 taps, Keys a = -0.75 (cv::INTER_CUBIC); no widening when shrinking
  Area,     ///< every source pixel weighed by the share of it the output pixel covers:
            ///< the average when shrinking, antialiased (cv::INTER_AREA)
  Lanczos,  ///< 8x8 taps, 4 lobes (cv::INTER_LANCZOS4); no widening when shrinking
};
/// The kernels of resize().
enum class ResizeVariant {
  Direct,  ///< a thread per output pixel computes its taps
  Fast,    ///< Direct, but halving 8-bit images with area runs a kernel of 16-byte words
           ///< (the same values; rows starting at 16-byte boundaries), doubling 8-bit
           ///< images with linear runs one in integers (the same values), and other
           ///< linear resizes that do not narrow the image run a kernel of several output
           ///< pixels a thread from a shared-memory window of vertically blended source
           ///< columns (the same values within float rounding); the default
};

}  // namespace gpufilter
