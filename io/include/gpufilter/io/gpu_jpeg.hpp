#pragma once
/// @file
/// JPEG decode and encode on the GPU with nvJPEG, one codec per GpuWorkspace (its stream,
/// its decoder states and buffers, reused from file to file). Built only where CMake found
/// nvJPEG (GPUFILTER_HAVE_NVJPEG); elsewhere gpu_jpeg_built() is false, make_gpu_jpeg_codec
/// gives nothing and the tool keeps OpenCV's codecs. No nvJPEG type appears here.
#include <cstddef>
#include <memory>
#include <vector>

#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::io {

/// Whether this build can use nvJPEG at all.
bool gpu_jpeg_built();

/// Creates nvJPEG's library handle for `device` (nvjpeg_codec.cpp says which backend and
/// why), so the first file does not wait for it; a no-op when it exists, the build has no
/// nvJPEG, or nvJPEG cannot start. Called on the thread that starts CUDA. Never throws.
void prepare_gpu_jpeg(int device) noexcept;

/// One JPEG file in host memory.
struct JpegBytes {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
};

class GpuJpegCodec {
 public:
  virtual ~GpuJpegCodec() = default;
  /// Decodes files[i] into into[i], a device view of its stored size: u8x3 (R, G, B) for
  /// colour, u8x1 for gray, one by one through nvJPEG's default decoder. Enqueued on the
  /// workspace's stream (the caller synchronizes). ok[i] tells which were decoded: a file
  /// nvJPEG refuses leaves into[i] undefined and is for OpenCV to read. Throws
  /// gpufilter::Error for CUDA failures only.
  virtual std::vector<bool> decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) = 0;
  /// Encodes the device image (u8x3 R, G, B with 4:2:0 chroma as OpenCV writes, or u8x1
  /// gray) at `quality` 1..100, waits for the stream and returns the file's bytes; false
  /// when nvJPEG refused it.
  virtual bool encode(const ImageView& image, int quality, std::vector<unsigned char>& bytes) = 0;
};

/// nullptr where the build has no nvJPEG or nvJPEG cannot start on `device`; `stream` is
/// the workspace's, current device `device`.
std::unique_ptr<GpuJpegCodec> make_gpu_jpeg_codec(int device, StreamHandle stream);

}  // namespace gpufilter::io
