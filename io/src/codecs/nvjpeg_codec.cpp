// gpu_jpeg.hpp through nvJPEG (CUDA toolkit). Compiled only where CMake found it.
//
// Per device, one library handle on the default backend, made once and kept for the
// process (nvJPEG's handles are thread-safe and bound to the device current when made).
// Per workspace, the decoder state, parse stream, buffers and encoder state nvJPEG keeps
// per thread, reused from file to file; each workspace decodes its own file, so files
// decode side by side on as many threads as the pool has workspaces.
//
// Not the hardware JPEG engines here: a hardware-backend handle and each decoding state on
// it cost several times the default backend's, for little gain one file at a time
// (bench/nvjpeg_probe.cpp; docs/gpu-results.md, "The figures behind the batch defaults").
// The engines pay off in batches of many files per call: jpeg_batch_decoder.hpp gathers
// them, one engine per GPU (nvjpeg_batch_engine.cpp), and what it declines comes here.
//
// The decoding objects are made on a workspace's first per-file decode: where a batch's
// files all go to the hardware engine, its workspaces only encode, and a decoding state
// is not free to make.
#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include <exception>
#include <map>
#include <optional>
#include <mutex>

#include "gpufilter/io/gpu_jpeg.hpp"
#include "codecs/nvjpeg_planes.hpp"
#include "codecs/nvjpeg_status.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::io {
namespace {


// null when nvJPEG cannot start on `device`.
nvjpegHandle_t create_handle(int device) {
  if (cudaSetDevice(device) != cudaSuccess) return nullptr;
  nvjpegHandle_t handle = nullptr;
  if (!nvjpeg_ok(nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &handle))) return nullptr;
  return handle;
}

struct DeviceHandle {
  std::once_flag made;
  nvjpegHandle_t handle = nullptr;
};

// Never destroyed: the tool ends with _Exit, and a handle outlives every workspace. The
// map's lock covers only finding the device's entry: each GPU's handle is made under its
// own once_flag, so one GPU's first workspace does not wait for another GPU's handle (the
// GPUs' hardware engines start side by side on threads of their own anyway).
nvjpegHandle_t device_handle(int device) {
  static std::mutex mutex;
  static std::map<int, DeviceHandle> handles;  // entries never move or go
  DeviceHandle* entry = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    entry = &handles[device];
  }
  std::call_once(entry->made, [entry, device] { entry->handle = create_handle(device); });
  return entry->handle;
}

nvjpegImage_t nvjpeg_image(const ImageView& view) {
  nvjpegImage_t image{};
  image.channel[0] = static_cast<unsigned char*>(view.data);
  image.pitch[0] = view.pitch;
  return image;
}

class NvjpegCodec final : public GpuJpegCodec {
 public:
  NvjpegCodec(nvjpegHandle_t handle, cudaStream_t stream) : general_(handle), stream_(stream) {}
  ~NvjpegCodec() override;
  NvjpegCodec(const NvjpegCodec&) = delete;
  NvjpegCodec& operator=(const NvjpegCodec&) = delete;

  // Makes the encoder's objects; false when any cannot be made.
  bool init();

  std::vector<bool> decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) override;
  bool encode(const ImageView& image, int quality, std::vector<unsigned char>& bytes) override;

 private:
  // Makes the decoding objects on first use; false when any cannot be made.
  bool decoder_ready();
  bool fits(const JpegBytes& file, const ImageView& into) const;
  bool decode_one(const JpegBytes& file, const ImageView& into);
  void synchronize() const { GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  nvjpegHandle_t general_;
  cudaStream_t stream_;
  // One file at a time, in decoupled phases.
  bool decoder_tried_ = false;
  bool decoder_made_ = false;
  nvjpegJpegDecoder_t decoder_ = nullptr;
  nvjpegJpegState_t decoder_state_ = nullptr;
  nvjpegBufferPinned_t pinned_ = nullptr;
  nvjpegBufferDevice_t device_buffer_ = nullptr;
  nvjpegJpegStream_t parsed_ = nullptr;
  nvjpegDecodeParams_t decode_params_ = nullptr;
  NvjpegPlanes planes_;  // a colour file's planes (nvjpeg_planes.hpp)
  // Encoder.
  nvjpegEncoderState_t encoder_state_ = nullptr;
  nvjpegEncoderParams_t encoder_params_ = nullptr;
};

bool NvjpegCodec::decoder_ready() {
  if (!decoder_tried_) {
    decoder_tried_ = true;
    decoder_made_ = nvjpeg_ok(nvjpegDecoderCreate(general_, NVJPEG_BACKEND_DEFAULT, &decoder_)) &&
                    nvjpeg_ok(nvjpegDecoderStateCreate(general_, decoder_, &decoder_state_)) &&
                    nvjpeg_ok(nvjpegBufferPinnedCreate(general_, nullptr, &pinned_)) &&
                    nvjpeg_ok(nvjpegBufferDeviceCreate(general_, nullptr, &device_buffer_)) &&
                    nvjpeg_ok(nvjpegStateAttachPinnedBuffer(decoder_state_, pinned_)) &&
                    nvjpeg_ok(nvjpegStateAttachDeviceBuffer(decoder_state_, device_buffer_)) &&
                    nvjpeg_ok(nvjpegJpegStreamCreate(general_, &parsed_)) &&
                    nvjpeg_ok(nvjpegDecodeParamsCreate(general_, &decode_params_));
  }
  return decoder_made_;
}

bool NvjpegCodec::init() {
  return nvjpeg_ok(nvjpegEncoderStateCreate(general_, &encoder_state_, stream_)) &&
         nvjpeg_ok(nvjpegEncoderParamsCreate(general_, &encoder_params_, stream_)) &&
         // OpenCV's defaults: standard Huffman tables, baseline.
         nvjpeg_ok(nvjpegEncoderParamsSetOptimizedHuffman(encoder_params_, 0, stream_)) &&
         nvjpeg_ok(nvjpegEncoderParamsSetEncoding(encoder_params_, NVJPEG_ENCODING_BASELINE_DCT, stream_));
}

NvjpegCodec::~NvjpegCodec() {
  // Work on the stream may still use the states.
  cudaStreamSynchronize(stream_);
  if (encoder_params_ != nullptr) nvjpegEncoderParamsDestroy(encoder_params_);
  if (encoder_state_ != nullptr) nvjpegEncoderStateDestroy(encoder_state_);
  if (decode_params_ != nullptr) nvjpegDecodeParamsDestroy(decode_params_);
  if (parsed_ != nullptr) nvjpegJpegStreamDestroy(parsed_);
  if (decoder_state_ != nullptr) nvjpegJpegStateDestroy(decoder_state_);
  if (device_buffer_ != nullptr) nvjpegBufferDeviceDestroy(device_buffer_);
  if (pinned_ != nullptr) nvjpegBufferPinnedDestroy(pinned_);
  if (decoder_ != nullptr) nvjpegDecoderDestroy(decoder_);
}

// nvJPEG's own reading of the header agrees with the caller's: the size, and 1 or 3
// components for a u8x1 or u8x3 view.
bool NvjpegCodec::fits(const JpegBytes& file, const ImageView& into) const {
  int components = 0;
  nvjpegChromaSubsampling_t subsampling = NVJPEG_CSS_UNKNOWN;
  int widths[NVJPEG_MAX_COMPONENT] = {};
  int heights[NVJPEG_MAX_COMPONENT] = {};
  if (!nvjpeg_ok(nvjpegGetImageInfo(general_, file.data, file.size, &components, &subsampling, widths, heights))) return false;
  if (!NvjpegPlanes::takes(subsampling) || widths[0] != into.width || heights[0] != into.height) return false;
  if (into.format.type != ChannelType::U8) return false;
  return (components == 1 && into.format.channels == 1) || (components == 3 && into.format.channels == 3);
}

// Colour: the planes, then libjpeg's colour step (nvjpeg_planes.hpp), as the batches' engine.
bool NvjpegCodec::decode_one(const JpegBytes& file, const ImageView& into) {
  const bool colour = into.format.channels == 3;
  const nvjpegOutputFormat_t format = colour ? NVJPEG_OUTPUT_YUV : NVJPEG_OUTPUT_Y;
  if (!nvjpeg_ok(nvjpegDecodeParamsSetOutputFormat(decode_params_, format))) return false;
  if (!nvjpeg_ok(nvjpegJpegStreamParse(general_, file.data, file.size, 0, 0, parsed_))) return false;
  // The host phase refills the pinned buffer, which the previous file's transfer may
  // still read.
  synchronize();
  if (!nvjpeg_ok(nvjpegDecodeJpegHost(general_, decoder_, decoder_state_, decode_params_, parsed_))) return false;
  if (!nvjpeg_ok(nvjpegDecodeJpegTransferToDevice(general_, decoder_, decoder_state_, parsed_, stream_))) return false;
  if (!colour) {
    nvjpegImage_t output = nvjpeg_image(into);
    return nvjpeg_ok(nvjpegDecodeJpegDevice(general_, decoder_, decoder_state_, &output, stream_));
  }
  const std::optional<nvjpegChromaSubsampling_t> subsampling = NvjpegPlanes::sampling_of(parsed_);
  if (!subsampling) return false;
  try {
    planes_.fit(*subsampling, into.width, into.height);
    nvjpegImage_t output = planes_.output();
    if (!nvjpeg_ok(nvjpegDecodeJpegDevice(general_, decoder_, decoder_state_, &output, stream_))) return false;
    planes_.to_rgb(into, stream_);
    return true;
  } catch (const std::exception&) {
    return false;  // no device memory for the planes: the CPU decoder takes the file
  }
}

std::vector<bool> NvjpegCodec::decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) {
  std::vector<bool> decoded(files.size(), false);
  if (!decoder_ready()) return decoded;
  for (std::size_t i = 0; i < files.size(); ++i) decoded[i] = fits(files[i], into[i]) && decode_one(files[i], into[i]);
  return decoded;
}

bool NvjpegCodec::encode(const ImageView& image, int quality, std::vector<unsigned char>& bytes) {
  if (image.format.type != ChannelType::U8 || (image.format.channels != 1 && image.format.channels != 3)) return false;
  const bool gray = image.format.channels == 1;
  // OpenCV (libjpeg's defaults) writes colour with 4:2:0 chroma at every quality.
  const nvjpegChromaSubsampling_t subsampling = gray ? NVJPEG_CSS_GRAY : NVJPEG_CSS_420;
  if (!nvjpeg_ok(nvjpegEncoderParamsSetQuality(encoder_params_, quality, stream_)) ||
      !nvjpeg_ok(nvjpegEncoderParamsSetSamplingFactors(encoder_params_, subsampling, stream_)))
    return false;
  const nvjpegImage_t source = nvjpeg_image(image);
  const nvjpegStatus_t status =
      gray ? nvjpegEncodeYUV(general_, encoder_state_, encoder_params_, &source, NVJPEG_CSS_GRAY, image.width,
                             image.height, stream_)
           : nvjpegEncodeImage(general_, encoder_state_, encoder_params_, &source, NVJPEG_INPUT_RGBI, image.width,
                               image.height, stream_);
  if (!nvjpeg_ok(status)) return false;
  std::size_t length = 0;
  if (!nvjpeg_ok(nvjpegEncodeRetrieveBitstream(general_, encoder_state_, nullptr, &length, stream_))) return false;
  synchronize();
  bytes.resize(length);
  if (!nvjpeg_ok(nvjpegEncodeRetrieveBitstream(general_, encoder_state_, bytes.data(), &length, stream_))) return false;
  synchronize();
  bytes.resize(length);
  return length > 0;
}

}  // namespace

bool gpu_jpeg_built() { return true; }

void prepare_gpu_jpeg(int device) noexcept {
  try {
    device_handle(device);
  } catch (...) {
    // Tried again, and reported, when the first file needs it.
  }
}

std::unique_ptr<GpuJpegCodec> make_gpu_jpeg_codec(int device, StreamHandle stream) {
  const nvjpegHandle_t handle = device_handle(device);
  if (handle == nullptr) return nullptr;
  auto codec = std::make_unique<NvjpegCodec>(handle, stream);
  if (!codec->init()) return nullptr;
  return codec;
}

}  // namespace gpufilter::io
