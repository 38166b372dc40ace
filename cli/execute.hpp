#pragma once
// Where an op runs (GPU or CPU reference) and running it on host images.
#include <string>
#include <vector>

#include "arguments.hpp"
#include "gpu_warmup.hpp"
#include "gpufilter/image_view.hpp"
#include "timing.hpp"

namespace gpufilter::cli {

enum class Device { Gpu, Cpu };

struct DeviceSelection {
  Device device = Device::Cpu;
  std::string notice;  // one line for stderr when --device auto fell back to the CPU
};

// Throws CliError(Runtime) for --device gpu on a machine with no usable GPU.
DeviceSelection select_device(DeviceChoice choice);
const char* to_string(Device device);

// Runs request.op from host image src into host image dst (of the op's output shape) on
// `device`, adding its stages to `times`. On the GPU, `warmup` (then required) is the
// context started beside decoding; it is waited for before the first CUDA call.
// Throws gpufilter::Error or CliError(Runtime).
void execute(const RunRequest& request, Device device, const ImageView& src, const ImageView& dst,
             StageTimes& times, GpuWarmup* warmup);

// The same for a data op: fills `result` (sized for the op's DataLayout).
void execute_data(const RunRequest& request, Device device, const ImageView& src, std::vector<double>& result,
                  StageTimes& times, GpuWarmup* warmup);

}  // namespace gpufilter::cli
