#include "ops/op_checks.hpp"

#include <cuda_runtime_api.h>

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

void check_pair(const char* op, const ImageView& src, const ImageView& dst) {
  validate_pair(src, dst, op);
  check_alignment(op, "source", src);
  check_alignment(op, "destination", dst);
}

void check_device_pair(const char* op, const ImageView& src, const ImageView& dst) {
  if (!is_device_pointer(src.data) || !is_device_pointer(dst.data))
    throw Error(ErrorCode::InvalidArgument,
                std::string(op) + ": source and destination must be in device memory (use DeviceImage)");
}

void check_no_overlap(const char* op, const ImageView& src, const ImageView& dst) {
  const auto begin = [](const ImageView& v) { return reinterpret_cast<std::uintptr_t>(v.data); };
  const auto end = [](const ImageView& v) {
    return reinterpret_cast<std::uintptr_t>(v.data) + (static_cast<std::size_t>(v.height) - 1) * v.pitch + v.row_bytes();
  };
  if (begin(src) < end(dst) && begin(dst) < end(src))
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": source and destination overlap; it cannot run in place");
}

Border representable_border(const Border& border, PixelFormat format) {
  Border result = border;
  if (format.type == ChannelType::F32) return result;
  for (double& v : result.value) v = std::fmin(std::fmax(std::nearbyint(v), 0.0), format.max_value());
  return result;
}

}  // namespace gpufilter::ops
