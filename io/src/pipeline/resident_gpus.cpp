#include "gpufilter/io/resident_gpus.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/device.hpp"

namespace gpufilter::io {
namespace {

std::unique_ptr<ResidentGpus> g_resident;

// The engine a decoder owns: the resident one, which stays when the decoder ends. The
// decoder's thread is not the one that made the engine, so each call sets its device.
class LentEngine final : public JpegBatchEngine {
 public:
  LentEngine(JpegBatchEngine& engine, int device) : engine_(engine), device_(device) {}
  bool accepts(const JpegBytes& file, const ImageView& into) override {
    return cudaSetDevice(device_) == cudaSuccess && engine_.accepts(file, into);
  }
  bool decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) override {
    return cudaSetDevice(device_) == cudaSuccess && engine_.decode(files, into);
  }

 private:
  JpegBatchEngine& engine_;
  int device_;
};

}  // namespace

ResidentGpus& ResidentGpus::activate() {
  if (!g_resident) g_resident = std::make_unique<ResidentGpus>();
  ResidentGpus& resident = *g_resident;
  const int count = std::max(1, device_count());  // device 0 says why there is none
  // Every device's entry made here, so the threads below never insert into the map.
  for (int device = 0; device < count; ++device) resident.warmup(device);
  std::vector<std::thread> threads;
  for (int device = 1; device < count; ++device) threads.emplace_back([&resident, device] { resident.prepare(device); });
  resident.prepare(0);
  for (std::thread& thread : threads) thread.join();
  return resident;
}

ResidentGpus* ResidentGpus::active() { return g_resident.get(); }

GpuWarmup& ResidentGpus::warmup(int device) {
  Device& d = devices_[device];
  if (!d.warmup) d.warmup = std::make_unique<GpuWarmup>(device, gpu_jpeg_built());
  return *d.warmup;
}

GpuWorkspace& ResidentGpus::workspace(int device) {
  Device& d = devices_[device];
  if (!d.workspace) {
    // A single JPEG file goes to the hardware engine too, alone in its call: a 24 MP photo
    // decodes there in a tenth of the default decoder's time, which runs its Huffman
    // decoding on one CPU core. GPUFILTER_JPEG_BATCH=0 keeps the default decoder.
    JpegBatchTuning one_file = jpeg_batch_tuning();
    one_file.max_batch = std::min(one_file.max_batch, 1);
    one_file.max_wait_ms = 0.0;
    d.single_file_decoder = std::make_unique<JpegBatchDecoder>([this, device] { return lend_jpeg_engine(device); },
                                                               one_file, "GPU " + std::to_string(device));
    d.workspace = std::make_unique<GpuWorkspace>(device, d.single_file_decoder.get());
  }
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

std::unique_ptr<GpuWorkspace> ResidentGpus::take_workspace(int device, JpegBatchDecoder* batch_decoder) {
  std::unique_ptr<GpuWorkspace> workspace;
  {
    const std::lock_guard<std::mutex> lock(spares_mutex_);
    std::vector<std::unique_ptr<GpuWorkspace>>& spares = spares_[device];
    if (!spares.empty()) {
      workspace = std::move(spares.back());
      spares.pop_back();
    }
  }
  if (!workspace) return std::make_unique<GpuWorkspace>(device, batch_decoder);
  workspace->set_batch_decoder(batch_decoder);
  return workspace;
}

void ResidentGpus::give_back_workspace(std::unique_ptr<GpuWorkspace> workspace) {
  if (!workspace) return;
  workspace->set_batch_decoder(nullptr);  // the batch's decoder ends with it
  workspace->release_images();
  const std::lock_guard<std::mutex> lock(spares_mutex_);
  spares_[workspace->device()].push_back(std::move(workspace));
}

std::unique_ptr<JpegBatchEngine> ResidentGpus::lend_jpeg_engine(int device) {
  const std::lock_guard<std::mutex> lock(engines_mutex_);
  auto found = engines_.find(device);
  if (found == engines_.end()) found = engines_.emplace(device, make_hardware_jpeg_engine(device)).first;
  if (!found->second) return nullptr;
  return std::make_unique<LentEngine>(*found->second, device);
}

bool ResidentGpus::healthy() {
  std::vector<int> used;
  for (const auto& [device, d] : devices_)
    if (d.workspace) used.push_back(device);
  {
    const std::lock_guard<std::mutex> lock(spares_mutex_);
    for (const auto& [device, spares] : spares_)
      if (!spares.empty()) used.push_back(device);
  }
  for (const int device : used) {  // devices with no context of ours are not asked
    if (cudaSetDevice(device) != cudaSuccess) return false;
    // A sticky error (an illegal address, say) is returned by every later call.
    if (cudaDeviceSynchronize() != cudaSuccess) return false;
  }
  return true;
}

}  // namespace gpufilter::io
