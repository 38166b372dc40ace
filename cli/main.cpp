// gpufilter: apply one registered operation to an image file.
#include <cuda_runtime_api.h>

#include <opencv2/core.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "arguments.hpp"
#include "batch_command.hpp"
#include "data_output.hpp"
#include "exit_codes.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/content_format.hpp"
#include "gpufilter/io/execute.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/io/gpu_jpeg_file.hpp"
#include "gpufilter/io/gpu_warmup.hpp"
#include "gpufilter/io/image_files.hpp"
#include "gpufilter/io/image_size.hpp"
#include "gpufilter/io/process_file.hpp"
#include "gpufilter/io/resident_gpus.hpp"
#include "gpufilter/io/spooled_input.hpp"
#include "gpufilter/io/standard_streams.hpp"
#include "gpufilter/io/timing.hpp"
#include "server.hpp"
#include "server_auto.hpp"
#include "visible_gpus.hpp"

namespace gpufilter::cli {
namespace {

namespace codecs = io::codecs;
using io::CodecChoice;
using io::DeviceChoice;
using io::GpuWarmup;
using io::ResidentGpus;
using io::RunRequest;
using io::SingleFileRunner;
using io::StageTimes;
using io::Stopwatch;

using Clock = std::chrono::steady_clock;

// The runner for a single file. CUDA starts now on a thread of its own (finding the
// driver and the GPU as well as making the context), beside reading and decoding IN;
// the CPU path starts no thread and makes no CUDA call. In a server the GPU was started
// before the request, and its resident workspace runs the file.
struct SingleRun {
  std::optional<GpuWarmup> warmup;
  std::optional<SingleFileRunner> runner;

  // `jpeg_on_gpu`: IN may go to nvJPEG, whose handles are then made beside decoding too.
  explicit SingleRun(const RunRequest& request, bool jpeg_on_gpu = false) {
    const int device = request.devices.empty() ? 0 : request.devices.front();
    ResidentGpus* resident = ResidentGpus::active();
    GpuWarmup* started = nullptr;
    if (request.device != DeviceChoice::Cpu)
      started = resident != nullptr ? &resident->warmup(device) : &warmup.emplace(device, jpeg_on_gpu);
    runner.emplace(started, request.device, resident);
  }
  const char* device_name() const { return to_string(runner->device()); }
};

// OUT '-' without --format: standard output in IN's format, as its first bytes show it,
// else as its suffix names it.
// `content` is where IN's bytes are (standard input and pipes: their copy in memory),
// `name` what the command line named ("-" for standard input).
std::filesystem::path standard_output_in_format_of(const std::filesystem::path& content,
                                                   const std::filesystem::path& name) {
  const bool standard_input = name == "-";
  std::string suffix = io::suffix_of_content(content);
  if (suffix.empty() && !standard_input) suffix = name.extension().string();
  if (suffix.empty())
    throw CliError(ExitCode::Usage, "OUT '-' is written in IN's format, which neither " +
                                        std::string(standard_input ? "standard input's first bytes" : "IN's first bytes nor its name") +
                                        " show: name one with --format (png, jpg, ...)");
  return io::standard_output_path(suffix);
}

// A data op (stats, histogram): reads IN, prints the result on stdout, draws --plot.
void run_data_request(const RunCommand& request, Clock::time_point started) {
  if (!request.plot.empty()) {
    io::check_output_target(request.plot);
    io::refuse_existing_output(request.plot, request.encode.replace_existing, "--plot");
  }
  SingleRun single(request);
  StageTimes times;
  times.add("start", Stopwatch(started).elapsed_ms());
  const io::DataFileResult result = io::process_data_file(request, request.input, *single.runner, times);
  Stopwatch stage;
  const std::string printed = format_data(result.source, result.layout, result.values, request.data_format);
  io::write_standard_output(printed.data(), printed.size(), "the " + request.op->name + " result");
  if (!request.plot.empty()) write_chart(request.plot, result.source, result.layout, result.values, request.encode);
  times.add("print", stage.elapsed_ms());
  if (single.runner->device() == io::Device::Gpu) note_ran_on_gpu();
  if (request.timing)
    std::cerr << times.summary(single.device_name(), Stopwatch(started).elapsed_ms()) << '\n';
}

// `started` is when main() began: --timing's total runs from there to the printed line.
void run_request(const RunCommand& given, Clock::time_point started) {
  if (!given.op->produces_image()) {
    run_data_request(given, started);
    return;
  }
  // One file: nvJPEG's start-up (a library handle and its states, docs/gpu-results.md,
  // "Codecs and the CLI end to end") outweighs what it saves over OpenCV's codecs on one
  // photo, so `auto` keeps OpenCV here; batches pay that start-up once, and a server
  // paid it before its first request.
  RunRequest request = given;
  if (request.codec == CodecChoice::Auto && ResidentGpus::active() == nullptr) request.codec = CodecChoice::Cpu;
  // CUDA starts first, beside the codecs' loading, the output checks and decoding.
  SingleRun single(request,
                   request.codec != CodecChoice::Cpu && io::gpu_jpeg_built() && io::starts_like_jpeg(request.input));
  // Cheap checks before reading, so a typo in OUT leaves nothing behind.
  io::check_output_path(request, request.input, request.output);
  // "start": arguments and output checks.
  StageTimes times;
  times.add("start", Stopwatch(started).elapsed_ms());
  std::string notes;
  io::process_image_file(request, request.input, request.output, *single.runner, times, notes);
  if (single.runner->device() == io::Device::Gpu) note_ran_on_gpu();
  std::cerr << notes;
  if (request.timing)
    std::cerr << times.summary(single.device_name(), Stopwatch(started).elapsed_ms()) << '\n';
}

int run(int argc, const char* const* argv, Clock::time_point started) {
  io::silence_codec_logging();
  const Command command = parse_command_line(argc, argv);
  if (const auto* reply = std::get_if<TextReply>(&command)) {
    io::write_standard_output(reply->text.data(), reply->text.size(), "the reply");
    return static_cast<int>(ExitCode::Ok);
  }
  RunCommand request = std::get<RunCommand>(command);
  // In its own process (a server's GPUs are started already, its environment fixed).
  if (ResidentGpus::active() == nullptr) see_only_the_gpu_it_uses(request);
  // OpenCV reads its decoders' limits once, when the codec module loads: set them first.
  io::set_decoder_pixel_limit(request.max_pixels);
  // Beside the run's start, unless the tool's own codecs take the files (PNG, JPEG; a
  // file that they decline loads the module when it gets there).
  if (!(codecs::own_codec_takes(request.input) &&
        (codecs::own_codec_takes("image" + io::output_suffix(request.output, request.encode.format)) ||
         !request.op->produces_image())) ||
      request.batch)
    codecs::start_loading();
  if (request.batch) return static_cast<int>(run_batch_command(request));
  // An input that reads once (standard input, a pipe) is read here, into memory, once.
  const std::filesystem::path named_input = request.input;
  std::optional<io::SpooledInput> spooled;
  const std::uint64_t spool_limit = io::spool_limit(request.max_pixels);
  if (request.input == "-") {
    request.input = spooled.emplace(spool_limit, request.max_pixels).path();
  } else if (io::reads_once(request.input)) {
    request.input = spooled.emplace(request.input, spool_limit, request.max_pixels).path();
  }
  if (request.output == "-") request.output = standard_output_in_format_of(request.input, named_input);
  try {
    run_request(request, started);
  } catch (const io::IoError& error) {
    if (!spooled) throw;
    throw io::IoError(error.fault(), spooled->describe(error.what()));
  }
  return static_cast<int>(ExitCode::Ok);
}

ExitCode exit_code_for(const Error& error) {
  switch (error.code()) {
    case ErrorCode::UnsupportedFormat: return ExitCode::Input;
    case ErrorCode::InvalidArgument:
    case ErrorCode::NoDevice:
    case ErrorCode::OutOfMemory:
    case ErrorCode::Cuda: return ExitCode::Runtime;
  }
  return ExitCode::Runtime;
}

int fail(ExitCode code, std::string message) {
  // Scripts read the error as one line; library and codec messages may hold newlines.
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << "gpufilter: error: " << message << std::endl;
  return static_cast<int>(code);
}

int run_and_report(int argc, const char* const* argv, Clock::time_point started) {
  try {
    return run(argc, argv, started);
  } catch (const io::IoError& error) {
    return fail(exit_code(error.fault()), error.what());
  } catch (const gpufilter::Error& error) {
    return fail(exit_code_for(error), error.what());
  } catch (const cv::Exception& error) {
    return fail(ExitCode::Runtime, "OpenCV: " + error.err);
  } catch (const std::bad_alloc&) {
    return fail(ExitCode::Runtime, "out of host memory");
  } catch (const std::exception& error) {
    return fail(ExitCode::Runtime, error.what());
  }
}

// ---- gpufilter server (server.hpp) ---------------------------------------------------

// Whether a server runs this forwarded command line. OpenCV read its decoders' pixel
// limit when the server loaded its codecs (the default --max-pixels): a command with
// another limit runs in its own process. Anything that cannot be parsed runs in the
// server, to be reported as usual.
bool accepts_forwarded(int argc, const char* const* argv) {
  try {
    const Command command = parse_command_line(argc, argv);
    if (const auto* request = std::get_if<RunCommand>(&command); request != nullptr && request->max_pixels != RunRequest{}.max_pixels)
      return false;
  } catch (...) {
  }
  return true;
}

int serve_forwarded(int argc, const char* const* argv, Clock::time_point started) {
  codecs::set_threads_per_file(0);  // as a process of its own starts (a batch sets it)
  return run_and_report(argc, argv, started);
}

// For a caller whose server ended mid-command: what it may have written, as far as the
// command line tells.
std::string outputs_after_a_lost_server(int argc, const char* const* argv) {
  const std::string whole = "each file it wrote is whole (a hidden temporary file may be left beside it)";
  try {
    const Command command = parse_command_line(argc, argv);
    const auto* request = std::get_if<RunCommand>(&command);
    if (request == nullptr || request->batch) return "its outputs may be incomplete: " + whole;
    if (!request->op->produces_image()) return "what it printed may be cut short";
    return "OUT '" + request->output.string() + "' is either the new image, whole, or as it was before";
  } catch (...) {
    return "its outputs may be incomplete: " + whole;
  }
}

// Before the server says it is ready: the codec libraries loaded; on every GPU, the
// context, nvJPEG's handle, a workspace with its nvJPEG states and the hardware engine.
void warm_up_server() {
  io::silence_codec_logging();
  io::set_decoder_pixel_limit(RunRequest{}.max_pixels);
  codecs::start_loading();
  ResidentGpus::activate();
  try {
    codecs::have_writer("warm.tif");  // waits for the codec module (PNG and JPEG need none)
  } catch (...) {
    // A command that needs the codecs reports it.
  }
}

const ServerHooks& server_hooks() {
  static const ServerHooks hooks{accepts_forwarded, serve_forwarded, warm_up_server,
                                 [] { return ResidentGpus::active() == nullptr || ResidentGpus::active()->healthy(); }};
  return hooks;
}

int run_server(int argc, const char* const* argv) {
  try {
    return run_server_command(argc, argv, server_hooks());
  } catch (const io::IoError& error) {
    return fail(exit_code(error.fault()), error.what());
  } catch (const std::exception& error) {
    return fail(ExitCode::Runtime, error.what());
  }
}

// Whether the command line names its GPUs (--devices N,M or --devices=all).
bool names_devices(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).rfind("--devices", 0) == 0) return true;
  return false;
}

}  // namespace
}  // namespace gpufilter::cli

// The tool's entry points (tool_library.hpp), called by the front (front.cpp) once no
// server took the command.
extern "C" __attribute__((visibility("default"))) [[noreturn]] void gpufilter_tool_run(int argc, char** argv,
                                                                                       long long started_ns) {
  using namespace gpufilter::cli;
  const Clock::time_point started{std::chrono::nanoseconds(started_ns)};
  remember_initial_environment();
  // Past a file-size limit (ulimit -f) a write then fails with EFBIG, reported as any
  // write error, and the unfinished output is removed; the signal would kill the run
  // with the temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  if (is_server_command(argc, argv)) exit_promptly(run_server(argc, argv));
  const int status = run_and_report(argc, argv, started);
  // Done in its own process: later commands may find a server (server_auto.hpp's rule).
  if (status == 0) leave_a_server_for_later(names_devices(argc, argv));
  exit_promptly(status);
}

extern "C" __attribute__((visibility("default"))) const char* gpufilter_tool_lost_server_note(int argc,
                                                                                            const char* const* argv) {
  static std::string note;
  note = gpufilter::cli::outputs_after_a_lost_server(argc, argv);
  return note.c_str();
}
