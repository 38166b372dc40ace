// parse_jpeg_header on arbitrary bytes, and the file path beside it: read_jpeg_header
// reads the same segments from a file (without the compressed data) and must agree; the
// decision between nvJPEG and OpenCV is taken on whatever the parser found.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/jpeg_file.hpp"

namespace {

using gpufilter::io::JpegHeader;

bool same(const JpegHeader& a, const JpegHeader& b) {
  if (a.components.size() != b.components.size()) return false;
  for (std::size_t i = 0; i < a.components.size(); ++i)
    if (a.components[i].id != b.components[i].id || a.components[i].horizontal != b.components[i].horizontal ||
        a.components[i].vertical != b.components[i].vertical)
      return false;
  return a.coding == b.coding && a.precision == b.precision && a.width == b.width && a.height == b.height &&
         a.jfif == b.jfif && a.adobe_transform == b.adobe_transform && a.orientation == b.orientation;
}

// The bytes as a file that read_jpeg_header can open by name.
std::optional<JpegHeader> read_as_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("jpeg", 0);
  if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  return gpufilter::io::read_jpeg_header("/proc/self/fd/" + std::to_string(fd));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<JpegHeader> header = gpufilter::io::parse_jpeg_header(data, size);
  const std::optional<JpegHeader> from_file = read_as_file(data, size);
  if (header.has_value() != from_file.has_value() || (header && !same(*header, *from_file))) std::abort();
  if (!header) return 0;
  if (header->orientation < 1 || header->orientation > 8) std::abort();
  const gpufilter::io::GpuJpegDecision decision = gpufilter::io::gpu_jpeg_decision(*header);
  if (decision.reason == nullptr) std::abort();
  return 0;
}
