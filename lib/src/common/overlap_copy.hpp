#pragma once
// For the neighbourhood references (filters, median), which write a row while later rows
// are still to be read: where dst may overlap src, they read from a packed copy instead.
#include <cstddef>
#include <cstring>
#include <vector>

#include "gpufilter/image_view.hpp"

namespace gpufilter::reference {

// Whether any byte of `b` lies between the first and the last byte of `a`.
inline bool may_overlap(const ImageView& a, const ImageView& b) {
  const auto* a_first = static_cast<const unsigned char*>(a.data);
  const auto* b_first = static_cast<const unsigned char*>(b.data);
  const auto* a_end = a_first + a.pitch * static_cast<std::size_t>(a.height - 1) + a.row_bytes();
  const auto* b_end = b_first + b.pitch * static_cast<std::size_t>(b.height - 1) + b.row_bytes();
  return a_first < b_end && b_first < a_end;
}

// `src`'s rows copied into memory of its own, rows packed.
class PackedCopy {
 public:
  explicit PackedCopy(const ImageView& src)
      : bytes_(src.row_bytes() * static_cast<std::size_t>(src.height)),
        view_{bytes_.data(), src.width, src.height, src.row_bytes(), src.format} {
    for (int y = 0; y < src.height; ++y)
      std::memcpy(view_.row<unsigned char>(y), src.row<const unsigned char>(y), src.row_bytes());
  }
  const ImageView& view() const { return view_; }

 private:
  std::vector<unsigned char> bytes_;
  ImageView view_;
};

}  // namespace gpufilter::reference
