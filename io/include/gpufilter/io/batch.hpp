#pragma once
/// @file
/// Many files through one op (RunRequest::batch; gpufilter OP IN... --out-dir DIR): a pool
/// of threads decodes and encodes on the CPU cores while the GPUs' workspaces run the op,
/// so the stages of different files overlap. A file that fails is named and skipped; the
/// rest finish.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/io/batch_inputs.hpp"
#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/run_request.hpp"

namespace gpufilter::io {

/// What a batch tells its caller while it runs. message() and file_done() come from the
/// worker threads, several at once.
class BatchListener {
 public:
  virtual ~BatchListener() = default;
  /// The device is chosen and the files start to run (called once, before any file_done).
  virtual void started() {}
  /// A whole line, '\n' included: a note or an error naming one file, or why the run
  /// fell back to the CPU.
  virtual void message(const std::string& line) = 0;
  /// One file written (ok) or failed, having read `input_bytes` from its file.
  virtual void file_done(std::uint64_t input_bytes, bool ok) = 0;
  /// The same file by its place in the batch's items, for a caller that keeps one result
  /// per file: `error` is why it failed (one line, as the error message() names it, without
  /// the "gpufilter: error: IN: " before it), empty when it was written. Called once for
  /// each file the batch ran, before its file_done(); files a stop left unrun get none.
  virtual void file_result(std::size_t /*item*/, bool /*ok*/, const std::string& /*error*/) {}
};

struct BatchResult {
  std::optional<Fault> first_failure;  ///< the first failed file's; none: every file was written
  bool stopped = false;                ///< stop_request() ended the batch early
  std::vector<int> devices;            ///< the GPUs it ran on; empty on the CPU
  std::vector<long> runs_per_device;   ///< files run on each of `devices`
  /// With request.timing: the summed stages, each GPU's batched JPEG decoding, the
  /// decoders and the throughput, a line each (no '\n').
  std::vector<std::string> timing;
};

/// Runs `items` (plan_batch(request)) through request.op on request.device. Throws
/// IoError or gpufilter::Error for what stops the whole batch before it starts (no GPU
/// with DeviceChoice::Gpu, request.devices naming a GPU that is not there).
BatchResult run_batch(const RunRequest& request, const std::vector<BatchItem>& items, BatchListener& listener);

}  // namespace gpufilter::io
