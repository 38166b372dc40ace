#include "workspace.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <memory>

#include "device_scope.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::capi {

void Workspace::fit(DeviceImage& image, const ImageShape& shape) {
  if (image.width() == shape.width && image.height() == shape.height && image.format() == shape.format) return;
  image = DeviceImage();  // the old one goes before the new one comes
  image = DeviceImage(shape.width, shape.height, shape.format);
}

void Workspace::fit_data(std::size_t count) {
  if (data.size() >= count && count > 0) return;
  data = DeviceData();
  data = DeviceData(count);
}

Workspace& thread_workspace() {
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  thread_local std::map<int, std::unique_ptr<Workspace>> spaces;
  std::unique_ptr<Workspace>& space = spaces[device];
  if (!space) space = std::make_unique<Workspace>();
  return *space;
}

DeviceScope::DeviceScope(int device) {
  if (device < 0) return;
  int current = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&current));
  if (current == device) return;
  GPUFILTER_CUDA_CHECK(cudaSetDevice(device));
  previous_ = current;
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

}  // namespace gpufilter::capi
