#pragma once
// nvJPEG's decoded planes of one colour file in device memory, turned into RGB the way
// libjpeg does it (gpufilter/jpeg_color.hpp). nvJPEG's own RGB output replicates the
// chroma samples where libjpeg interpolates them: up to 29 levels apart on photos, so a
// file decoded in a batch or by the server differed from the same file decoded by the
// CPU decoder. Compiled only where CMake found nvJPEG.
#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include <optional>

#include "gpufilter/images.hpp"
#include "gpufilter/jpeg_color.hpp"

namespace gpufilter::io {

class NvjpegPlanes {
 public:
  // Whether the colour step takes `subsampling`: 4:4:4, 4:2:2, 4:4:0 and 4:2:0 (and gray,
  // which needs no step); the others stay with the CPU decoder.
  static bool takes(nvjpegChromaSubsampling_t subsampling);
  // The subsampling of the file whose header `parsed` holds, where takes() it; nullopt
  // where nvJPEG cannot say or the step does not take it.
  static std::optional<nvjpegChromaSubsampling_t> sampling_of(nvjpegJpegStream_t parsed);

  // Sizes the planes for a width x height file of `subsampling` (takes() true, not gray);
  // the memory grows only. Throws gpufilter::Error when device memory runs out.
  void fit(nvjpegChromaSubsampling_t subsampling, int width, int height);
  // Where nvJPEG writes the planes (NVJPEG_OUTPUT_YUV): Y, Cb, Cr.
  nvjpegImage_t output() const;
  // The planes as RGB into `dst` (u8x3, the file's size, device memory), enqueued on `stream`.
  void to_rgb(const ImageView& dst, cudaStream_t stream) const;

 private:
  DeviceImage y_, cb_, cr_;  // the memory, grown to the largest file so far
  YccPlanes views_;          // this file's part of it, and its chroma factors
};

}  // namespace gpufilter::io
