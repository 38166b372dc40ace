// The library's version, the last error, the machine's GPUs, and device memory for
// callers that have no array library of their own.
#include <cuda_runtime_api.h>

#include <string>

#include "c_status.hpp"
#include "device_scope.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/version.hpp"
#include "request.hpp"

using namespace gpufilter;

extern "C" int gpufilter_abi_version(void) { return GPUFILTER_C_ABI_VERSION; }

extern "C" const char* gpufilter_version(void) { return kVersion; }

extern "C" const char* gpufilter_last_error(void) { return capi::last_error().c_str(); }

extern "C" int gpufilter_device_count(void) { return device_count(); }

extern "C" const char* gpufilter_no_device_reason(void) {
  thread_local std::string text;
  text = no_device_reason();
  return text.c_str();
}

extern "C" const char* gpufilter_device_description(void) {
  thread_local std::string text;
  text = device_description();
  return text.c_str();
}

extern "C" gpufilter_status gpufilter_device_alloc(size_t bytes, int device, void** data) {
  return capi::guarded([&] {
    if (data == nullptr) throw Error(ErrorCode::InvalidArgument, "data is NULL");
    *data = nullptr;
    if (bytes == 0) return;
    const capi::DeviceScope scope(device);
    GPUFILTER_CUDA_CHECK(cudaMalloc(data, bytes));
  });
}

extern "C" void gpufilter_device_free(void* data) {
  if (data != nullptr) cudaFree(data);
}

extern "C" gpufilter_status gpufilter_copy(const gpufilter_image* src, const gpufilter_image* dst, int device,
                                           void* stream, int wait) {
  return capi::guarded([&] {
    if (src == nullptr || dst == nullptr) throw Error(ErrorCode::InvalidArgument, "src or dst is NULL");
    const capi::DeviceScope scope(device);
    const auto on = static_cast<StreamHandle>(stream);
    copy_image_async(capi::to_view(*src), capi::to_view(*dst), on);
    if (wait != 0) GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(on));
  });
}

extern "C" gpufilter_status gpufilter_stream_synchronize(void* stream) {
  return capi::guarded([&] { GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(static_cast<StreamHandle>(stream))); });
}

extern "C" gpufilter_status gpufilter_pointer_info(const void* pointer, int* device, int* memory) {
  return capi::guarded([&] {
    if (device == nullptr || memory == nullptr) throw Error(ErrorCode::InvalidArgument, "device or memory is NULL");
    *device = -1;
    *memory = 0;
    if (pointer == nullptr || !has_device()) return;
    cudaPointerAttributes attributes{};
    GPUFILTER_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
    switch (attributes.type) {
      case cudaMemoryTypeDevice: *memory = 1; break;
      case cudaMemoryTypeManaged: *memory = 2; break;
      case cudaMemoryTypeHost: *memory = 3; break;
      default: return;
    }
    *device = attributes.device;
  });
}
