#include "gpufilter/version.hpp"

namespace gpufilter {

Version version() { return {GPUFILTER_VERSION_MAJOR, GPUFILTER_VERSION_MINOR, GPUFILTER_VERSION_PATCH}; }

}  // namespace gpufilter
