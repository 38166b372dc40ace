#include "visible_gpus.hpp"

#include <cstdlib>

namespace gpufilter::cli {

void see_only_the_gpu_it_uses(const io::RunRequest& request) {
  if (request.batch || request.device == io::DeviceChoice::Cpu || !request.devices.empty() || request.all_devices)
    return;
  if (std::getenv("CUDA_VISIBLE_DEVICES") != nullptr) return;
  ::setenv("CUDA_VISIBLE_DEVICES", "0", 0);
}

}  // namespace gpufilter::cli
