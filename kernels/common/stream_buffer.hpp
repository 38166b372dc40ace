#pragma once
// Device scratch memory ordered on a stream: allocated from the library's pool
// (scratch_pool.hpp: it keeps its memory across synchronizations) with
// cudaMallocFromPoolAsync and freed with cudaFreeAsync on the same stream however the
// launch that uses it ends, so the host never waits and a failed launch leaks nothing.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/scratch_pool.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

class StreamBuffer {
 public:
  StreamBuffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    GPUFILTER_CUDA_CHECK(cudaMallocFromPoolAsync(&data_, bytes, scratch_pool(), stream));
  }
  ~StreamBuffer() { cudaFreeAsync(data_, stream_); }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  template <class T>
  T* get() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace gpufilter::kernels
