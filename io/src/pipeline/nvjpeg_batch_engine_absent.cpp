// The build without nvJPEG: batches have no hardware JPEG engine, so every JPEG of a
// batch goes to the CPU decoders (codecs/gpu_jpeg_absent.cpp for the single files).
#include "gpufilter/io/jpeg_batch_decoder.hpp"

namespace gpufilter::io {

std::unique_ptr<JpegBatchEngine> make_hardware_jpeg_engine(int /*device*/) { return nullptr; }

}  // namespace gpufilter::io
