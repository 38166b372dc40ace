#pragma once
// What the 8-bit register-window kernels (separable_fixed.cu, gradient_int.cu) share:
// a thread owns P adjacent pixels of a column strip and reads, for every row it walks
// over, the bytes of pixels x0 - R .. x0 + P + R - 1 as one integer each.
//   - Interior threads of images whose rows start on a 32-bit boundary load whole
//     words (their own P pixels plus the halo words either side, which neighbouring
//     threads also load: L1 hits) and take the bytes out with one byte permute each.
//   - Threads at the left or right edge, and every thread of an image whose rows
//     start at any other byte offset, read byte by byte through the border mode.
// Rows outside the image map through the border mode once per row (the whole thread
// reads the same row), so the interior path has no border logic at all.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/border.cuh"
#include "common/border_map.hpp"
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::kernels {

// A u8 image as bytes, with the border mode and the constant (byte c: channel c).
struct ByteImage {
  const unsigned char* data;
  std::size_t pitch;
  int width;
  int height;
  BorderMode mode;
  unsigned constant;
};

// A thread's W adjacent words at `first`: two words in one 8-byte access where `vector`
// (first aligned to 8 bytes), else word by word. A warp whose lanes each take two words
// with 32-bit accesses touches every 32-byte sector twice, half of it each time
// (Nsight Compute: 53% excess sectors on separable_packed's RGBA rows).
template <int W>
__device__ __forceinline__ void load_words(const unsigned* first, bool vector, unsigned (&w)[W]) {
  if constexpr (W == 2) {
    if (vector) {
      const uint2 v = __ldg(reinterpret_cast<const uint2*>(first));
      w[0] = v.x;
      w[1] = v.y;
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __ldg(first + i);
}

template <int W>
__device__ __forceinline__ void store_words(unsigned* first, bool vector, const unsigned (&w)[W]) {
  if constexpr (W == 2) {
    if (vector) {
      *reinterpret_cast<uint2*>(first) = make_uint2(w[0], w[1]);
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < W; ++i) first[i] = w[i];
}

// `src` as the byte-window kernels read it: the constant border's channel values packed
// into one word, as a row's bytes hold them.
inline ByteImage byte_image_of(const ImageView& src, const Border& border) {
  unsigned constant = 0;
  for (int c = 0; c < src.format.channels; ++c)
    constant |= static_cast<unsigned>(static_cast<std::uint8_t>(border.value[static_cast<std::size_t>(c)])) << (8 * c);
  return ByteImage{static_cast<const unsigned char*>(src.data), src.pitch, src.width, src.height, border.mode,
                   constant};
}

// The geometry of a thread's row segment: P pixels of C channels plus R either side.
template <int C, int P, int R>
struct RowSpan {
  static constexpr int kSamples = P * C;                 // the thread's own samples
  static constexpr int kBytes = (P + 2 * R) * C;          // what the horizontal pass reads
  static constexpr int kOwnWords = kSamples / 4;          // P * C is a multiple of 4
  static constexpr int kHaloWords = (R * C + 3) / 4;      // words read either side
  static constexpr int kWords = kOwnWords + 2 * kHaloWords;
  static constexpr int kSkip = 4 * kHaloWords - R * C;    // bytes of the first word before the span
  static_assert(kSamples % 4 == 0, "a thread's pixels fill whole words");
};

// Whether a thread at pixel x0 may load its span as words: the image's rows (and the
// output's) start on a word boundary and every word lies inside the row.
template <class Span>
__device__ __forceinline__ bool word_span_inside(bool aligned, int x0, int width, int channels) {
  const long long first = static_cast<long long>(x0) * channels - 4 * Span::kHaloWords;
  const long long end = static_cast<long long>(x0) * channels + Span::kSamples + 4 * Span::kHaloWords;
  return aligned && first >= 0 && end <= static_cast<long long>(width) * channels;
}

// Requests the words of row y's span (y any integer: mapped through the border mode)
// into w, where the thread loads words at all; the bytes come out of them in
// unpack_span(). A row of the constant border loads row 0 instead, never used.
template <int C, int P, int R>
__device__ __forceinline__ void fetch_span(const ByteImage& img, int x0, int y, bool words,
                                           unsigned (&w)[RowSpan<C, P, R>::kWords]) {
  using Span = RowSpan<C, P, R>;
  if (!words) return;
  const int sy = max(border_map(y, img.height, img.mode), 0);
  const unsigned char* row = img.data + static_cast<std::size_t>(sy) * img.pitch;
  const unsigned* first = reinterpret_cast<const unsigned*>(row + static_cast<std::size_t>(x0) * C) - Span::kHaloWords;
#pragma unroll
  for (int i = 0; i < Span::kWords; ++i) w[i] = __ldg(first + i);
}

// Takes the span's bytes out of its words (a row inside the image, loaded as words).
template <int C, int P, int R>
__device__ __forceinline__ void unpack_words(const unsigned (&w)[RowSpan<C, P, R>::kWords],
                                             unsigned (&b)[RowSpan<C, P, R>::kBytes]) {
  using Span = RowSpan<C, P, R>;
#pragma unroll
  for (int k = 0; k < Span::kBytes; ++k) {
    const int at = k + Span::kSkip;
    b[k] = __byte_perm(w[at / 4], 0u, 0x4440u | static_cast<unsigned>(at % 4));
  }
}

// Fills b with the bytes of pixels x0 - R .. x0 + P + R - 1 of image row y: from w
// (fetch_span() of the same row) where the thread loads words, else byte by byte
// through the border mode.
template <int C, int P, int R>
__device__ __forceinline__ void unpack_span(const ByteImage& img, int x0, int y, bool words,
                                            const unsigned (&w)[RowSpan<C, P, R>::kWords],
                                            unsigned (&b)[RowSpan<C, P, R>::kBytes]) {
  using Span = RowSpan<C, P, R>;
  const int sy = border_map(y, img.height, img.mode);
  if (sy < 0) {  // a row of the constant
#pragma unroll
    for (int k = 0; k < Span::kBytes; ++k) b[k] = (img.constant >> (8 * (k % C))) & 0xffu;
    return;
  }
  if (words) {
    unpack_words<C, P, R>(w, b);
  } else {
    // The slow path (image edges, unaligned rows): one border map per pixel.
    const unsigned char* row = img.data + static_cast<std::size_t>(sy) * img.pitch;
#pragma unroll
    for (int px = 0; px < P + 2 * R; ++px) {
      const int sx = border_map(x0 - R + px, img.width, img.mode);
#pragma unroll
      for (int c = 0; c < C; ++c)
        b[px * C + c] = sx < 0 ? (img.constant >> (8 * c)) & 0xffu : static_cast<unsigned>(row[sx * C + c]);
    }
  }
}

// Whether a register-window kernel's row step may skip its tests (its "fast groups":
// rows inside the image, moved as whole words), as an argument that is a constant at
// every call (a bool, not a bool_constant: generic lambdas over those crash cudafe++).
constexpr bool kInside = true;
constexpr bool kTested = false;

// Moves a rolled walk's window up a slot (slot j takes slot j + 1's values), for the rows
// that step one at a time: the unrolled groups rotate their window by renaming instead.
template <class T, int N, int S>
__device__ __forceinline__ void move_window_up(T (&window)[N][S]) {
#pragma unroll
  for (int j = 0; j + 1 < N; ++j)
#pragma unroll
    for (int s = 0; s < S; ++s) window[j][s] = window[j + 1][s];
}

// A thread's walk down its rows, kAhead rows of loads ahead of the math: take(y)
// requests row y + kAhead's words and then unpacks row y's, which were requested
// kAhead calls before, so their latency passes while the thread works on the rows
// between. Rows must be taken in order, one after the other, from the row given to
// start(). kAhead = 0: each row is loaded when it is taken.
// Rows are fetched in order, so a row inside the image loads from the previous row's
// offset plus the pitch (fetch()): no border mapping and no multiply, where
// fetch_span() costs about 20 instructions a row (separable_packed.cu measured the same
// change: 12% fewer instructions on the 8K gray 5x5 Gaussian).
template <int C, int P, int R, int kAhead>
struct SpanStream {
  using Span = RowSpan<C, P, R>;
  static constexpr int kSlots = kAhead > 0 ? kAhead : 1;
  const ByteImage& img;
  int x0;
  bool words;
  // Address of the next row fetched, its first word included (an integer: rows above
  // the image and the halo left of it lie outside the image).
  unsigned long long next_address = 0;
  unsigned ahead[kSlots][Span::kWords];

  __device__ __forceinline__ SpanStream(const ByteImage& image, int x, bool word_loads)
      : img(image), x0(x), words(word_loads) {}

  // Requests row y's words (the row after the last one fetched). kInside: the caller
  // knows that the row lies in the image and that the thread loads words.
  template <bool kInside = false>
  __device__ __forceinline__ void fetch(int y, unsigned (&w)[Span::kWords]) {
    const unsigned long long address = next_address;
    next_address += img.pitch;
    if (kInside || (words && static_cast<unsigned>(y) < static_cast<unsigned>(img.height))) {
      load_words(reinterpret_cast<const unsigned*>(address), /*vector=*/false, w);
      return;
    }
    fetch_span<C, P, R>(img, x0, y, words, w);
  }

  __device__ __forceinline__ void start(int y) {
    next_address = reinterpret_cast<unsigned long long>(img.data) +
                   static_cast<unsigned long long>(static_cast<long long>(y) * static_cast<long long>(img.pitch) +
                                                   static_cast<long long>(x0) * C - 4 * Span::kHaloWords);
#pragma unroll
    for (int k = 0; k < kAhead; ++k) fetch(y + k, ahead[k]);
  }

  // kInside: rows y and y + kAhead lie in the image and the thread loads words, so
  // neither the fetch nor the unpacking tests anything (no border mapping).
  template <bool kInside = false>
  __device__ __forceinline__ void take(int y, unsigned (&b)[Span::kBytes]) {
    unsigned w[Span::kWords];
    if constexpr (kAhead == 0) {
      fetch<kInside>(y, w);
    } else {
#pragma unroll
      for (int i = 0; i < Span::kWords; ++i) w[i] = ahead[0][i];
#pragma unroll
      for (int k = 0; k + 1 < kAhead; ++k)
#pragma unroll
        for (int i = 0; i < Span::kWords; ++i) ahead[k][i] = ahead[k + 1][i];
      fetch<kInside>(y + kAhead, ahead[kAhead - 1]);
    }
    if constexpr (kInside)
      unpack_words<C, P, R>(w, b);
    else
      unpack_span<C, P, R>(img, x0, y, words, w, b);
  }
};

// Stores a thread's P * C output bytes (the low byte of each o[s]) at pixel x0 of the
// row at `row`: as words where `words` (aligned rows, all P pixels inside), else byte by
// byte.
template <int C, int P>
__device__ __forceinline__ void store_span(unsigned char* row, int width, int x0, bool words,
                                           const unsigned (&o)[P * C]) {
  if (words) {
#pragma unroll
    for (int i = 0; i < P * C / 4; ++i) {
      const unsigned lo = __byte_perm(o[4 * i], o[4 * i + 1], 0x0040u);
      const unsigned hi = __byte_perm(o[4 * i + 2], o[4 * i + 3], 0x0040u);
      reinterpret_cast<unsigned*>(row)[i] = __byte_perm(lo, hi, 0x5410u);
    }
  } else {
#pragma unroll
    for (int s = 0; s < P * C; ++s)
      if (x0 + s / C < width) row[s] = static_cast<unsigned char>(o[s]);
  }
}

// A thread's output rows, stored in order from the row given to start(): each row's
// address is the last one's plus the pitch (no 64-bit multiply a row).
template <int C, int P>
struct SpanStores {
  unsigned char* dst;
  std::size_t pitch;
  int width;
  int x0;
  bool words;
  // The next row's pixel x0, derived from `dst` as a pointer (not through an integer) so
  // the stores stay global (STG, not generic ST).
  unsigned char* next = nullptr;

  __device__ __forceinline__ void start(int y) {
    next = dst + (static_cast<long long>(y) * static_cast<long long>(pitch) + static_cast<long long>(x0) * C);
  }

  // kInside: the thread stores whole words.
  template <bool kInside = false>
  __device__ __forceinline__ void store(const unsigned (&o)[P * C]) {
    store_span<C, P>(next, width, x0, kInside || words, o);
    next += pitch;
  }
};

}  // namespace gpufilter::kernels
