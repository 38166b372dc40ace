#include "gpufilter/io/jpeg_batch_decoder.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include "pipeline/environment_number.hpp"
#include "pipeline/thread_name.hpp"

namespace gpufilter::io {
namespace {

double ms_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

JpegBatchTuning jpeg_batch_tuning() {
  JpegBatchTuning tuning;
  tuning.max_batch = static_cast<int>(environment_number("GPUFILTER_JPEG_BATCH", 0, 64, tuning.max_batch));
  tuning.max_wait_ms = environment_number("GPUFILTER_JPEG_BATCH_WAIT_MS", 0, 1000, tuning.max_wait_ms);
  tuning.per_file_while_starting = environment_number("GPUFILTER_JPEG_BATCH_WHILE_STARTING", 0, 1,
                                                      tuning.per_file_while_starting ? 1 : 0) == 1;
  return tuning;
}

JpegBatchDecoder::JpegBatchDecoder(EngineFactory make_engine, JpegBatchTuning tuning, std::string label)
    : make_engine_(std::move(make_engine)),
      tuning_(tuning),
      label_(std::move(label)),
      thread_([this] { serve(); }) {}

JpegBatchDecoder::~JpegBatchDecoder() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  arrived_.notify_all();
  thread_.join();
}

BatchDecodeResult JpegBatchDecoder::decode(const JpegBytes& file, const ImageView& into) {
  Request request{file, into, Clock::now(), false, {}};
  std::unique_lock<std::mutex> lock(mutex_);
  ++files_;
  if (state_ == EngineState::Absent || tuning_.max_batch <= 0) return {};
  if (state_ == EngineState::Starting && tuning_.per_file_while_starting) return {};
  queue_.push_back(&request);
  arrived_.notify_one();
  finished_.wait(lock, [&request] { return request.done; });
  return request.result;
}

void JpegBatchDecoder::serve() {
  name_this_thread("jpeg engine");
  const Clock::time_point started = Clock::now();
  std::unique_ptr<JpegBatchEngine> engine;
  try {
    engine = make_engine_();
  } catch (...) {
    engine = nullptr;  // no engine: every file takes the per-file path
  }
  const Clock::time_point made = Clock::now();
  std::string phases = engine ? engine->start_phases() : std::string();
  std::unique_lock<std::mutex> lock(mutex_);
  engine_ = std::move(engine);
  engine_start_ms_ = ms_between(started, made);
  engine_start_phases_ = std::move(phases);
  if (engine_) ready_at_ = made;
  state_ = engine_ ? EngineState::Ready : EngineState::Absent;
  while (true) {
    std::vector<Request*> batch = next_batch(lock);
    if (batch.empty()) break;
    if (state_ == EngineState::Ready) {
      lock.unlock();
      decode_batch(batch);
      lock.lock();
    } else {
      const Clock::time_point now = Clock::now();
      for (Request* request : batch) request->result.waited_ms = ms_between(request->queued, now);
    }
    for (Request* request : batch) request->done = true;
    finished_.notify_all();
  }
}

std::vector<JpegBatchDecoder::Request*> JpegBatchDecoder::next_batch(std::unique_lock<std::mutex>& lock) {
  arrived_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
  if (queue_.empty()) return {};
  const std::size_t full = static_cast<std::size_t>(std::max(1, tuning_.max_batch));
  // Without an engine the queue (files that came while it was being made) is let go at once.
  if (state_ == EngineState::Ready) {
    const auto deadline =
        queue_.front()->queued + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double, std::milli>(tuning_.max_wait_ms));
    arrived_.wait_until(lock, deadline, [this, full] { return stopping_ || queue_.size() >= full; });
  }
  const std::size_t count = state_ == EngineState::Ready ? std::min(full, queue_.size()) : queue_.size();
  std::vector<Request*> batch(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(count));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(count));
  return batch;
}

void JpegBatchDecoder::decode_batch(const std::vector<Request*>& batch) {
  const Clock::time_point began = Clock::now();
  // One call per pixel format (nvJPEG's batches have one output format).
  for (const int channels : {3, 1}) {
    std::vector<Request*> group;
    for (Request* request : batch) {
      if (request->into.format.channels != channels) continue;
      bool accepted = false;
      try {
        accepted = engine_->accepts(request->file, request->into);
      } catch (...) {
        accepted = false;
      }
      if (accepted) group.push_back(request);
    }
    if (!group.empty()) decode_group(group);
  }
  const Clock::time_point ended = Clock::now();
  for (Request* request : batch) {
    request->result.waited_ms = ms_between(request->queued, began);
    // Declined files waited for the batch too, before coming back.
    request->result.decode_ms = ms_between(began, ended);
    if (!request->result.decoded) request->result.waited_ms += request->result.decode_ms;
  }
}

// A call that fails (one file the engine could not read fails them all) is tried again
// in halves, so that only the file at fault comes back undecoded.
void JpegBatchDecoder::decode_group(const std::vector<Request*>& group) {
  std::vector<JpegBytes> files;
  std::vector<ImageView> into;
  for (const Request* request : group) {
    files.push_back(request->file);
    into.push_back(request->into);
  }
  bool decoded = false;
  try {
    decoded = engine_->decode(files, into);
  } catch (...) {
    decoded = false;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++calls_;
    if (decoded) {
      decoded_ += static_cast<long>(group.size());
    } else {
      ++failed_calls_;
    }
  }
  if (decoded) {
    for (Request* request : group) request->result.decoded = true;
    return;
  }
  if (group.size() == 1) return;  // the per-file way reports what is wrong with it
  const auto half = group.begin() + static_cast<std::ptrdiff_t>(group.size() / 2);
  decode_group(std::vector<Request*>(group.begin(), half));
  decode_group(std::vector<Request*>(half, group.end()));
}

bool JpegBatchDecoder::starting() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return state_ == EngineState::Starting;
}

long JpegBatchDecoder::decoded_files() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return decoded_;
}

JpegBatchDecoder::Clock::time_point JpegBatchDecoder::ready_at() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return ready_at_;
}

std::string JpegBatchDecoder::summary() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  char line[256];
  if (state_ == EngineState::Starting) return "gpufilter: hardware JPEG decoding (" + label_ + "): engine not ready yet";
  if (state_ == EngineState::Absent) {
    std::snprintf(line, sizeof line,
                  "gpufilter: hardware JPEG decoding (%s): no hardware JPEG engine (found out after %.0f ms); "
                  "%ld files decoded one by one",
                  label_.c_str(), engine_start_ms_, files_);
    return line;
  }
  const long successful = calls_ - failed_calls_;
  std::snprintf(line, sizeof line,
                "gpufilter: hardware JPEG decoding (%s): %ld of %ld files in %ld calls (%.1f a call), %ld calls "
                "failed; engine ready after %.0f ms",
                label_.c_str(), decoded_, files_, successful,
                successful > 0 ? static_cast<double>(decoded_) / static_cast<double>(successful) : 0.0, failed_calls_,
                engine_start_ms_);
  if (engine_start_phases_.empty()) return line;
  return std::string(line) + " (" + engine_start_phases_ + ")";
}

}  // namespace gpufilter::io
