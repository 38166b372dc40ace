#pragma once
// nvJPEG's status as a yes or no, for the files that call nvJPEG.
#include <nvjpeg.h>

namespace gpufilter::io {

inline bool nvjpeg_ok(nvjpegStatus_t status) { return status == NVJPEG_STATUS_SUCCESS; }

}  // namespace gpufilter::io
