#include "execute.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <utility>
#include <vector>

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

// What the GPU path needs around an op: the context (started beside decoding), a
// stream, the input on the device and the events around each stage.
class GpuRun {
 public:
  GpuRun(const ImageView& src, StageTimes& times, GpuWarmup& warmup) : times_(times) {
    // The context, which can cost more than the filter itself, was started beside
    // decoding; "wait" is what is left of it once the image is decoded.
    warmup.wait();
    times.add_beside("cuda start", warmup.took_ms(), "decode");
    times.add("wait", warmup.waited_ms());
    Stopwatch setup;
    device_src_ = device_image_for(src);
    setup_ms_ = setup.elapsed_ms();
    context_.stream = stream_.get();
    // Straight from the decoded image, with no pinned staging copy: that would hold
    // another host copy of the image, and the driver moves pageable memory through
    // small pinned buffers of its own.
    start_.record(stream_.get());
    copy_image_async(src, device_src_.view(), stream_.get());
    uploaded_.record(stream_.get());
  }

  const ImageView& src() const { return device_src_.view(); }
  const ExecContext& context() const { return context_; }
  StreamHandle stream() const { return stream_.get(); }
  void add_setup_ms(double ms) { setup_ms_ += ms; }
  void computed() { computed_.record(stream_.get()); }

  // Waits for the stream, then records the stages.
  void finish() {
    downloaded_.record(stream_.get());
    stream_.synchronize();
    times_.add("setup", setup_ms_);
    times_.add("upload", uploaded_.ms_since(start_));
    times_.add("kernel", computed_.ms_since(uploaded_));
    times_.add("download", downloaded_.ms_since(computed_));
  }

 private:
  StageTimes& times_;
  Stream stream_;
  DeviceImage device_src_;
  ExecContext context_;
  double setup_ms_ = 0.0;
  CudaEvent start_, uploaded_, computed_, downloaded_;
};

void execute_on_gpu(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times,
                    GpuWarmup& warmup) {
  GpuRun run(src, times, warmup);
  Stopwatch setup;
  DeviceImage device_dst = device_image_for(dst);
  run.add_setup_ms(setup.elapsed_ms());
  request.op->run_gpu(run.src(), device_dst.view(), request.params, request.border, request.variant,
                      run.context());
  run.computed();
  copy_image_async(device_dst.view(), dst, run.stream());
  run.finish();
}

void execute_data_on_gpu(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                         StageTimes& times, GpuWarmup& warmup) {
  GpuRun run(src, times, warmup);
  Stopwatch setup;
  DeviceData device_result(result.size());
  run.add_setup_ms(setup.elapsed_ms());
  request.op->run_gpu_data(run.src(), device_result.get(), request.params, request.variant, run.context());
  run.computed();
  device_result.download_async(result.data(), run.stream());
  run.finish();
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

void execute_data(const RunRequest& request, Device device, const ImageView& src, std::vector<double>& result,
                  StageTimes& times, GpuWarmup* warmup) {
  if (device == Device::Gpu) {
    if (warmup == nullptr) throw std::logic_error("the GPU path needs the context started beside decoding");
    execute_data_on_gpu(request, src, result, times, *warmup);
    return;
  }
  Stopwatch watch;
  request.op->run_reference_data(src, result.data(), request.params);
  times.add("compute", watch.elapsed_ms());
}

}  // namespace gpufilter::cli
