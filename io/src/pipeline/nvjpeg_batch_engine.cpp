// jpeg_batch_decoder.hpp's engine through nvJPEG's hardware backend (the GPU's JPEG
// decoding engine: A100, H100, H200 and others). Compiled only where CMake found nvJPEG.
//
// One library handle and one decoding state per GPU: both are slow to make
// (bench/nvjpeg_probe.cpp; docs/gpu-results.md, "The figures behind the batch defaults"),
// so they are made once, on the decoder's thread, while the first files are read.
// Everything runs on that thread.
#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include <chrono>
#include <exception>
#include <optional>
#include <cstdio>
#include <string>
#include <vector>

#include "gpufilter/io/jpeg_batch_decoder.hpp"
#include "codecs/nvjpeg_planes.hpp"
#include "codecs/nvjpeg_status.hpp"

namespace gpufilter::io {
namespace {


class HardwareJpegEngine final : public JpegBatchEngine {
 public:
  HardwareJpegEngine() = default;
  // Nothing is freed: an engine lives as long as its batch, which the process ends with
  // _Exit right after; freeing the engine's buffers would only add to the wait.
  ~HardwareJpegEngine() override = default;
  HardwareJpegEngine(const HardwareJpegEngine&) = delete;
  HardwareJpegEngine& operator=(const HardwareJpegEngine&) = delete;

  // False where `device` has no hardware engine or nvJPEG cannot start on it.
  bool start(int device);

  bool accepts(const JpegBytes& file, const ImageView& into) override;
  bool decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) override;
  std::string start_phases() const override { return phases_; }

 private:
  // Runs `step` (true: it succeeded) and adds "`phase` N ms" to phases_.
  template <typename Step>
  bool timed(const char* phase, Step step);

  std::string phases_;
  nvjpegHandle_t handle_ = nullptr;
  nvjpegJpegState_t state_ = nullptr;
  nvjpegJpegStream_t header_ = nullptr;  // for accepts()
  cudaStream_t stream_ = nullptr;
  std::vector<NvjpegPlanes> planes_;  // a colour batch's files' planes, grown to the largest batch
};

template <typename Step>
bool HardwareJpegEngine::timed(const char* phase, Step step) {
  const auto began = std::chrono::steady_clock::now();
  const bool succeeded = step();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  char text[96];
  std::snprintf(text, sizeof text, "%s%s %.0f ms", phases_.empty() ? "" : ", ", phase, ms);
  phases_ += text;
  return succeeded;
}

// Each phase timed for --timing: where the engine's ~1 s goes, and which phase grows when
// every GPU's engine starts at once.
bool HardwareJpegEngine::start(int device) {
  // cudaFree(nullptr) makes the context here where cudaSetDevice leaves it for later.
  const auto make_context = [device] {
    return cudaSetDevice(device) == cudaSuccess && cudaFree(nullptr) == cudaSuccess;
  };
  if (!timed("CUDA context", make_context)) return false;
  // Refused (NVJPEG_STATUS_ARCH_MISMATCH and the like) where the GPU has no engine.
  if (!timed("nvJPEG handle", [this] {
        return nvjpeg_ok(nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &handle_));
      })) {
    handle_ = nullptr;
    return false;
  }
  unsigned int engines = 0;
  unsigned int cores_per_engine = 0;
  if (nvjpeg_ok(nvjpegGetHardwareDecoderInfo(handle_, &engines, &cores_per_engine)) && engines == 0) return false;
  return timed("decoding state", [this] { return nvjpeg_ok(nvjpegJpegStateCreate(handle_, &state_)); }) &&
         timed("streams", [this] {
           return nvjpeg_ok(nvjpegJpegStreamCreate(handle_, &header_)) &&
                  cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) == cudaSuccess;
         });
}

// The engine's own verdict on the file's header (baseline, one interleaved scan, a
// subsampling it knows, a size it takes), and a header that agrees with the caller's.
// Colour files only: gray ones stay with the per-file decoders, because on an H200 the
// engine's gray output of a 4000x3000 photo differed from libjpeg's by up to 255 levels
// in most samples (docs/gpu-results.md, "JPEG decoding").
bool HardwareJpegEngine::accepts(const JpegBytes& file, const ImageView& into) {
  if (into.format.type != ChannelType::U8 || into.format.channels != 3) return false;
  if (!nvjpeg_ok(nvjpegJpegStreamParseHeader(handle_, file.data, file.size, header_))) return false;
  unsigned int width = 0;
  unsigned int height = 0;
  unsigned int components = 0;
  if (!nvjpeg_ok(nvjpegJpegStreamGetFrameDimensions(header_, &width, &height)) ||
      !nvjpeg_ok(nvjpegJpegStreamGetComponentsNum(header_, &components)))
    return false;
  if (static_cast<int>(width) != into.width || static_cast<int>(height) != into.height ||
      static_cast<int>(components) != into.format.channels)
    return false;
  if (!NvjpegPlanes::sampling_of(header_)) return false;
  int unsupported = 1;  // nvJPEG's convention: 0 means supported
  if (nvjpeg_ok(nvjpegDecodeBatchedSupported(handle_, header_, &unsupported))) return unsupported == 0;
  // Should the check want the whole stream parsed, not only its header: parsed, and asked again.
  unsupported = 1;
  return nvjpeg_ok(nvjpegJpegStreamParse(handle_, file.data, file.size, 0, 0, header_)) &&
         nvjpeg_ok(nvjpegDecodeBatchedSupported(handle_, header_, &unsupported)) && unsupported == 0;
}

// The files decode to their planes and take libjpeg's colour step (nvjpeg_planes.hpp), so
// that a file gives the same pixels in a batch as alone.
bool HardwareJpegEngine::decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) {
  if (files.empty() || files.size() != into.size()) return false;
  if (planes_.size() < files.size()) planes_.resize(files.size());
  std::vector<const unsigned char*> data;
  std::vector<std::size_t> lengths;
  std::vector<nvjpegImage_t> outputs;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (into[i].format.channels != 3) return false;
    data.push_back(files[i].data);
    lengths.push_back(files[i].size);
    if (!nvjpeg_ok(nvjpegJpegStreamParseHeader(handle_, files[i].data, files[i].size, header_))) return false;
    const std::optional<nvjpegChromaSubsampling_t> subsampling = NvjpegPlanes::sampling_of(header_);
    if (!subsampling) return false;
    try {
      planes_[i].fit(*subsampling, into[i].width, into[i].height);
    } catch (const std::exception&) {
      return false;  // no device memory for the planes: the files go to the other decoders
    }
    outputs.push_back(planes_[i].output());
  }
  const nvjpegOutputFormat_t format = NVJPEG_OUTPUT_YUV;
  // Once per call: the batch size changes from call to call (and this resets a failed one).
  if (!nvjpeg_ok(nvjpegDecodeBatchedInitialize(handle_, state_, static_cast<int>(files.size()), 1, format))) return false;
  bool queued = nvjpeg_ok(nvjpegDecodeBatched(handle_, state_, data.data(), lengths.data(), outputs.data(), stream_));
  if (queued) {
    try {
      for (std::size_t i = 0; i < files.size(); ++i) planes_[i].to_rgb(into[i], stream_);
    } catch (const std::exception&) {
      queued = false;  // the files go to the other decoders
    }
  }
  // Waited for even after a failure: the files' bytes and images go back to their owners.
  const bool finished = cudaStreamSynchronize(stream_) == cudaSuccess;
  return queued && finished;
}

}  // namespace

std::unique_ptr<JpegBatchEngine> make_hardware_jpeg_engine(int device) {
  auto engine = std::make_unique<HardwareJpegEngine>();
  if (!engine->start(device)) return nullptr;
  return engine;
}

}  // namespace gpufilter::io
