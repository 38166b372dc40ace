#pragma once
// The image sizes the generated GPU cases run (gpu_conformance_test.cpp, gpu_lab_test.cpp):
// one pixel, a small odd size and a 1080p-like odd size. An op whose input must divide
// evenly (interleaved's planes: a height that holds 3 or 4 planes) takes none of those,
// so it gets the nearest even sizes instead: no op goes untested for its shape.
#include <functional>
#include <vector>

namespace gpufilter::testing {

struct CaseSize {
  int width, height;
};

inline std::vector<CaseSize> conformance_sizes(const std::function<bool(CaseSize)>& fits) {
  std::vector<CaseSize> chosen;
  for (CaseSize size : {CaseSize{1, 1}, CaseSize{17, 13}, CaseSize{1921, 1079}})
    if (fits(size)) chosen.push_back(size);
  if (!chosen.empty()) return chosen;
  for (CaseSize size : {CaseSize{17, 12}, CaseSize{1921, 1080}})
    if (fits(size)) chosen.push_back(size);
  return chosen;
}

}  // namespace gpufilter::testing
