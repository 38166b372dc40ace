#pragma once
/// @file
/// Questions about the machine's GPUs, answered without throwing: a CUDA failure gives
/// 0 or a descriptive string, never an Error. None of them synchronizes.
#include <string>

namespace gpufilter {

/// Number of usable CUDA devices; 0 when there is no GPU or no working driver.
int device_count() noexcept;
/// Whether device_count() is above 0.
inline bool has_device() noexcept { return device_count() > 0; }
/// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB, L2 50 MiB)" for the current device;
/// "no CUDA device" when it cannot be queried.
std::string device_description();
/// Why no device is usable (the CUDA runtime's message), or "" when one is.
std::string no_device_reason();

}  // namespace gpufilter
