#pragma once
// The stream context NPP's _Ctx calls take with every call, for the NPP peer rows.
#include <cuda_runtime_api.h>
#include <nppdefs.h>

namespace bench {

// The stream's device properties, filled from the runtime once per stream and then
// reused (a timed launch must not query the device), so nothing depends on
// nppGetStreamContext.
NppStreamContext npp_context(cudaStream_t stream);

}  // namespace bench
