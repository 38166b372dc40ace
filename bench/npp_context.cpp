#include "npp_context.hpp"

#include <map>
#include <mutex>

#include "gpufilter/error.hpp"

namespace bench {

NppStreamContext npp_context(cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<cudaStream_t, NppStreamContext> contexts;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto found = contexts.find(stream); found != contexts.end()) return found->second;
  NppStreamContext ctx{};
  ctx.hStream = stream;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&ctx.nCudaDeviceId));
  cudaDeviceProp prop{};
  GPUFILTER_CUDA_CHECK(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId));
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  GPUFILTER_CUDA_CHECK(cudaStreamGetFlags(stream, &ctx.nStreamFlags));
  contexts.emplace(stream, ctx);
  return ctx;
}

}  // namespace bench
