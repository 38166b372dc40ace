#pragma once
/// @file
/// Errors: every failure in the library surfaces as gpufilter::Error, carrying a
/// category, a human-readable message and, where CUDA was involved, its error code.
#include <stdexcept>
#include <string>

namespace gpufilter {

/// The category of an Error.
enum class ErrorCode {
  InvalidArgument,    ///< a parameter or view the caller passed is out of range
  UnsupportedFormat,  ///< the op has no kernel for this pixel format / variant
  NoDevice,           ///< a GPU was required but none is usable
  OutOfMemory,        ///< a device or pinned allocation failed
  Cuda,               ///< any other CUDA runtime failure
};

/// "invalid argument", "out of memory", ...; does not throw.
const char* to_string(ErrorCode code);

/// What the library throws: a category, a message (what()) and the CUDA error, if any.
class Error : public std::runtime_error {
 public:
  /// `cuda` is the cudaError_t value (0: cudaSuccess), kept as an int so this header
  /// needs no CUDA header; compare it with the runtime's enumerators as usual.
  Error(ErrorCode code, const std::string& message, int cuda = 0)
      : std::runtime_error(message), code_(code), cuda_(cuda) {}
  /// The category.
  ErrorCode code() const noexcept { return code_; }
  /// The cudaError_t value behind the error; 0 when CUDA was not involved.
  int cuda_error() const noexcept { return cuda_; }

 private:
  ErrorCode code_;
  int cuda_;
};

/// Returns when `status`, a cudaError_t, is cudaSuccess. Otherwise clears the runtime's
/// last error and throws Error(OutOfMemory) for cudaErrorMemoryAllocation, Error(NoDevice)
/// for cudaErrorNoDevice or cudaErrorInsufficientDriver, Error(Cuda) for any other; the
/// message names `what`, `file` and `line`. Does not synchronize.
void check_cuda(int status, const char* what, const char* file, int line);

}  // namespace gpufilter

/// check_cuda() on a CUDA runtime call, naming the call's text, file and line.
#define GPUFILTER_CUDA_CHECK(call) ::gpufilter::check_cuda((call), #call, __FILE__, __LINE__)
