#include "codecs/repeat_probe.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace gpufilter::io {
namespace {

constexpr std::size_t kWindow = std::size_t{1} << 15;  // deflate's window
constexpr int kHashBits = 13;                          // 8 K entries, 32 KiB: fits L1
// A repeat counts from this length: smooth photos, filtered, repeat 8 bytes by chance
// often, 32 rarely; repeated content gives matches of hundreds.
constexpr std::size_t kMatch = 32;

std::uint64_t load8(const std::uint8_t* bytes) {
  std::uint64_t value = 0;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

}  // namespace

double distant_repeat_share(const std::uint8_t* data, std::size_t size, std::size_t sample) {
  const std::size_t end = std::min(size, sample);
  if (end < 16) return 0;
  // Last position + 1 of each hashed 8-byte string (0: none): the newest wins, as in zlib.
  std::vector<std::uint32_t> last(std::size_t{1} << kHashBits, 0);
  std::size_t repeats = 0;
  const std::size_t positions = end - 7;
  for (std::size_t i = 0; i < positions; ++i) {
    const std::uint64_t word = load8(data + i);
    const auto hash = static_cast<std::size_t>((word * 0x9E3779B97F4A7C15ull) >> (64 - kHashBits));
    const std::uint32_t seen = last[hash];
    last[hash] = static_cast<std::uint32_t>(i + 1);
    if (seen == 0 || i + 1 - seen > kWindow || i + kMatch > end) continue;
    const bool run = word == 0x0101010101010101ull * (word & 0xff);
    if (!run && std::memcmp(data + seen - 1, data + i, kMatch) == 0) ++repeats;
  }
  return static_cast<double>(repeats) / static_cast<double>(positions);
}

}  // namespace gpufilter::io
