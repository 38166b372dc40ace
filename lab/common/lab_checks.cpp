#include "lab/common/lab_checks.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter::lab {
namespace {

bool in_device_memory(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

}  // namespace

void check_device_views(const char* op, const ImageView& src, const ImageView& dst) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (!in_device_memory(src.data) || !in_device_memory(dst.data))
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": the lab runs on device memory only");
}

void check_device_source(const char* op, const ImageView& src) {
  validate_view(src, "source");
  if (!in_device_memory(src.data))
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": the lab runs on device memory only");
}

void check_same_shape(const char* op, const ImageView& src, const ImageView& dst) {
  validate_pair(src, dst, op);
  check_device_views(op, src, dst);
}

Border representable(const Border& border, PixelFormat format) {
  Border result = border;
  if (format.type == ChannelType::F32) return result;
  for (double& v : result.value) v = std::fmin(std::fmax(std::nearbyint(v), 0.0), format.max_value());
  return result;
}

}  // namespace gpufilter::lab
