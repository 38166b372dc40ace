// gpufilter: apply one registered operation to an image file.
#include <cuda_runtime_api.h>

#include <opencv2/core.hpp>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <variant>

#include "arguments.hpp"
#include "execute.hpp"
#include "exit_codes.hpp"
#include "gpufilter/error.hpp"
#include "image_files.hpp"
#include "timing.hpp"

namespace gpufilter::cli {
namespace {

void run_request(const RunRequest& request) {
  const std::filesystem::path output = output_destination(request.output);
  // Cheap checks first, so a typo in OUT costs nothing and leaves nothing behind.
  check_output_target(output);
  if (!request.overwrite && same_file(request.input, output)) {
    throw CliError(ExitCode::Usage, "OUT is the same file as IN; pass --overwrite to replace IN");
  }
  // With --timing, load every kernel when the CUDA context is made (the "setup"
  // stage), so "kernel" times the kernel and not its lazy first-launch loading.
  // Must precede the first CUDA call.
  if (request.timing) setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
  const DeviceSelection selection = select_device(request.device);

  Stopwatch total;
  StageTimes times;
  Stopwatch stage;
  const cv::Mat input = read_image(request.input);
  times.add("decode", stage.elapsed_ms());
  const PixelFormat format = pixel_format_of(input, request.input);
  if (!request.op->supports(format)) {
    throw CliError(ExitCode::Input, request.op->name + " does not take " + format.name() + " pixels ('" +
                                        request.input.string() + "')");
  }
  check_output_holds(output, format);

  if (!selection.notice.empty()) std::cerr << selection.notice << '\n';
  cv::Mat result(input.rows, input.cols, input.type());
  execute(request, selection.device, host_view(input, format), host_view(result, format), times);

  stage.restart();
  write_image_atomically(output, result, format);
  times.add("encode", stage.elapsed_ms());
  if (request.timing) std::cerr << times.summary(to_string(selection.device), total.elapsed_ms()) << '\n';
}

int run(int argc, const char* const* argv) {
  silence_codec_logging();
  const Command command = parse_command_line(argc, argv);
  if (const auto* reply = std::get_if<TextReply>(&command)) {
    std::cout << reply->text << std::flush;
    return static_cast<int>(ExitCode::Ok);
  }
  run_request(std::get<RunRequest>(command));
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

}  // namespace
}  // namespace gpufilter::cli

int main(int argc, char** argv) {
  using namespace gpufilter::cli;
  try {
    return run(argc, argv);
  } catch (const CliError& error) {
    return fail(error.code(), error.what());
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
