#pragma once
/// @file
/// Batches of JPEG files decoded on a GPU's hardware JPEG engine, for `gpufilter OP IN...
/// --out-dir DIR`. One decoder per GPU, with a thread of its own: the threads that hold a
/// workspace hand it a file and the workspace's device image and wait; the decoder gathers
/// what has arrived (up to JpegBatchTuning::max_batch files, waiting at most max_wait_ms for
/// more) and decodes them in one call, so the engine's cores work side by side (many photos
/// a call decode several times faster than one at a time: docs/gpu-results.md, "The figures
/// behind the batch defaults"). A file the engine declines (progressive, an unusual
/// subsampling, ...) comes back undecoded, for the workspace's own per-file decoder, and
/// from there to OpenCV.
///
/// The engine itself (nvJPEG's hardware backend) is behind JpegBatchEngine: built only
/// where CMake found nvJPEG, and absent on GPUs without the engine; the decoder then
/// declines every file and the batch runs as without it. No nvJPEG type appears here.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::io {

struct JpegBatchTuning {
  /// Files in one call: 12 or 16 a call (with the workspaces to match) beat 8, since the
  /// engine's calls, not the GPU, bound the steady rate (docs/gpu-results.md, "The figures
  /// behind the batch defaults"). 0: no batched decoding (the per-file path of before).
  int max_batch = 12;
  /// How long the first file of a batch waits for others. While a batch decodes, the next
  /// one fills up anyway; the wait matters when the engine is idle.
  double max_wait_ms = 4.0;
  /// Whether files that come while the engine starts (after the CUDA context;
  /// docs/gpu-results.md, "The figures behind the batch defaults") are declined, to be
  /// decoded file by file meanwhile, instead of waiting for it: a short batch may gain, a
  /// long one hardly. Off, so that every file the engine takes goes to it.
  bool per_file_while_starting = false;
};

/// The defaults, overridden by GPUFILTER_JPEG_BATCH=N (0..64; 0 forces the per-file path),
/// GPUFILTER_JPEG_BATCH_WAIT_MS=X (0..1000) and GPUFILTER_JPEG_BATCH_WHILE_STARTING=1 (or
/// 0) for tuning and for timing the paths.
JpegBatchTuning jpeg_batch_tuning();

/// Decodes a batch of files, each into its own device image, in one call; what the
/// decoder's thread drives. Made and used on that thread only.
class JpegBatchEngine {
 public:
  virtual ~JpegBatchEngine() = default;
  /// Whether the engine decodes `file` into `into` (u8x3 R, G, B or u8x1 gray, the
  /// stored size) as OpenCV would.
  virtual bool accepts(const JpegBytes& file, const ImageView& into) = 0;
  /// Decodes files[i] into into[i], all of one pixel format and accepted, and waits for
  /// the result; false when the call failed, leaving every image undefined.
  virtual bool decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) = 0;
  /// How long each phase of the engine's start took ("CUDA context T ms, nvJPEG handle
  /// T ms, ..."), for --timing; empty where it was not timed here (a server's engine, made
  /// before the batch).
  virtual std::string start_phases() const { return {}; }
};

/// nvJPEG's hardware engine on `device`: its library handle and decoding state, slow to make
/// (docs/gpu-results.md, "The figures behind the batch defaults"), so made once per GPU on
/// the decoder's thread. nullptr where the build has no nvJPEG or the GPU has no engine.
/// Sets the calling thread's device.
std::unique_ptr<JpegBatchEngine> make_hardware_jpeg_engine(int device);

struct BatchDecodeResult {
  bool decoded = false;    ///< false: declined; `into` is undefined, decode the file another way
  double waited_ms = 0.0;  ///< queued before its batch began
  double decode_ms = 0.0;  ///< its batch's decode, to a finished stream
};

class JpegBatchDecoder {
 public:
  using EngineFactory = std::function<std::unique_ptr<JpegBatchEngine>()>;
  /// Starts the thread, which first makes the engine with `make_engine` (files queue
  /// meanwhile). `label` names the decoder in summary(), e.g. "GPU 0".
  JpegBatchDecoder(EngineFactory make_engine, JpegBatchTuning tuning, std::string label);
  /// Every decode() has returned by now (the batch's threads are joined).
  ~JpegBatchDecoder();
  JpegBatchDecoder(const JpegBatchDecoder&) = delete;
  JpegBatchDecoder& operator=(const JpegBatchDecoder&) = delete;

  /// Decodes `file` into `into` with whatever other files arrive meanwhile; blocks until
  /// done (the image is in device memory; no work on it is pending) or declined. `file`
  /// and `into` stay untouched by the caller until then. Thread-safe.
  BatchDecodeResult decode(const JpegBytes& file, const ImageView& into);

  /// "gpufilter: hardware JPEG decoding (GPU 0): 96 of 96 files in 9 calls (10.7 a call),
  /// 0 calls failed; engine ready after T ms (CUDA context T ms, nvJPEG handle T ms,
  /// decoding state T ms, streams T ms)", for --timing, T a time in whole milliseconds.
  std::string summary() const;

  using Clock = std::chrono::steady_clock;
  /// Whether the engine is still being made (files queue for it meanwhile).
  bool starting() const;
  /// Files the engine has decoded so far.
  long decoded_files() const;
  /// When the engine became ready; the decoder's start while it is starting or absent.
  Clock::time_point ready_at() const;

 private:
  struct Request {
    JpegBytes file;
    ImageView into;
    Clock::time_point queued;
    bool done = false;
    BatchDecodeResult result;
  };
  enum class EngineState { Starting, Ready, Absent };

  void serve();
  /// Takes the next batch from the queue: waits for a first file, then for more until the
  /// batch is full or the first has waited max_wait_ms. Empty when stopping. Holds `lock`.
  std::vector<Request*> next_batch(std::unique_lock<std::mutex>& lock);
  /// Decodes what the engine accepts, grouped by pixel format; sets each request's result.
  void decode_batch(const std::vector<Request*>& batch);
  /// One call for `group` (one pixel format, all accepted); halves tried again on failure.
  void decode_group(const std::vector<Request*>& group);

  EngineFactory make_engine_;
  const JpegBatchTuning tuning_;
  const std::string label_;
  std::unique_ptr<JpegBatchEngine> engine_;  ///< the thread's alone

  mutable std::mutex mutex_;
  std::condition_variable arrived_;   ///< a request queued, or stopping
  std::condition_variable finished_;  ///< requests done
  std::deque<Request*> queue_;
  EngineState state_ = EngineState::Starting;
  bool stopping_ = false;
  /// For summary().
  double engine_start_ms_ = 0.0;
  std::string engine_start_phases_;
  Clock::time_point ready_at_ = Clock::now();
  long files_ = 0;
  long decoded_ = 0;
  long calls_ = 0;
  long failed_calls_ = 0;

  std::thread thread_;  ///< last: starts once everything above exists
};

}  // namespace gpufilter::io
