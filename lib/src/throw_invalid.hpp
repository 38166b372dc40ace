#pragma once
// How the library rejects a caller's argument: an Error with ErrorCode::InvalidArgument,
// whose message names the op and the value.
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter {

[[noreturn]] inline void throw_invalid(const std::string& message) {
  throw Error(ErrorCode::InvalidArgument, message);
}

}  // namespace gpufilter
