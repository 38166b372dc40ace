#include "batch_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/io/batch.hpp"
#include "gpufilter/io/quiet_stderr.hpp"
#include "progress.hpp"
#include "server_auto.hpp"

namespace gpufilter::cli {
namespace {

// The batch's lines and files, shown by a Progress from the moment the files start to
// run (what comes before, such as the CPU fallback's notice, is printed as it comes).
class ProgressListener final : public io::BatchListener {
 public:
  ProgressListener(std::size_t files, bool live) : files_(files), live_(live) {}
  void started() override {
    if (!progress_) progress_.emplace(files_, live_);
  }
  void message(const std::string& line) override {
    if (progress_) {
      progress_->message(line);
    } else {
      io::write_stderr(line);
    }
  }
  void file_done(std::uint64_t input_bytes, bool ok) override { progress_->file_done(input_bytes, ok); }
  Progress& progress() {
    started();
    return *progress_;
  }

 private:
  std::size_t files_;
  bool live_;
  std::optional<Progress> progress_;
};

// "gpufilter: 500 of 500 files written to 'out' in 2.94 s (170.1 files/s, 812.4 MB/s read);
// GPU 0: 250, GPU 1: 250; 2 failed"
std::string summary(const io::BatchResult& result, std::size_t files, const std::filesystem::path& out_dir,
                    Progress& progress) {
  const double seconds = progress.elapsed_s();
  const std::size_t written = files - progress.failed();
  char line[256];
  std::snprintf(line, sizeof line, "gpufilter: %zu of %zu files written to '%s' in %.2f s (%.1f files/s, %.1f MB/s read)",
                written, files, out_dir.string().c_str(), seconds,
                seconds > 0 ? static_cast<double>(files) / seconds : 0.0,
                seconds > 0 ? static_cast<double>(progress.bytes()) / 1e6 / seconds : 0.0);
  std::string text = line;
  if (result.devices.size() > 1) {
    for (std::size_t d = 0; d < result.devices.size(); ++d)
      text += (d ? ", GPU " : "; GPU ") + std::to_string(result.devices[d]) + ": " +
              std::to_string(result.runs_per_device[d]);
  }
  if (progress.failed()) text += "; " + std::to_string(progress.failed()) + " failed";
  return text;
}

}  // namespace

ExitCode run_batch_command(const io::RunRequest& request) {
  const io::BatchOptions& options = *request.batch;
  const std::vector<io::BatchItem> items = io::plan_batch(request);
  ProgressListener listener(items.size(), !options.quiet && ::isatty(STDERR_FILENO));
  const io::BatchResult result = io::run_batch(request, items, listener);
  if (!result.devices.empty()) note_ran_on_gpu();
  Progress& progress = listener.progress();
  progress.finish();
  if (result.stopped) {
    const std::size_t written = progress.done() - progress.failed();
    io::write_stderr("gpufilter: stopped: " + std::to_string(written) + " of " + std::to_string(items.size()) +
                     " files written to '" + options.out_dir.string() + "' before the stop\n");
    return result.first_failure ? exit_code(*result.first_failure) : ExitCode::Runtime;
  }
  if (!options.quiet) io::write_stderr(summary(result, items.size(), options.out_dir, progress) + "\n");
  for (const std::string& line : result.timing) io::write_stderr(line + "\n");
  return result.first_failure ? exit_code(*result.first_failure) : ExitCode::Ok;
}

}  // namespace gpufilter::cli
