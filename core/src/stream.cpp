#include "gpufilter/stream.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include "gpufilter/error.hpp"

namespace gpufilter {

Stream::Stream() { GPUFILTER_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

Stream::~Stream() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

Stream::Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

void Stream::synchronize() const { GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

bool ExecContext::sync_after_launch_default() {
  static const bool value = [] {
    const char* env = std::getenv("GPUFILTER_SYNC_LAUNCHES");
    return env != nullptr && std::strcmp(env, "0") != 0 && *env != '\0';
  }();
  return value;
}

}  // namespace gpufilter
