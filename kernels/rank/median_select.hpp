#pragma once
// The median filter's selection networks: fixed sequences of min/max operations over
// values of any type, given a policy Ops with lo(a, b) and hi(a, b), so one network
// serves 32-bit scalars, floats and pairs of 16-bit lanes alike. Plain C++ that the CUDA
// compiler makes callable on both sides: the CPU tests run each network on every 0/1
// input it has (a network of min/max operations selects correctly on all inputs when it
// does on all 0/1 inputs), 64 inputs at a time as the bits of a word (BitOps).
// Sizes are template arguments, so every array index is a constant after unrolling and
// the arrays stay in registers.
#include <cstdint>

#include "common/host_device.hpp"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace gpufilter::kernels {

// 32-bit scalars: unsigned integers (8- and 16-bit channels) and floats.
struct ScalarOps {
#if defined(__CUDA_ARCH__)
  GPUFILTER_HD static unsigned lo(unsigned a, unsigned b) { return umin(a, b); }
  GPUFILTER_HD static unsigned hi(unsigned a, unsigned b) { return umax(a, b); }
  GPUFILTER_HD static float lo(float a, float b) { return fminf(a, b); }
  GPUFILTER_HD static float hi(float a, float b) { return fmaxf(a, b); }
#else
  GPUFILTER_HD static unsigned lo(unsigned a, unsigned b) { return a < b ? a : b; }
  GPUFILTER_HD static unsigned hi(unsigned a, unsigned b) { return a < b ? b : a; }
  GPUFILTER_HD static float lo(float a, float b) { return std::fmin(a, b); }
  GPUFILTER_HD static float hi(float a, float b) { return std::fmax(a, b); }
#endif
};

// Two unsigned 16-bit lanes in a 32-bit word, ordered lane by lane: one instruction on
// sm_90 (min/max.u16x2), the runtime's emulation on older GPUs.
struct PairOps {
  GPUFILTER_HD static unsigned lo(unsigned a, unsigned b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned r;
    asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#elif defined(__CUDA_ARCH__)
    return __vminu2(a, b);
#else
    return lane_wise(a, b, false);
#endif
  }
  GPUFILTER_HD static unsigned hi(unsigned a, unsigned b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned r;
    asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#elif defined(__CUDA_ARCH__)
    return __vmaxu2(a, b);
#else
    return lane_wise(a, b, true);
#endif
  }
#if !defined(__CUDA_ARCH__)
  static unsigned lane_wise(unsigned a, unsigned b, bool greatest) {
    unsigned r = 0;
    for (int shift = 0; shift < 32; shift += 16) {
      const unsigned x = (a >> shift) & 0xFFFFu, y = (b >> shift) & 0xFFFFu;
      r |= ((x < y) == greatest ? y : x) << shift;
    }
    return r;
  }
#endif
};

// 0/1 values in the 64 bits of a word: min is AND, max is OR (for the tests).
struct BitOps {
  GPUFILTER_HD static std::uint64_t lo(std::uint64_t a, std::uint64_t b) { return a & b; }
  GPUFILTER_HD static std::uint64_t hi(std::uint64_t a, std::uint64_t b) { return a | b; }
};

// a <= b afterwards.
template <class Ops, class V>
GPUFILTER_HD void order(V& a, V& b) {
  const V least = Ops::lo(a, b);
  b = Ops::hi(a, b);
  a = least;
}

template <class Ops, class V>
GPUFILTER_HD V median3(V a, V b, V c) {
  return Ops::hi(Ops::lo(a, b), Ops::lo(Ops::hi(a, b), c));
}

// The medians of kOutputs 3x3 windows stacked down a column: rows[k] holds window row k
// (left, centre, right), and output j's window is rows j, j + 1, j + 2. With each row
// sorted, the median of the nine is the median of the largest row minimum, the median of
// the row medians and the smallest row maximum (Paeth's method). Each row is sorted once
// for the three windows that hold it, and each pair of neighbouring rows' largest minimum
// and smallest maximum is taken once for the two windows that hold both: about 19
// min/max operations an output with 8 outputs, against 30 for the nine alone.
template <class Ops, int kOutputs, class V>
GPUFILTER_HD void median3x3_column(const V (&rows)[kOutputs + 2][3], V (&out)[kOutputs]) {
  constexpr int kRows = kOutputs + 2;
  V low[kRows], middle[kRows], high[kRows];
  GPUFILTER_UNROLL
  for (int k = 0; k < kRows; ++k) {
    V a = rows[k][0], b = rows[k][1], c = rows[k][2];
    order<Ops>(a, b);
    order<Ops>(b, c);
    order<Ops>(a, b);
    low[k] = a;
    middle[k] = b;
    high[k] = c;
  }
  GPUFILTER_UNROLL
  for (int j = 0; j < kOutputs; ++j) {
    // The shared pair is rows (j + 1, j + 2) for even j and (j, j + 1) for odd j: the same
    // operations on the same values, which the compiler computes once.
    const int pair = j % 2 == 0 ? j + 1 : j;
    const int single = j % 2 == 0 ? j : j + 2;
    const V largest_low = Ops::hi(Ops::hi(low[pair], low[pair + 1]), low[single]);
    const V smallest_high = Ops::lo(Ops::lo(high[pair], high[pair + 1]), high[single]);
    out[j] = median3<Ops>(largest_low, median3<Ops>(middle[j], middle[j + 1], middle[j + 2]), smallest_high);
  }
}

// The median of kCount values fed one at a time, keeping only those that may still be it
// ("forgetful selection", Perrot et al. 2014). With s values kept and r still to come, the
// least and the greatest kept value each have at least s - 1 kept values on their other
// side, so once s >= r + 3 neither can be the median of the kept and the coming values
// together, and both are dropped as the next value arrives: at most (kCount + 3) / 2
// values are held, and each value after those costs one pass (about 3s operations) that
// moves the least kept value to the front and the greatest to the back. A copy made part
// way serves windows that share their first values: a 2x2 block of outputs feeds the
// square its four windows share once, then a row for each pair and a column for each.
template <class Ops, class V, int kCount>
class ForgetfulMedian {
  static_assert(kCount % 2 == 1 && kCount >= 3, "the median of an odd count of values");

 public:
  // Feeds values[0 .. kN) as values number kFed, kFed + 1, ... of the kCount.
  template <int kFed, int kN, int kI = 0>
  GPUFILTER_HD void feed(const V (&values)[kN]) {
    if constexpr (kI < kN) {
      feed_one<kFed + kI>(values[kI]);
      feed<kFed, kN, kI + 1>(values);
    }
  }

  // Once all kCount values are fed.
  GPUFILTER_HD V median() const { return median3<Ops>(kept_[0], kept_[1], kept_[2]); }

 private:
  static constexpr int kHeld = (kCount + 3) / 2;  // the median's rank + 1

  template <int kFed>
  GPUFILTER_HD void feed_one(V value) {
    static_assert(kFed < kCount, "more values than the window holds");
    if constexpr (kFed < kHeld) {
      kept_[kFed] = value;
    } else {
      constexpr int kSize = kCount - kFed + 3;  // kept before this value: those still to come + 3
      drop_extremes<kSize>();
      kept_[0] = value;  // over the least; the greatest is left beyond the kSize - 1 kept
    }
  }

  // The least of kept_[0 .. kSize) to kept_[0], the greatest to kept_[kSize - 1].
  template <int kSize>
  GPUFILTER_HD void drop_extremes() {
    // Pairs from the outside in: the lesser of each pair in the first half.
    GPUFILTER_UNROLL
    for (int i = 0; i < kSize / 2; ++i) order<Ops>(kept_[i], kept_[kSize - 1 - i]);
    // The least is in the first half or the middle (odd sizes) ...
    GPUFILTER_UNROLL
    for (int i = 1; i < (kSize + 1) / 2; ++i) order<Ops>(kept_[0], kept_[i]);
    // ... the greatest in the second half or the middle.
    GPUFILTER_UNROLL
    for (int i = kSize / 2; i < kSize - 1; ++i) order<Ops>(kept_[i], kept_[kSize - 1]);
  }

  V kept_[kHeld];
};

}  // namespace gpufilter::kernels
