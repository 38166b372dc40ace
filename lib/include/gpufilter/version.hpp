#pragma once
namespace gpufilter {
inline constexpr const char* kVersion = "0.1.0";
}
