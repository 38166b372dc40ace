#pragma once
// The benches time nothing in a build whose device code was compiled only to check it
// (GPUFILTER_DEVICE_OPTIMIZATION=OFF, CMakeLists.txt): any figure would mislead.
#include <cstdio>

namespace bench {

// True, having said why on stderr as `program`, where this build's device code is not
// optimized; false otherwise.
inline bool refuses_unoptimized_build(const char* program) {
#if defined(GPUFILTER_DEVICE_CODE_UNOPTIMIZED)
  std::fprintf(stderr,
               "%s: this build's device code is not optimized (GPUFILTER_DEVICE_OPTIMIZATION=OFF); "
               "configure with it ON to time anything\n",
               program);
  return true;
#else
  (void)program;
  return false;
#endif
}

}  // namespace bench
