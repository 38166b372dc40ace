// The build without nvJPEG (CI, machines whose CUDA toolkit lacks it): every JPEG goes
// through the CPU's codecs (batches have no hardware JPEG engine either:
// pipeline/nvjpeg_batch_engine_absent.cpp).
#include "gpufilter/io/gpu_jpeg.hpp"

namespace gpufilter::io {

bool gpu_jpeg_built() { return false; }

void prepare_gpu_jpeg(int /*device*/) noexcept {}

std::unique_ptr<GpuJpegCodec> make_gpu_jpeg_codec(int /*device*/, StreamHandle /*stream*/) { return nullptr; }

}  // namespace gpufilter::io
