#include "execute.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <utility>

#include "exit_codes.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::cli {
namespace {

class CudaEvent {
 public:
  CudaEvent() { GPUFILTER_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  void record(cudaStream_t stream) { GPUFILTER_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  float ms_since(const CudaEvent& start) const {
    float ms = 0.0f;
    GPUFILTER_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

DeviceImage device_image_for(const ImageView& like) {
  try {
    return DeviceImage(like.width, like.height, like.format);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::OutOfMemory) throw;
    throw CliError(ExitCode::Runtime, "the " + std::to_string(like.width) + "x" + std::to_string(like.height) +
                                          " " + like.format.name() +
                                          " image does not fit in GPU memory (" + error.what() + ")");
  }
}

void execute_on_gpu(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times,
                    GpuWarmup& warmup) {
  // The context, which can cost more than the filter itself, was started beside decoding;
  // "wait" is what is left of it once the image is decoded.
  warmup.wait();
  times.add_beside("cuda start", warmup.took_ms(), "decode");
  times.add("wait", warmup.waited_ms());
  Stopwatch setup;
  Stream stream;
  DeviceImage device_src = device_image_for(src);
  DeviceImage device_dst = device_image_for(src);
  CudaEvent start;
  CudaEvent uploaded;
  CudaEvent computed;
  CudaEvent downloaded;
  times.add("setup", setup.elapsed_ms());

  // Straight from the decoded image and into the result, with no pinned staging copies:
  // those would hold two more host copies of the image, and the driver moves pageable
  // memory through small pinned buffers of its own.
  ExecContext context;
  context.stream = stream.get();
  start.record(stream.get());
  copy_image_async(src, device_src.view(), stream.get());
  uploaded.record(stream.get());
  request.op->run_gpu(device_src.view(), device_dst.view(), request.params, request.border, request.variant,
                      context);
  computed.record(stream.get());
  copy_image_async(device_dst.view(), dst, stream.get());
  downloaded.record(stream.get());
  stream.synchronize();

  times.add("upload", uploaded.ms_since(start));
  times.add("kernel", computed.ms_since(uploaded));
  times.add("download", downloaded.ms_since(computed));
}

}  // namespace

const char* to_string(Device device) { return device == Device::Gpu ? "gpu" : "cpu"; }

DeviceSelection select_device(DeviceChoice choice) {
  if (choice == DeviceChoice::Cpu) return {Device::Cpu, ""};
  if (has_device()) return {Device::Gpu, ""};
  if (choice == DeviceChoice::Gpu) {
    throw CliError(ExitCode::Runtime, "--device gpu, but there is no usable GPU (" + no_device_reason() + ")");
  }
  return {Device::Cpu, "gpufilter: no usable GPU (" + no_device_reason() + "); running on the CPU reference"};
}

void execute(const RunRequest& request, Device device, const ImageView& src, const ImageView& dst,
             StageTimes& times, GpuWarmup* warmup) {
  if (device == Device::Gpu) {
    if (warmup == nullptr) throw std::logic_error("the GPU path needs the context started beside decoding");
    execute_on_gpu(request, src, dst, times, *warmup);
    return;
  }
  Stopwatch watch;
  request.op->run_reference(src, dst, request.params, request.border);
  times.add("compute", watch.elapsed_ms());
}

}  // namespace gpufilter::cli
