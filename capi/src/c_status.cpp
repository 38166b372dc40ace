#include "c_status.hpp"

#include <exception>
#include <new>
#include <stdexcept>

#include "gpufilter/error.hpp"
#include "gpufilter/io/io_error.hpp"

namespace gpufilter::capi {

void invalid(const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); }

std::string& last_error() {
  thread_local std::string message;
  return message;
}

gpufilter_status fail(gpufilter_status status, const std::string& message) {
  last_error() = message;
  return status;
}

namespace {

gpufilter_status status_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return GPUFILTER_ERROR_INVALID_ARGUMENT;
    case ErrorCode::UnsupportedFormat: return GPUFILTER_ERROR_UNSUPPORTED_FORMAT;
    case ErrorCode::NoDevice: return GPUFILTER_ERROR_NO_DEVICE;
    case ErrorCode::OutOfMemory: return GPUFILTER_ERROR_OUT_OF_MEMORY;
    case ErrorCode::Cuda: return GPUFILTER_ERROR_CUDA;
  }
  return GPUFILTER_ERROR_INTERNAL;
}

gpufilter_status status_of(io::Fault fault) {
  switch (fault) {
    case io::Fault::Request: return GPUFILTER_ERROR_IO_REQUEST;
    case io::Fault::Input: return GPUFILTER_ERROR_IO_INPUT;
    case io::Fault::Output: return GPUFILTER_ERROR_IO_OUTPUT;
    case io::Fault::Runtime: return GPUFILTER_ERROR_IO_RUNTIME;
  }
  return GPUFILTER_ERROR_INTERNAL;
}

}  // namespace

gpufilter_status fail_with_current_exception() {
  try {
    throw;
  } catch (const Error& error) {
    return fail(status_of(error.code()), error.what());
  } catch (const io::IoError& error) {
    return fail(status_of(error.fault()), error.what());
  } catch (const std::bad_alloc&) {
    return fail(GPUFILTER_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& error) {
    return fail(GPUFILTER_ERROR_INTERNAL, error.what());
  } catch (...) {
    return fail(GPUFILTER_ERROR_INTERNAL, "unknown exception");
  }
}

}  // namespace gpufilter::capi
