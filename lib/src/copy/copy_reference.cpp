#include <cstring>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::reference {

void copy(const ImageView& src, const ImageView& dst) {
  validate_pair(src, dst, "copy");
  for (int y = 0; y < src.height; ++y) std::memmove(dst.row<void>(y), src.row<const void>(y), src.row_bytes());
}

}  // namespace gpufilter::reference
