#include <cstring>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::reference {

void copy(const ImageView& src, const ImageView& dst) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (src.width != dst.width || src.height != dst.height || !(src.format == dst.format))
    throw Error(ErrorCode::InvalidArgument, "copy: source and destination differ in size or format");
  for (int y = 0; y < src.height; ++y) std::memmove(dst.row<void>(y), src.row<const void>(y), src.row_bytes());
}

}  // namespace gpufilter::reference
