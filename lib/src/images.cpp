#include "gpufilter/images.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter {
namespace {

std::string describe(int width, int height, PixelFormat format) {
  const double mib = static_cast<double>(width) * height * static_cast<double>(format.pixel_bytes()) /
                     (1024.0 * 1024.0);
  char text[128];
  std::snprintf(text, sizeof text, "%dx%d %s image (%.1f MiB)", width, height, format.name().c_str(), mib);
  return text;
}

void check_size(int width, int height, PixelFormat format) {
  if (width <= 0 || height <= 0)
    throw Error(ErrorCode::InvalidArgument, "cannot allocate an empty " + describe(width, height, format));
}

}  // namespace

DeviceImage::DeviceImage(int width, int height, PixelFormat format) {
  check_size(width, height, format);
  void* data = nullptr;
  std::size_t pitch = 0;
  const cudaError_t status = cudaMallocPitch(&data, &pitch, static_cast<std::size_t>(width) * format.pixel_bytes(),
                                             static_cast<std::size_t>(height));
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    char text[96];
    std::snprintf(text, sizeof text, "; %.1f MiB of %.1f MiB free", static_cast<double>(free_bytes) / 1048576.0,
                  static_cast<double>(total_bytes) / 1048576.0);
    throw Error(ErrorCode::OutOfMemory,
                "not enough GPU memory for a " + describe(width, height, format) + text, status);
  }
  GPUFILTER_CUDA_CHECK(status);
  view_ = ImageView{data, width, height, pitch, format};
}

DeviceImage::~DeviceImage() { release(); }

void DeviceImage::release() noexcept {
  if (view_.data != nullptr) cudaFree(view_.data);
  view_ = ImageView{};
}

DeviceImage::DeviceImage(DeviceImage&& other) noexcept : view_(std::exchange(other.view_, ImageView{})) {}

DeviceImage& DeviceImage::operator=(DeviceImage&& other) noexcept {
  if (this != &other) {
    release();
    view_ = std::exchange(other.view_, ImageView{});
  }
  return *this;
}

HostImage::HostImage(int width, int height, PixelFormat format) {
  check_size(width, height, format);
  const std::size_t pitch = static_cast<std::size_t>(width) * format.pixel_bytes();
  const std::size_t bytes = pitch * static_cast<std::size_t>(height);
  void* data = nullptr;
  if (has_device() && cudaMallocHost(&data, bytes) == cudaSuccess) {
    pinned_ = true;
  } else {
    cudaGetLastError();
    data = std::malloc(bytes);
    if (data == nullptr)
      throw Error(ErrorCode::OutOfMemory, "not enough host memory for a " + describe(width, height, format));
  }
  view_ = ImageView{data, width, height, pitch, format};
}

HostImage::~HostImage() { release(); }

void HostImage::release() noexcept {
  if (view_.data != nullptr) {
    if (pinned_)
      cudaFreeHost(view_.data);
    else
      std::free(view_.data);
  }
  view_ = ImageView{};
  pinned_ = false;
}

HostImage::HostImage(HostImage&& other) noexcept
    : view_(std::exchange(other.view_, ImageView{})), pinned_(std::exchange(other.pinned_, false)) {}

HostImage& HostImage::operator=(HostImage&& other) noexcept {
  if (this != &other) {
    release();
    view_ = std::exchange(other.view_, ImageView{});
    pinned_ = std::exchange(other.pinned_, false);
  }
  return *this;
}

void copy_image_async(const ImageView& src, const ImageView& dst, StreamHandle stream) {
  validate_pair(src, dst, "copy_image_async");
  GPUFILTER_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                         static_cast<std::size_t>(src.height), cudaMemcpyDefault, stream));
}

DeviceData::DeviceData(std::size_t count) : count_(count) {
  if (count == 0) return;
  const cudaError_t status = cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(double));
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    count_ = 0;
    throw Error(ErrorCode::OutOfMemory, "not enough GPU memory for " + std::to_string(count) + " result values", status);
  }
  GPUFILTER_CUDA_CHECK(status);
}

DeviceData::~DeviceData() { release(); }

void DeviceData::release() noexcept {
  if (data_ != nullptr) cudaFree(data_);
  data_ = nullptr;
  count_ = 0;
}

DeviceData::DeviceData(DeviceData&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}

DeviceData& DeviceData::operator=(DeviceData&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    count_ = std::exchange(other.count_, 0);
  }
  return *this;
}

void DeviceData::upload_async(const double* host, StreamHandle stream) const {
  if (count_ == 0) return;
  GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(data_, host, count_ * sizeof(double), cudaMemcpyHostToDevice, stream));
}

void DeviceData::download_async(double* host, StreamHandle stream) const {
  if (count_ == 0) return;
  GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(host, data_, count_ * sizeof(double), cudaMemcpyDeviceToHost, stream));
}

}  // namespace gpufilter
