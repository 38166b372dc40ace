#include "resident_gpus.hpp"

#include <cuda_runtime_api.h>

#include "gpu_jpeg.hpp"

namespace gpufilter::cli {
namespace {

std::unique_ptr<ResidentGpus> g_resident;

// The engine a batch's decoder owns: the resident one, which stays when the batch ends.
class LentEngine final : public JpegBatchEngine {
 public:
  explicit LentEngine(JpegBatchEngine& engine) : engine_(engine) {}
  bool accepts(const JpegBytes& file, const ImageView& into) override { return engine_.accepts(file, into); }
  bool decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) override {
    return engine_.decode(files, into);
  }

 private:
  JpegBatchEngine& engine_;
};

}  // namespace

ResidentGpus& ResidentGpus::activate(int device) {
  if (!g_resident) g_resident = std::make_unique<ResidentGpus>();
  g_resident->warmup(device);
  return *g_resident;
}

ResidentGpus* ResidentGpus::active() { return g_resident.get(); }

GpuWarmup& ResidentGpus::warmup(int device) {
  Device& d = devices_[device];
  if (!d.warmup) d.warmup = std::make_unique<GpuWarmup>(device, gpu_jpeg_built());
  return *d.warmup;
}

GpuWorkspace& ResidentGpus::workspace(int device) {
  Device& d = devices_[device];
  if (!d.workspace) d.workspace = std::make_unique<GpuWorkspace>(device);
  return *d.workspace;
}

void ResidentGpus::prepare(int device) noexcept {
  try {
    GpuWarmup& w = warmup(device);
    w.wait();
    if (!w.usable()) return;
    workspace(device).prepare_jpeg_codec();
    lend_jpeg_engine(device);  // a batch's engine, about 0.65 s on an H100
  } catch (...) {
    // The request that needs the device reports it.
  }
}

std::unique_ptr<JpegBatchEngine> ResidentGpus::lend_jpeg_engine(int device) {
  const std::lock_guard<std::mutex> lock(engines_mutex_);
  auto found = engines_.find(device);
  if (found == engines_.end()) found = engines_.emplace(device, make_hardware_jpeg_engine(device)).first;
  if (!found->second) return nullptr;
  return std::make_unique<LentEngine>(*found->second);
}

bool ResidentGpus::healthy() {
  for (auto& [device, d] : devices_) {
    if (!d.workspace) continue;  // no context of ours to check
    if (cudaSetDevice(device) != cudaSuccess) return false;
    // A sticky error (an illegal address, say) is returned by every later call.
    if (cudaDeviceSynchronize() != cudaSuccess) return false;
  }
  return true;
}

}  // namespace gpufilter::cli
