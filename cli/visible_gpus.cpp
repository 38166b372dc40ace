#include "visible_gpus.hpp"

#include <cstdlib>

namespace gpufilter::cli {
namespace {

bool g_set_here = false;

}  // namespace

void see_only_the_gpu_it_uses(const io::RunRequest& request) {
  if (request.batch || request.device == io::DeviceChoice::Cpu || !request.devices.empty() || request.all_devices)
    return;
  if (std::getenv("CUDA_VISIBLE_DEVICES") != nullptr) return;
  g_set_here = ::setenv("CUDA_VISIBLE_DEVICES", "0", 0) == 0;
}

void restore_visible_gpus() {
  if (g_set_here) ::unsetenv("CUDA_VISIBLE_DEVICES");
  g_set_here = false;
}

}  // namespace gpufilter::cli
