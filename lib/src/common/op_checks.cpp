#include "common/op_checks.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter::ops {
namespace {

bool is_device_pointer(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

void check_alignment(const char* op, const char* role, const ImageView& v) {
  const std::size_t unit = v.format.channels == 4 ? v.format.pixel_bytes() : v.format.channel_bytes();
  if (reinterpret_cast<std::uintptr_t>(v.data) % unit != 0 || v.pitch % unit != 0)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": " + role + " " + v.format.name() +
                                                " image must have its data and pitch aligned to " +
                                                std::to_string(unit) + " bytes");
}

}  // namespace

void check_aligned(const char* op, const char* role, const ImageView& view) { check_alignment(op, role, view); }

void check_pair(const char* op, const ImageView& src, const ImageView& dst) {
  validate_pair(src, dst, op);
  // Kernels index columns in 32-bit integers with room for a halo; heights are unbounded.
  constexpr int kMaxWidth = 1 << 30;
  if (src.width > kMaxWidth)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": images wider than " + std::to_string(kMaxWidth) +
                                                " pixels are not supported, got " + std::to_string(src.width));
  check_alignment(op, "source", src);
  check_alignment(op, "destination", dst);
}

void check_device_source(const char* op, const ImageView& src) {
  validate_view(src, op);
  constexpr int kMaxWidth = 1 << 30;
  if (src.width > kMaxWidth)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": images wider than " + std::to_string(kMaxWidth) +
                                                " pixels are not supported, got " + std::to_string(src.width));
  check_alignment(op, "source", src);
  if (!is_device_pointer(src.data))
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": the source must be in device memory (use DeviceImage)");
}

void check_device_pair(const char* op, const ImageView& src, const ImageView& dst) {
  if (!is_device_pointer(src.data) || !is_device_pointer(dst.data))
    throw Error(ErrorCode::InvalidArgument,
                std::string(op) + ": source and destination must be in device memory (use DeviceImage)");
}

namespace {

// Floor division for a positive divisor, rounding towards minus infinity.
long long floor_div(long long a, long long b) { return a / b - ((a % b != 0) && (a < 0)); }

// Whether row interval [s, s + s_bytes) meets any row of `view` (rows at base + j * pitch,
// each row_bytes long, j in [0, rows)).
bool meets_any_row(long long s, long long s_bytes, long long base, long long pitch, long long row_bytes,
                   long long rows) {
  // Row j meets it when base + j*pitch < s + s_bytes and s < base + j*pitch + row_bytes.
  const long long j_first = std::max(0LL, floor_div(s - row_bytes - base, pitch) + 1);
  const long long j_last = std::min(rows - 1, floor_div(s + s_bytes - 1 - base, pitch));
  return j_first <= j_last;
}

}  // namespace

void check_no_overlap(const char* op, const ImageView& src, const ImageView& dst) {
  const auto address = [](const ImageView& v) { return static_cast<long long>(reinterpret_cast<std::uintptr_t>(v.data)); };
  const auto row_bytes = [](const ImageView& v) { return static_cast<long long>(v.row_bytes()); };
  const auto pitch = [](const ImageView& v) { return static_cast<long long>(v.pitch); };
  const auto end = [&](const ImageView& v) { return address(v) + (v.height - 1LL) * pitch(v) + row_bytes(v); };
  if (!(address(src) < end(dst) && address(dst) < end(src))) return;  // apart altogether
  // The spans interleave (e.g. the left and right halves of one image): compare rows.
  // With equal pitches the rows of dst that can meet a src row are found in closed form.
  bool overlap = false;
  if (src.pitch == dst.pitch) {
    // Row i of src meets row j of dst when -row_bytes(dst) < d + (j - i)*pitch < row_bytes(src).
    const long long d = address(dst) - address(src), p = pitch(src);
    const long long m_first = std::max(-(src.height - 1LL), floor_div(-row_bytes(dst) - d, p) + 1);
    const long long m_last = std::min(dst.height - 1LL, floor_div(row_bytes(src) - 1 - d, p));
    overlap = m_first <= m_last;
  } else {
    for (long long i = 0; i < src.height && !overlap; ++i)
      overlap = meets_any_row(address(src) + i * pitch(src), row_bytes(src), address(dst), pitch(dst), row_bytes(dst),
                              dst.height);
  }
  if (overlap)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": source and destination overlap; it cannot run in place");
}

Border representable_border(const Border& border, PixelFormat format) {
  Border result = border;
  if (format.type == ChannelType::F32) return result;
  for (double& v : result.value) v = std::fmin(std::fmax(std::nearbyint(v), 0.0), format.max_value());
  return result;
}

}  // namespace gpufilter::ops
