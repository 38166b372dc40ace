#pragma once
// The factors of the strip's tensor-core form (separable_strip_imma.cuh) as the integers
// its products take, built on the host. Plain C++: the CPU tests check it.
//   q[j]  = the factor's taps with 16 fraction bits, summing to exactly 2^16, each below
//           2^16 (a high and a low byte, one product each)
//   A     = the banded 16 x 32C matrix of a step, A[m][k] = q[k - m] for 0 <= k - m <= 2R:
//           output row m of 16 from window row k (input row y0 - R + k); a window of C
//           chunks of 32 rows (a product's K each), as many as 16 + 2R rows need
#include <cstdint>
#include <vector>

namespace gpufilter::kernels {

constexpr int kImmaWeightBits = 16;
constexpr int kImmaChunkRows = 32;  // the product's K
constexpr int kImmaStepRows = 16;   // its M

// The chunks of 32 window rows that a step's 16 outputs and their halo of R rows either
// side take.
constexpr int imma_chunks(int radius) { return (kImmaStepRows + 2 * radius + kImmaChunkRows - 1) / kImmaChunkRows; }

// The integer taps of a factor (the vertical; with both passes on the tensor cores the
// horizontal too), each within one unit of its value, summing to exactly 2^16 so that a
// flat image stays flat; empty where a tap is negative, the factor does not sum to 1
// (within 1e-4), or a tap would reach 2^16. (The horizontal pass's matrix is the same
// banded A, with output column m and window column k in place of rows.)
std::vector<std::uint32_t> imma_integer_taps(const std::vector<float>& y);

// The lanes' A fragments of mma.m16n8k32 (u8, row-major A) for chunk `chunk` of the window
// (its columns k = 32 chunk .. 32 chunk + 31) for taps q centred in a window of radius R
// (q.size() <= 2R + 1): fragments[h][r][lane], h = 0 the high bytes, 1 the low; lane
// (g, t) = (lane / 4, lane % 4) holds in register r row g + 8 (r % 2) and the chunk's
// columns 16 (r / 2) + 4t .. + 3, column c in byte c % 4.
using ImmaFragments = std::uint32_t[2][4][32];
void imma_fragments(const std::vector<std::uint32_t>& q, int radius, int chunk, ImmaFragments& fragments);

// The tap that fragment byte (h, row, column of the chunk) holds: (q >> 8) or (q & 255) of
// q[k - m], or 0.
std::uint32_t imma_fragment_byte(const ImmaFragments& fragments, int h, int row, int column);

}  // namespace gpufilter::kernels
