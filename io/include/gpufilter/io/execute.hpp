#pragma once
/// @file
/// Where an op runs (GPU or CPU reference) and running it on host images.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpufilter/io/run_request.hpp"
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/io/gpu_warmup.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/io/timing.hpp"

namespace gpufilter::io {

class ResidentGpus;

enum class Device { Gpu, Cpu };

struct DeviceSelection {
  Device device = Device::Cpu;
  std::string notice;  ///< one line for stderr when --device auto fell back to the CPU
};

/// Throws IoError(Runtime) for --device gpu on a machine with no usable GPU.
DeviceSelection select_device(DeviceChoice choice);
const char* to_string(Device device);

/// A JPEG file for nvJPEG: its bytes and what its header says.
struct GpuJpegInput {
  JpegBytes file;
  int stored_width = 0;  ///< before the orientation is applied
  int stored_height = 0;
  PixelFormat format;    ///< u8x3 (colour) or u8x1 (gray)
  int orientation = 1;   ///< EXIF orientation to apply on the GPU; 1: none
};

/// Where a GPU JPEG run's result goes: encoded as JPEG on the GPU into `encoded` (when
/// set), else downloaded into `download` (host memory of the chain's output shape).
struct GpuJpegOutput {
  std::vector<unsigned char>* encoded = nullptr;
  int quality = 95;
  ImageView download;
};

/// Runs request.op over host images: from src into dst (of the op's output shape; for a
/// chain, request.op then each of request.chain, and dst of the last one's output shape),
/// or into `result` (sized for a data op's DataLayout), adding its stages to `times`.
/// Throws gpufilter::Error or IoError(Runtime).
class Runner {
 public:
  virtual ~Runner() = default;
  virtual void run_image(const RunRequest& request, const ImageView& src, const ImageView& dst,
                         StageTimes& times) = 0;
  virtual void run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                        StageTimes& times) = 0;
  /// Whether run_jpeg may be tried: the run is on a GPU and the build has nvJPEG. A runner
  /// that has not chosen its device yet chooses it now (waiting for CUDA's start, shown
  /// beside the main thread's stage `overlapped`).
  virtual bool takes_gpu_jpeg(StageTimes& /*times*/, const char* /*overlapped*/) { return false; }
  /// Whether run_image may download into its destination from a GPU (which pays for
  /// unmapped pages there); false where it surely runs on the CPU.
  virtual bool may_use_gpu() const { return false; }
  /// Decodes `input` with nvJPEG on the GPU, turns it upright, runs request.op (and its
  /// chain) on it and sends the result to `output`. False, with nothing written, where
  /// this runner has no nvJPEG or nvJPEG refused the file: the caller reads it with
  /// OpenCV instead. Throws as run_image, and IoError(Runtime) when nvJPEG decoded the
  /// file but could not encode the result.
  virtual bool run_jpeg(const RunRequest& /*request*/, const GpuJpegInput& /*input*/,
                        const GpuJpegOutput& /*output*/, StageTimes& /*times*/) {
    return false;
  }
  /// Runs request.op (and its chain) on the host image `src` and encodes the result with
  /// nvJPEG at `quality` into `encoded` (u8x3 R, G, B or u8x1 results only). False, with
  /// nothing done, where this runner has no nvJPEG: the caller runs run_image instead.
  /// Throws as run_image, and IoError(Runtime) when nvJPEG could not encode the result.
  virtual bool run_image_to_jpeg(const RunRequest& /*request*/, const ImageView& /*src*/, int /*quality*/,
                                 std::vector<unsigned char>& /*encoded*/, StageTimes& /*times*/) {
    return false;
  }
};

/// The CPU reference: the --device cpu path. `notice` (why --device auto fell back to the
/// CPU) goes to stderr before the first run, once an input has been read.
class CpuRunner final : public Runner {
 public:
  explicit CpuRunner(std::string notice = "") : notice_(std::move(notice)) {}
  void run_image(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times) override;
  void run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                StageTimes& times) override;

 private:
  void announce();
  std::string notice_;
};

/// One stream on one GPU and the device buffers of the last run, kept while the next
/// image has the same shape: a batch of equal photos allocates once. Not thread-safe: one
/// thread uses a workspace at a time. With a `batch_decoder` (the GPU's hardware JPEG
/// engine, shared by the GPU's workspaces), JPEG files are decoded there first.
class GpuWorkspace final : public Runner {
 public:
  explicit GpuWorkspace(int device, JpegBatchDecoder* batch_decoder = nullptr);
  bool may_use_gpu() const override { return true; }
  int device() const { return device_; }
  void run_image(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times) override;
  void run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                StageTimes& times) override;
  bool takes_gpu_jpeg(StageTimes& times, const char* overlapped) override;
  bool run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                StageTimes& times) override;
  bool run_image_to_jpeg(const RunRequest& request, const ImageView& src, int quality,
                         std::vector<unsigned char>& encoded, StageTimes& times) override;
  /// Makes the workspace's nvJPEG states now rather than at its first JPEG (a server does,
  /// before its first request). A no-op without nvJPEG.
  void prepare_jpeg_codec() { jpeg_codec(); }
  /// For a server's workspaces, kept from one batch to the next: the batch's hardware
  /// decoder (or none), and the device images freed while the workspace waits.
  void set_batch_decoder(JpegBatchDecoder* batch_decoder) { batch_decoder_ = batch_decoder; }
  void release_images();

 private:
  /// Fits dst_ to request.op's (and its chain's) output for an `input`-shaped image.
  ImageShape fit_result(const RunRequest& request, const ImageShape& input);
  /// Encodes dst_ with `codec` into `encoded` (the stream is idle), recording "gpu encode".
  void encode_result(GpuJpegCodec& codec, int quality, std::vector<unsigned char>& encoded, StageTimes& times);
  /// Runs request.op and its chain from `input` (device) into dst_, sized by the caller.
  void run_chain(const RunRequest& request, const ImageView& input, const ExecContext& context);
  /// The workspace's nvJPEG codec, made on first use; null where there is none.
  GpuJpegCodec* jpeg_codec();

  /// Decodes the file into `into` with the batch decoder, else with the workspace's codec;
  /// false when neither could.
  bool decode_jpeg(GpuJpegCodec& codec, const GpuJpegInput& input, const ImageView& into, StageTimes& times);

  int device_;
  Stream stream_;
  JpegBatchDecoder* batch_decoder_;
  std::unique_ptr<GpuJpegCodec> jpeg_;
  bool jpeg_tried_ = false;
  DeviceImage stored_;       ///< a JPEG as decoded, before its orientation is applied
  DeviceImage turned_half_;  ///< orientation 7's intermediate (transposed, not yet flipped)
  DeviceImage src_;
  DeviceImage dst_;
  std::vector<DeviceImage> between_;  ///< a chain's intermediate results
  DeviceData result_;
};

/// One file on the device the user chose: the GPU once the context started beside
/// decoding is ready (recording "cuda start" and "wait"); with --device auto and no usable
/// GPU, the CPU reference after a one-line notice; with --device gpu and none, a
/// IoError(Runtime). The GPU check itself runs on the warm-up thread, beside decoding.
class SingleFileRunner final : public Runner {
 public:
  /// `warmup` may be null for --device cpu. With `resident` (a server's), the GPU run
  /// borrows the resident workspace of the warm-up's device instead of making one.
  SingleFileRunner(GpuWarmup* warmup, DeviceChoice choice, ResidentGpus* resident = nullptr)
      : warmup_(warmup), choice_(choice), resident_(resident) {}
  void run_image(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times) override;
  void run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                StageTimes& times) override;
  bool takes_gpu_jpeg(StageTimes& times, const char* overlapped) override;
  bool run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                StageTimes& times) override;
  bool may_use_gpu() const override {
    return choice_ != DeviceChoice::Cpu && (warmup_ != nullptr || resident_ != nullptr);
  }
  /// Where the run went; Cpu before the first run.
  Device device() const { return gpu_ || on_resident_ ? Device::Gpu : Device::Cpu; }

 private:
  Runner& resolve(StageTimes& times, const char* overlapped = "decode");
  GpuWarmup* warmup_;
  DeviceChoice choice_;
  ResidentGpus* resident_;
  GpuWorkspace* on_resident_ = nullptr;
  std::optional<GpuWorkspace> gpu_;
  std::optional<CpuRunner> cpu_;
};

}  // namespace gpufilter::io
