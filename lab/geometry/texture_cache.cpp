// The texture-object cache (texture_cache.hpp).
#include "lab/geometry/texture_cache.hpp"

#include <cstdint>
#include <mutex>
#include <vector>

#include "gpufilter/error.hpp"

namespace gpufilter::lab {
namespace {

struct TextureKey {
  int device;
  void* data;
  std::size_t width, height, pitch;
  cudaChannelFormatDesc format;
  bool normalised_read;

  bool operator==(const TextureKey& o) const {
    return device == o.device && normalised_read == o.normalised_read && data == o.data && width == o.width &&
           height == o.height && pitch == o.pitch &&
           format.x == o.format.x && format.y == o.format.y && format.z == o.format.z && format.w == o.format.w &&
           format.f == o.format.f;
  }
};

struct CachedTexture {
  TextureKey key;
  cudaTextureObject_t texture;
  cudaEvent_t last_use;
  std::uint64_t stamp;
};

class TextureCache {
 public:
  void run(const cudaResourceDesc& resource, bool normalised_read, cudaStream_t stream,
           const std::function<void(cudaTextureObject_t)>& launch) {
    std::lock_guard<std::mutex> lock(mutex_);
    CachedTexture& entry = find_or_create(resource, normalised_read);
    entry.stamp = ++clock_;
    launch(entry.texture);
    GPUFILTER_CUDA_CHECK(cudaEventRecord(entry.last_use, stream));
  }

 private:
  CachedTexture& find_or_create(const cudaResourceDesc& resource, bool normalised_read) {
    int device = 0;
    GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
    const TextureKey key{device,
                         resource.res.pitch2D.devPtr,
                         resource.res.pitch2D.width,
                         resource.res.pitch2D.height,
                         resource.res.pitch2D.pitchInBytes,
                         resource.res.pitch2D.desc,
                         normalised_read};
    for (CachedTexture& e : entries_)
      if (e.key == key) return e;
    if (static_cast<int>(entries_.size()) >= kTextureCacheSize) evict_oldest();
    cudaTextureDesc description{};
    description.addressMode[0] = cudaAddressModeBorder;
    description.addressMode[1] = cudaAddressModeBorder;
    description.filterMode = cudaFilterModePoint;
    description.readMode = normalised_read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    description.normalizedCoords = 0;
    CachedTexture e{key, 0, nullptr, 0};
    GPUFILTER_CUDA_CHECK(cudaCreateTextureObject(&e.texture, &resource, &description, nullptr));
    const cudaError_t made = cudaEventCreateWithFlags(&e.last_use, cudaEventDisableTiming);
    if (made != cudaSuccess) {
      cudaDestroyTextureObject(e.texture);
      GPUFILTER_CUDA_CHECK(made);
    }
    entries_.reserve(kTextureCacheSize);
    entries_.push_back(e);
    return entries_.back();
  }

  // The least recently used object goes once its last launch has finished. The
  // current device is left as it was; the event and object belong to theirs.
  void evict_oldest() {
    std::size_t oldest = 0;
    for (std::size_t i = 1; i < entries_.size(); ++i)
      if (entries_[i].stamp < entries_[oldest].stamp) oldest = i;
    CachedTexture e = entries_[oldest];
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(oldest));
    GPUFILTER_CUDA_CHECK(cudaEventSynchronize(e.last_use));
    GPUFILTER_CUDA_CHECK(cudaDestroyTextureObject(e.texture));
    GPUFILTER_CUDA_CHECK(cudaEventDestroy(e.last_use));
  }

  std::mutex mutex_;
  std::vector<CachedTexture> entries_;  // at most kTextureCacheSize
  std::uint64_t clock_ = 0;
};

}  // namespace

void with_texture(const cudaResourceDesc& resource, bool normalised_read, cudaStream_t stream,
                  const std::function<void(cudaTextureObject_t)>& launch) {
  // Never destroyed: at exit the CUDA context may already be gone.
  static TextureCache* cache = new TextureCache;
  cache->run(resource, normalised_read, stream, launch);
}

}  // namespace gpufilter::lab
