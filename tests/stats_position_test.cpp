// position_xy (kernels/reduction/stats_position.hpp), which the stats kernels' last
// block uses to split a position into its column and row, against 64-bit division on
// either side of 2^32 pixels.
#include <gtest/gtest.h>

#include <initializer_list>

#include "kernels/reduction/stats_position.hpp"

namespace gpufilter::stats_position_test {
namespace {

TEST(StatsPosition, SplitsLikeSixtyFourBitDivision) {
  for (unsigned width : {1u, 3u, 7680u, 65535u, 4000000u}) {
    for (unsigned long long n : {1ULL, 33177600ULL, 0xffffffffULL, 0x100000000ULL, 0x3000000000ULL}) {
      for (unsigned long long p : {0ULL, 1ULL, n / 2, n - 1, n > 7680 ? n - 7681 : 0ULL}) {
        if (p >= n) continue;
        const kernels::PixelXY at = kernels::position_xy(p, width, n);
        EXPECT_EQ(at.x, p % width) << "p " << p << " width " << width << " n " << n;
        EXPECT_EQ(at.y, p / width) << "p " << p << " width " << width << " n " << n;
      }
    }
  }
}

}  // namespace
}  // namespace gpufilter::stats_position_test
