#include "gpufilter/error.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace gpufilter {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::UnsupportedFormat: return "unsupported format";
    case ErrorCode::NoDevice: return "no device";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::Cuda: return "CUDA error";
  }
  return "unknown error";
}

void check_cuda(int code_value, const char* what, const char* file, int line) {
  const auto status = static_cast<cudaError_t>(code_value);
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear the sticky-free error so later calls are not blamed for it
  const ErrorCode code = status == cudaErrorMemoryAllocation ? ErrorCode::OutOfMemory
                         : (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
                             ? ErrorCode::NoDevice
                             : ErrorCode::Cuda;
  throw Error(code,
              std::string(cudaGetErrorString(status)) + " (" + cudaGetErrorName(status) + ") in " +
                  what + " at " + file + ":" + std::to_string(line),
              status);
}

}  // namespace gpufilter
