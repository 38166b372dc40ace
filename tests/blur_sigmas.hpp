#pragma once
// The sigmas the large-sigma plans are checked at: from `low` to blur's largest, 3%
// apart (a plan's choices change in steps far coarser than that).
#include <vector>

#include "gpufilter/filters.hpp"

namespace gpufilter::testing {

inline std::vector<double> sigmas_from(double low) {
  std::vector<double> sigmas;
  for (double s = low; s <= GaussianParams::kMaxSigma; s *= 1.03) sigmas.push_back(s);
  sigmas.push_back(GaussianParams::kMaxSigma);
  return sigmas;
}

}  // namespace gpufilter::testing
