#pragma once
/// @file
/// Non-owning views of pitched 2-D images. An ImageView may point at host or device
/// memory; which one is the caller's contract with the function it is passed to.
/// The functions here only compute with the view's fields: they never read or write
/// its pixels, make no CUDA call, and so work alike for host and device views.
#include <cstddef>

#include "gpufilter/pixel_format.hpp"

namespace gpufilter {

/// A non-owning view of a pitched 2-D image in host or device memory.
struct ImageView {
  void* data = nullptr;    ///< the first pixel of the first row
  int width = 0;           ///< pixels
  int height = 0;          ///< rows
  std::size_t pitch = 0;   ///< bytes from one row to the next
  PixelFormat format{};    ///< channel type and count of every pixel

  /// Whether the view has no pixels (or no memory).
  bool empty() const { return width <= 0 || height <= 0 || data == nullptr; }
  /// Bytes of one row's pixels (width times the pixel size; the pitch may be more).
  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * format.pixel_bytes(); }

  /// Row `y` as a pointer to T; no bounds check.
  template <class T>
  T* row(int y) const {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(data) + static_cast<std::size_t>(y) * pitch);
  }

  /// The rectangle [x, x+w) x [y, y+h) of this view, sharing its memory and pitch.
  /// Throws Error(InvalidArgument) when the rectangle leaves the view or is empty.
  ImageView subview(int x, int y, int w, int h) const;
};

/// Throws Error(InvalidArgument) unless `view` is non-empty, its pitch holds a row and
/// its rows end within the address space (a pitch such as SIZE_MAX would wrap), and
/// Error(UnsupportedFormat) unless it has 1, 3 or 4 channels; the message names
/// `role`. Does not check whether the memory is host or device.
void validate_view(const ImageView& view, const char* role);
/// validate_view on both, and the two must match in size and format, else
/// Error(InvalidArgument); the message names `what` and both shapes.
void validate_pair(const ImageView& src, const ImageView& dst, const char* what);

}  // namespace gpufilter
