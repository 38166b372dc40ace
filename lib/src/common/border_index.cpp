#include "common/border_index.hpp"

namespace gpufilter::reference {

int border_index(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BorderMode::Constant: return -1;
    case BorderMode::Replicate: return i < 0 ? 0 : n - 1;
    case BorderMode::Wrap:
      while (i < 0) i += n;
      while (i >= n) i -= n;
      return i;
    case BorderMode::Reflect:  // mirror about the pixel edge: -1 -> 0, n -> n-1
      while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
      return i;
    case BorderMode::Reflect101:  // mirror about the edge pixel: -1 -> 1, n -> n-2
      if (n == 1) return 0;
      while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
      return i;
  }
  return -1;
}

}  // namespace gpufilter::reference
