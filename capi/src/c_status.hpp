#pragma once
// The C boundary: every exported function runs its body through guarded(), which turns
// the library's exceptions into a gpufilter_status and keeps the message for
// gpufilter_last_error() on the calling thread. No exception crosses into C.
#include <string>

#include "gpufilter_c.h"

namespace gpufilter::capi {

// Throws Error(InvalidArgument) with `message`: what a caller passed cannot be used.
[[noreturn]] void invalid(const std::string& message);

// The calling thread's last message.
std::string& last_error();
// Records `message` and returns `status`.
gpufilter_status fail(gpufilter_status status, const std::string& message);
// The status and message of the exception being handled (call inside a catch block).
gpufilter_status fail_with_current_exception();

template <class Body>
gpufilter_status guarded(Body&& body) noexcept {
  try {
    body();
    return GPUFILTER_OK;
  } catch (...) {
    return fail_with_current_exception();
  }
}

}  // namespace gpufilter::capi
