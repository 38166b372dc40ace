#pragma once
// Whether a view's rows start on whole words, so a kernel may load them as words or
// vectors (host code: the launchers, and the choices made before them).
#include <cstddef>
#include <cstdint>

#include "gpufilter/image_view.hpp"

namespace gpufilter::kernels {

// Whether every row starts on a multiple of `bytes`: 4, so the kernels may load whole
// words; 8, so a thread's two words go in one vector access.
inline bool rows_aligned(const void* p, std::size_t pitch, std::size_t bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
}
inline bool word_aligned(const void* p, std::size_t pitch) { return rows_aligned(p, pitch, 4); }
// Whether the rows of both views start on a multiple of `bytes`.
inline bool rows_aligned(const ImageView& src, const ImageView& dst, std::size_t bytes) {
  return rows_aligned(src.data, src.pitch, bytes) && rows_aligned(dst.data, dst.pitch, bytes);
}

}  // namespace gpufilter::kernels
