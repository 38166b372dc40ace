// The build without nvJPEG (CI, machines whose CUDA toolkit lacks it): every JPEG goes
// through OpenCV's codecs, and batches have no hardware JPEG engine.
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"

namespace gpufilter::io {

bool gpu_jpeg_built() { return false; }

void prepare_gpu_jpeg(int /*device*/) noexcept {}

std::unique_ptr<GpuJpegCodec> make_gpu_jpeg_codec(int /*device*/, StreamHandle /*stream*/) { return nullptr; }

std::unique_ptr<JpegBatchEngine> make_hardware_jpeg_engine(int /*device*/) { return nullptr; }

}  // namespace gpufilter::io
