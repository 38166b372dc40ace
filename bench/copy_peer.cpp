// The copy op's peer: the CUDA runtime's own 2-D copy, the yardstick a user has
// without any library.
#include <cuda_runtime_api.h>

#include "gpufilter/error.hpp"
#include "peers.hpp"

namespace bench {

std::vector<PeerRow> copy_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                const gpufilter::ParamValues& params) {
  if (op.name != "copy") return {};
  PeerRow row;
  row.name = "cudaMemcpy2D";
  row.reference_params = params;
  row.tolerance = op.tolerance(format);
  row.launch = [](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    GPUFILTER_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                           static_cast<std::size_t>(src.height), cudaMemcpyDeviceToDevice,
                                           stream));
  };
  return {row};
}

}  // namespace bench
