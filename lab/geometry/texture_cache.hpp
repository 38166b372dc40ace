#pragma once
// Texture objects over pitched device memory, kept for reuse. A texture object must
// outlive every kernel that reads it (using a destroyed handle is undefined), and a
// library call may not wait for its kernel: so objects are not destroyed after the
// launch but kept, keyed by what they describe, with an event recorded after each
// launch that used them. Only evicting one (beyond kTextureCacheSize views) waits,
// on that object's last launch alone. Repeated calls on the same buffers (a bench, a
// video pipeline) create each object once.
#include <cuda_runtime.h>

#include <functional>

namespace gpufilter::lab {

constexpr int kTextureCacheSize = 8;

// Finds or creates the point-sampled, border-addressed texture object (unnormalised
// coordinates; integer texels read as normalised floats when `normalised_read`) for
// `resource` (a cudaResourceTypePitch2D) on the current device, calls launch(obj)
// (which queues kernels on `stream`), then records that use; serialised by a mutex.
// Errors as gpufilter::Error.
void with_texture(const cudaResourceDesc& resource, bool normalised_read, cudaStream_t stream,
                  const std::function<void(cudaTextureObject_t)>& launch);

}  // namespace gpufilter::lab
