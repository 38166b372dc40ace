#include "gpufilter/io/execute.hpp"

#include <cuda_runtime_api.h>

#include <iostream>
#include <utility>

#include "codecs/codec.hpp"
#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/jpeg_orientation.hpp"
#include "pipeline/no_gpu_notice.hpp"
#include "gpufilter/io/resident_gpus.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::io {
namespace {

class CudaEvent {
 public:
  CudaEvent() { GPUFILTER_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  void record(cudaStream_t stream) { GPUFILTER_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  float ms_since(const CudaEvent& start) const {
    float ms = 0.0f;
    GPUFILTER_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// `image`, reallocated only when `shape` differs from what it holds.
void fit_device_image(DeviceImage& image, int width, int height, PixelFormat format) {
  if (image.width() == width && image.height() == height && image.format() == format) return;
  image = DeviceImage();  // the old one goes before the new one comes
  try {
    image = DeviceImage(width, height, format);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::OutOfMemory) throw;
    throw IoError(Fault::Runtime, "the " + std::to_string(width) + "x" + std::to_string(height) + " " +
                                          format.name() + " image does not fit in GPU memory (" + error.what() + ")");
  }
}

// Sets the device for the calling thread for the lifetime of the guard: a batch's
// threads move between GPUs.
class OnDevice {
 public:
  explicit OnDevice(int device) { GPUFILTER_CUDA_CHECK(cudaSetDevice(device)); }
};

// The events around the stages of one run on a stream, recorded into `times` by finish().
class StageEvents {
 public:
  explicit StageEvents(cudaStream_t stream) : stream_(stream) { start_.record(stream); }
  void uploaded() { uploaded_.record(stream_); }
  void computed() { computed_.record(stream_); }
  // Waits for the stream, then records the stages.
  void finish(StageTimes& times, double setup_ms) {
    downloaded_.record(stream_);
    GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream_));
    times.add("setup", setup_ms);
    times.add("upload", uploaded_.ms_since(start_));
    times.add("kernel", computed_.ms_since(uploaded_));
    times.add("download", downloaded_.ms_since(computed_));
  }

 private:
  cudaStream_t stream_;
  CudaEvent start_, uploaded_, computed_, downloaded_;
};

// What run_image and run_data share: `device_src` fitted to the host image `src` (and
// `fit_outputs` run) as the set-up, the upload, `compute` on `stream`, then `download`,
// each stage timed. The uploads and downloads go straight from and to the host images,
// with no pinned staging copies: those would hold two more host copies of the image, and
// the driver moves pageable memory through small pinned buffers of its own.
template <class FitOutputs, class Compute, class Download>
void upload_compute_download(DeviceImage& device_src, const ImageView& src, cudaStream_t stream, StageTimes& times,
                             FitOutputs fit_outputs, Compute compute, Download download) {
  Stopwatch setup;
  fit_device_image(device_src, src.width, src.height, src.format);
  fit_outputs();
  const double setup_ms = setup.elapsed_ms();
  ExecContext context;
  context.stream = stream;
  StageEvents events(stream);
  copy_image_async(src, device_src.view(), stream);
  events.uploaded();
  compute(context);
  events.computed();
  download();
  events.finish(times, setup_ms);
}

}  // namespace

const char* to_string(Device device) { return device == Device::Gpu ? "gpu" : "cpu"; }

DeviceSelection select_device(DeviceChoice choice) {
  if (choice == DeviceChoice::Cpu) return {Device::Cpu, ""};
  if (has_device()) return {Device::Gpu, ""};
  if (choice == DeviceChoice::Gpu) {
    throw IoError(Fault::Runtime, "--device gpu, but there is no usable GPU (" + no_device_reason() + ")");
  }
  return {Device::Cpu, no_gpu_notice(no_device_reason())};
}

// ---- CPU ------------------------------------------------------------------------------

void CpuRunner::announce() {
  if (notice_.empty()) return;
  std::cerr << notice_ << '\n';
  notice_.clear();
}

void CpuRunner::run_image(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times) {
  announce();
  Stopwatch watch;
  // A chain's steps pass their results through host images of their own.
  std::vector<HostImage> between(request.chain.size());
  ImageView input = src;
  for (std::size_t i = 0; i <= request.chain.size(); ++i) {
    const RunRequest& step = i == 0 ? request : request.chain[i - 1];
    ImageView output = dst;
    if (i < request.chain.size()) {
      const ImageShape shape = step.op->output_shape_for(ImageShape{input.width, input.height, input.format}, step.params);
      between[i] = HostImage(shape.width, shape.height, shape.format);
      output = between[i].view();
    }
    step.op->run_on_cpu(input, output, step.params, step.border);
    input = output;
  }
  times.add("compute", watch.elapsed_ms());
}

void CpuRunner::run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                         StageTimes& times) {
  announce();
  Stopwatch watch;
  request.op->run_data_on_cpu(src, result.data(), request.params);
  times.add("compute", watch.elapsed_ms());
}

// ---- GPU ------------------------------------------------------------------------------

namespace {
Stream stream_on(int device) {
  const OnDevice on(device);
  return Stream();
}
}  // namespace

GpuWorkspace::GpuWorkspace(int device, JpegBatchDecoder* batch_decoder)
    : device_(device), stream_(stream_on(device)), batch_decoder_(batch_decoder) {}

void GpuWorkspace::run_image(const RunRequest& request, const ImageView& src, const ImageView& dst,
                             StageTimes& times) {
  const OnDevice on(device_);
  upload_compute_download(
      src_, src, stream_.get(), times, [&] { fit_device_image(dst_, dst.width, dst.height, dst.format); },
      [&](const ExecContext& context) { run_chain(request, src_.view(), context); },
      [&] { copy_image_async(dst_.view(), dst, stream_.get()); });
}

// A chain's steps run one after another on the stream, through device images kept for
// the next file of the same shapes; the last one writes dst_.
void GpuWorkspace::run_chain(const RunRequest& request, const ImageView& first_input, const ExecContext& context) {
  if (between_.size() < request.chain.size()) between_.resize(request.chain.size());
  ImageView input = first_input;
  for (std::size_t i = 0; i <= request.chain.size(); ++i) {
    const RunRequest& step = i == 0 ? request : request.chain[i - 1];
    ImageView output = dst_.view();
    if (i < request.chain.size()) {
      const ImageShape shape = step.op->output_shape_for(ImageShape{input.width, input.height, input.format}, step.params);
      fit_device_image(between_[i], shape.width, shape.height, shape.format);
      output = between_[i].view();
    }
    step.op->run_gpu(input, output, step.params, step.border, step.variant, context);
    input = output;
  }
}

void GpuWorkspace::release_images() {
  stored_ = DeviceImage();
  turned_half_ = DeviceImage();
  src_ = DeviceImage();
  dst_ = DeviceImage();
  between_.clear();
  result_ = DeviceData();
}

GpuJpegCodec* GpuWorkspace::jpeg_codec() {
  if (!jpeg_tried_) {
    jpeg_tried_ = true;
    jpeg_ = codecs::gpu_codec(".jpg", device_, stream_.get());
  }
  return jpeg_.get();
}

bool GpuWorkspace::takes_gpu_jpeg(StageTimes& /*times*/, const char* /*overlapped*/) { return gpu_jpeg_built(); }

// nvJPEG decodes into device memory (the stored image, or straight into src_ when no
// orientation applies), the library's geometry ops turn it upright, the op chain runs,
// and either nvJPEG encodes the result (only the file's bytes come back) or it is
// downloaded.
bool GpuWorkspace::run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                            StageTimes& times) {
  const OnDevice on(device_);
  Stopwatch setup;
  GpuJpegCodec* codec = jpeg_codec();
  if (codec == nullptr) return false;
  const std::vector<OrientationStep> steps = orientation_steps(input.orientation);
  const bool swapped = orientation_swaps_sides(input.orientation);
  const ImageShape upright{swapped ? input.stored_height : input.stored_width,
                           swapped ? input.stored_width : input.stored_height, input.format};
  DeviceImage& decoded = steps.empty() ? src_ : stored_;
  fit_device_image(decoded, input.stored_width, input.stored_height, input.format);
  if (!steps.empty()) fit_device_image(src_, upright.width, upright.height, upright.format);
  if (steps.size() > 1) fit_device_image(turned_half_, upright.width, upright.height, upright.format);
  fit_result(request, upright);
  times.add("setup", setup.elapsed_ms());

  if (!decode_jpeg(*codec, input, decoded.view(), times)) return false;

  ExecContext context;
  context.stream = stream_.get();
  CudaEvent start, turned, computed, downloaded;
  start.record(stream_.get());
  if (steps.size() == 1) apply_orientation_step(steps[0], stored_.view(), src_.view(), true, context);
  if (steps.size() == 2) {
    apply_orientation_step(steps[0], stored_.view(), turned_half_.view(), true, context);
    apply_orientation_step(steps[1], turned_half_.view(), src_.view(), true, context);
  }
  turned.record(stream_.get());
  run_chain(request, src_.view(), context);
  computed.record(stream_.get());
  if (output.encoded == nullptr) copy_image_async(dst_.view(), output.download, stream_.get());
  downloaded.record(stream_.get());
  stream_.synchronize();
  if (!steps.empty()) times.add("orient", turned.ms_since(start));
  times.add("kernel", computed.ms_since(turned));
  if (output.encoded == nullptr) {
    times.add("download", downloaded.ms_since(computed));
    return true;
  }
  encode_result(*codec, output.quality, *output.encoded, times);
  return true;
}

ImageShape GpuWorkspace::fit_result(const RunRequest& request, const ImageShape& input) {
  ImageShape out = request.op->output_shape_for(input, request.params);
  for (const RunRequest& step : request.chain) out = step.op->output_shape_for(out, step.params);
  fit_device_image(dst_, out.width, out.height, out.format);
  return out;
}

void GpuWorkspace::encode_result(GpuJpegCodec& codec, int quality, std::vector<unsigned char>& encoded,
                                 StageTimes& times) {
  Stopwatch encoding;
  if (!codec.encode(dst_.view(), quality, encoded)) {
    throw IoError(Fault::Runtime, "nvJPEG could not encode the " + std::to_string(dst_.width()) + "x" +
                                          std::to_string(dst_.height()) + " " + dst_.format().name() + " result");
  }
  times.add("gpu encode", encoding.elapsed_ms());
}

// A host image (decoded by OpenCV on the CPU beside the GPU's decoders) uploaded, the op
// chain run, and the result encoded by nvJPEG: only the file's bytes come back.
bool GpuWorkspace::run_image_to_jpeg(const RunRequest& request, const ImageView& src, int quality,
                                     std::vector<unsigned char>& encoded, StageTimes& times) {
  const OnDevice on(device_);
  Stopwatch setup;
  GpuJpegCodec* codec = jpeg_codec();
  if (codec == nullptr) return false;
  fit_device_image(src_, src.width, src.height, src.format);
  fit_result(request, ImageShape{src.width, src.height, src.format});
  times.add("setup", setup.elapsed_ms());
  ExecContext context;
  context.stream = stream_.get();
  CudaEvent start, uploaded, computed;
  start.record(stream_.get());
  copy_image_async(src, src_.view(), stream_.get());
  uploaded.record(stream_.get());
  run_chain(request, src_.view(), context);
  computed.record(stream_.get());
  stream_.synchronize();
  times.add("upload", uploaded.ms_since(start));
  times.add("kernel", computed.ms_since(uploaded));
  encode_result(*codec, quality, encoded, times);
  return true;
}

// The stream is idle here (each run ends synchronized), so the batch decoder, on a
// stream of its own, may write `into`; it returns once the image is there.
bool GpuWorkspace::decode_jpeg(GpuJpegCodec& codec, const GpuJpegInput& input, const ImageView& into,
                               StageTimes& times) {
  if (batch_decoder_ != nullptr) {
    const BatchDecodeResult batch = batch_decoder_->decode(input.file, into);
    times.add("decode wait", batch.waited_ms);
    if (batch.decoded) {
      times.add("gpu decode", batch.decode_ms);
      return true;
    }
  }
  // The default decoder works on the host as well: its time is the wall time to a
  // finished stream.
  Stopwatch decoding;
  if (!codec.decode({input.file}, {into}).front()) return false;
  stream_.synchronize();
  times.add("gpu decode", decoding.elapsed_ms());
  return true;
}

void GpuWorkspace::run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                            StageTimes& times) {
  const OnDevice on(device_);
  upload_compute_download(
      src_, src, stream_.get(), times,
      [&] {
        if (result_.size() != result.size()) result_ = DeviceData(result.size());
      },
      [&](const ExecContext& context) {
        request.op->run_gpu_data(src_.view(), result_.get(), request.params, request.variant, context);
      },
      [&] { result_.download_async(result.data(), stream_.get()); });
}

Runner& SingleFileRunner::resolve(StageTimes& times, const char* overlapped) {
  if (gpu_) return *gpu_;
  if (on_resident_ != nullptr) return *on_resident_;
  if (cpu_) return *cpu_;
  if (choice_ == DeviceChoice::Cpu || warmup_ == nullptr) return cpu_.emplace();
  // CUDA, which can cost more than the filter itself, was started beside decoding;
  // "wait" is what is left of it once the image is decoded. A server's warm-up was done
  // before the request: it has no part in this run's stages.
  warmup_->wait();
  if (resident_ == nullptr) {
    times.add_beside("cuda start", warmup_->took_ms(), overlapped);
    times.add("wait", warmup_->waited_ms());
  }
  if (warmup_->usable() && resident_ != nullptr) return *(on_resident_ = &resident_->workspace(warmup_->device()));
  if (warmup_->usable()) return gpu_.emplace(warmup_->device());
  if (choice_ == DeviceChoice::Gpu)
    throw IoError(Fault::Runtime, "--device gpu, but there is no usable GPU (" + warmup_->unusable_reason() + ")");
  return cpu_.emplace(no_gpu_notice(warmup_->unusable_reason()));
}

void SingleFileRunner::run_image(const RunRequest& request, const ImageView& src, const ImageView& dst,
                                 StageTimes& times) {
  resolve(times).run_image(request, src, dst, times);
}

bool SingleFileRunner::takes_gpu_jpeg(StageTimes& times, const char* overlapped) {
  // Without nvJPEG the runner is chosen after decoding, so that CUDA starts beside it.
  if (!gpu_jpeg_built() || choice_ == DeviceChoice::Cpu || warmup_ == nullptr) return false;
  return resolve(times, overlapped).takes_gpu_jpeg(times, overlapped);
}

bool SingleFileRunner::run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                                StageTimes& times) {
  return resolve(times).run_jpeg(request, input, output, times);
}

void SingleFileRunner::run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                                StageTimes& times) {
  resolve(times).run_data(request, src, result, times);
}

}  // namespace gpufilter::io
