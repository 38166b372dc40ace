// The median filter's selection networks (kernels/rank/median_select.hpp) on the CPU.
// A network of min/max operations selects the median of every input when it does so for
// every input of 0s and 1s; BitOps runs 64 such inputs at once as the bits of a word, so
// the 3x3 column (18 inputs) and the 5x5 window (25) are checked on all of theirs. The 7x7
// window's 2^49 are too many: it gets random 0/1 inputs with 24 or 25 ones (the only ones
// where the median is one value flip from the other answer) and random values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "rank/median_select.hpp"

namespace gpufilter::kernels::median_select_test {
namespace {

using Bits = std::uint64_t;

// Input number (base + lane) as bits, base a multiple of 64: bit i of the input is value
// i, and lane j of the word returned for value i is bit i of input base + j.
Bits value_bits(std::uint64_t base, int i) {
  constexpr Bits kLaneBits[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
                                 0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
  if (i < 6) return kLaneBits[i];
  return ((base >> i) & 1u) != 0 ? ~Bits{0} : Bits{0};
}

// For each lane of inputs base + lane: 1 where most of the values at the bits of `mask` are 1.
Bits majority_of_inputs(std::uint64_t base, std::uint64_t mask) {
  const int count = __builtin_popcountll(mask);
  Bits result = 0;
  for (int lane = 0; lane < 64; ++lane)
    result |= static_cast<Bits>(__builtin_popcountll((base + static_cast<std::uint64_t>(lane)) & mask) > count / 2)
              << lane;
  return result;
}

// The median of 0/1 values for each of the 64 lanes: 1 where most of the values are 1.
Bits majority(const Bits* values, int count) {
  Bits result = 0;
  for (int lane = 0; lane < 64; ++lane) {
    int ones = 0;
    for (int i = 0; i < count; ++i) ones += static_cast<int>((values[i] >> lane) & 1u);
    result |= static_cast<Bits>(ones > count / 2) << lane;
  }
  return result;
}

TEST(MedianSelect, Column3x3OnEveryBinaryInput) {
  constexpr int kOutputs = 4, kValues = (kOutputs + 2) * 3;
  for (std::uint64_t base = 0; base < (1u << kValues); base += 64) {
    Bits rows[kOutputs + 2][3], out[kOutputs];
    for (int k = 0; k < kOutputs + 2; ++k)
      for (int i = 0; i < 3; ++i) rows[k][i] = value_bits(base, k * 3 + i);
    median3x3_column<BitOps, kOutputs>(rows, out);
    for (int j = 0; j < kOutputs; ++j)
      ASSERT_EQ(out[j], majority_of_inputs(base, std::uint64_t{0x1FF} << (3 * j))) << "output " << j << ", inputs from "
                                                                                  << base;
  }
}

TEST(MedianSelect, Column3x3OnRandomValues) {
  constexpr int kOutputs = 8;
  std::mt19937 random(3);
  std::uniform_int_distribution<unsigned> level(0, 6);  // few levels: many ties
  for (int trial = 0; trial < 20000; ++trial) {
    unsigned rows[kOutputs + 2][3], out[kOutputs];
    for (auto& row : rows)
      for (unsigned& v : row) v = trial % 2 == 0 ? level(random) : random();
    median3x3_column<ScalarOps, kOutputs>(rows, out);
    for (int j = 0; j < kOutputs; ++j) {
      std::vector<unsigned> window;
      for (int k = j; k < j + 3; ++k) window.insert(window.end(), rows[k], rows[k] + 3);
      std::nth_element(window.begin(), window.begin() + 4, window.end());
      ASSERT_EQ(out[j], window[4]) << "trial " << trial << ", output " << j;
    }
  }
}

// The kernels' use: a pair of windows sharing all rows but one, the shared rows fed once.
template <class Ops, class V, int kSide>
void pair_medians(const V (&shared)[(kSide - 1) * kSide], const V (&upper_row)[kSide], const V (&lower_row)[kSide],
                  V& upper_median, V& lower_median) {
  ForgetfulMedian<Ops, V, kSide * kSide> lower;
  lower.template feed<0>(shared);
  ForgetfulMedian<Ops, V, kSide * kSide> upper = lower;
  upper.template feed<(kSide - 1) * kSide>(upper_row);
  lower.template feed<(kSide - 1) * kSide>(lower_row);
  upper_median = upper.median();
  lower_median = lower.median();
}

TEST(MedianSelect, Forgetful3x3And5x5OnEveryBinaryInput) {
  // 3x3: a pair's 12 values; 5x5: one window's 25 (the pair's upper and lower rows alike).
  for (std::uint64_t base = 0; base < (1u << 12); base += 64) {
    Bits shared[6], upper_row[3], lower_row[3], upper = 0, lower = 0;
    for (int i = 0; i < 6; ++i) shared[i] = value_bits(base, i);
    for (int i = 0; i < 3; ++i) {
      upper_row[i] = value_bits(base, 6 + i);
      lower_row[i] = value_bits(base, 9 + i);
    }
    pair_medians<BitOps, Bits, 3>(shared, upper_row, lower_row, upper, lower);
    ASSERT_EQ(upper, majority_of_inputs(base, 0x1FF)) << base;  // values 0..8
    ASSERT_EQ(lower, majority_of_inputs(base, 0xE3F)) << base;  // values 0..5 and 9..11
  }
  for (std::uint64_t base = 0; base < (1u << 25); base += 64) {
    Bits shared[20], last_row[5], upper = 0, lower = 0;
    for (int i = 0; i < 20; ++i) shared[i] = value_bits(base, i);
    for (int i = 0; i < 5; ++i) last_row[i] = value_bits(base, 20 + i);
    pair_medians<BitOps, Bits, 5>(shared, last_row, last_row, upper, lower);
    const Bits expected = majority_of_inputs(base, 0x1FFFFFF);
    ASSERT_EQ(upper, expected) << base;
    ASSERT_EQ(lower, expected) << base;
  }
}

TEST(MedianSelect, Forgetful7x7OnBinaryInputsAtTheMedian) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 20000; ++trial) {
    // 64 inputs, each with 24 or 25 ones placed at random.
    Bits values[49] = {};
    for (int lane = 0; lane < 64; ++lane) {
      int positions[49];
      for (int i = 0; i < 49; ++i) positions[i] = i;
      std::shuffle(positions, positions + 49, random);
      const int ones = 24 + static_cast<int>((random() >> 7) & 1u);
      for (int i = 0; i < ones; ++i) values[positions[i]] |= Bits{1} << lane;
    }
    Bits shared[42], upper_row[7], lower_row[7], upper = 0, lower = 0;
    std::copy(values, values + 42, shared);
    std::copy(values + 42, values + 49, upper_row);
    std::copy(values + 42, values + 49, lower_row);
    pair_medians<BitOps, Bits, 7>(shared, upper_row, lower_row, upper, lower);
    const Bits expected = majority(values, 49);
    ASSERT_EQ(upper, expected) << "trial " << trial;
    ASSERT_EQ(lower, expected) << "trial " << trial;
  }
}

template <class Ops, class V, int kSide, class Draw>
void expect_pairs_on_random_values(Draw draw, int trials) {
  constexpr int kShared = (kSide - 1) * kSide;
  for (int trial = 0; trial < trials; ++trial) {
    V shared[kShared], upper_row[kSide], lower_row[kSide], upper{}, lower{};
    for (V& v : shared) v = draw(trial);
    for (int i = 0; i < kSide; ++i) {
      upper_row[i] = draw(trial);
      lower_row[i] = draw(trial);
    }
    pair_medians<Ops, V, kSide>(shared, upper_row, lower_row, upper, lower);
    for (const V* own : {upper_row, lower_row}) {
      std::vector<V> window(shared, shared + kShared);
      window.insert(window.end(), own, own + kSide);
      std::nth_element(window.begin(), window.begin() + kSide * kSide / 2, window.end());
      ASSERT_EQ(own == upper_row ? upper : lower, window[kSide * kSide / 2])
          << kSide << "x" << kSide << " trial " << trial;
    }
  }
}

TEST(MedianSelect, ForgetfulOnRandomValues) {
  std::mt19937 random(11);
  // Few levels (many ties) on even trials, any value on odd ones.
  const auto integer = [&](int trial) { return trial % 2 == 0 ? random() % 5 : random(); };
  const auto real = [&](int trial) {
    return trial % 2 == 0 ? static_cast<float>(random() % 5) : std::uniform_real_distribution<float>(-1, 1)(random);
  };
  expect_pairs_on_random_values<ScalarOps, unsigned, 3>(integer, 5000);
  expect_pairs_on_random_values<ScalarOps, unsigned, 5>(integer, 5000);
  expect_pairs_on_random_values<ScalarOps, unsigned, 7>(integer, 5000);
  expect_pairs_on_random_values<ScalarOps, float, 7>(real, 5000);
}

// Two 16-bit lanes ordered apart: each lane's median is its own channel's.
TEST(MedianSelect, PairLanesAreIndependent) {
  std::mt19937 random(5);
  for (int trial = 0; trial < 5000; ++trial) {
    unsigned shared[42], upper_row[7], lower_row[7], upper = 0, lower = 0;
    unsigned lanes[2][49];
    for (int i = 0; i < 49; ++i) {
      lanes[0][i] = random() & 0xFFFFu;
      lanes[1][i] = trial % 2 == 0 ? random() % 3 : random() & 0xFFFFu;
      const unsigned word = lanes[0][i] | lanes[1][i] << 16;
      if (i < 42) shared[i] = word;
      else upper_row[i - 42] = lower_row[i - 42] = word;
    }
    pair_medians<PairOps, unsigned, 7>(shared, upper_row, lower_row, upper, lower);
    ASSERT_EQ(upper, lower);
    for (int lane = 0; lane < 2; ++lane) {
      std::nth_element(lanes[lane], lanes[lane] + 24, lanes[lane] + 49);
      ASSERT_EQ((upper >> (16 * lane)) & 0xFFFFu, lanes[lane][24]) << "lane " << lane << ", trial " << trial;
    }
  }
}

}  // namespace
}  // namespace gpufilter::kernels::median_select_test
