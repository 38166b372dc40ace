#pragma once
// The border mode as a runtime value: the coordinate a read outside [0, n) takes, in the
// closed forms of border.cuh's policies, so a kernel needs no instantiation per mode.
// Two forms of one mapping:
//  - border_map(i, n, mode): a switch over the modes, for code that maps once per axis;
//  - border_map(i, n, axis): no branch on the mode, from four numbers made once per
//    launch (border_axis). Its code is about the size of one mode's closed form, so the
//    loops around a read compile as they did with the mode a template parameter.
// Plain C++ on the host too, so the CPU tests check both against the reference.
#include <climits>

#include "common/host_device.hpp"
#include "gpufilter/border.hpp"

namespace gpufilter::kernels {

// i mod n in [0, n) for any sign of i.
GPUFILTER_HD int border_positive_mod(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}

// The coordinate that coordinate i of an axis of n reads under `mode`, or -1 where it
// reads the constant (BorderMode::Constant outside [0, n)). n >= 1.
GPUFILTER_HD int border_map(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BorderMode::Constant: return -1;
    case BorderMode::Replicate: return i < 0 ? 0 : n - 1;
    case BorderMode::Reflect: {  // period 2n: 0..n-1 then n-1..0
      const int m = border_positive_mod(i, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case BorderMode::Reflect101: {  // period 2n-2: 0..n-1 then n-2..1
      if (n == 1) return 0;
      const int m = border_positive_mod(i, 2 * n - 2);
      return m < n ? m : 2 * n - 2 - m;
    }
    case BorderMode::Wrap: break;
  }
  return border_positive_mod(i, n);
}

// Every mode but Constant as clamp, then modulo, then mirror:
//   c = min(max(i, lo), hi);  m = c mod period;  index = m < n ? m : mirror - m.
// Replicate clamps (its period n leaves [0, n) alone); Reflect, Reflect101 and Wrap
// clamp nothing and fold with periods 2n, 2n-2 and n. Constant takes Replicate's
// numbers, so what it maps stays inside the image (its reads then take the constant).
struct BorderAxis {
  int lo, hi;
  int period;  // >= 1
  int mirror;
};

GPUFILTER_HD BorderAxis border_axis(BorderMode mode, int n) {
  switch (mode) {
    case BorderMode::Reflect: return BorderAxis{INT_MIN, INT_MAX, 2 * n, 2 * n - 1};
    case BorderMode::Reflect101:  // one pixel: a period of 1 reads it everywhere
      return n == 1 ? BorderAxis{INT_MIN, INT_MAX, 1, 0} : BorderAxis{INT_MIN, INT_MAX, 2 * n - 2, 2 * n - 2};
    case BorderMode::Wrap: return BorderAxis{INT_MIN, INT_MAX, n, n};
    case BorderMode::Constant:
    case BorderMode::Replicate: break;
  }
  return BorderAxis{0, n - 1, n, n};
}

// border_map(i, n, mode) for the mode that made `axis` (Replicate's for Constant).
GPUFILTER_HD int border_map(int i, int n, const BorderAxis& axis) {
  const int c = i < axis.lo ? axis.lo : (i > axis.hi ? axis.hi : i);
  const int m = border_positive_mod(c, axis.period);
  return m < n ? m : axis.mirror - m;
}

}  // namespace gpufilter::kernels
