// gpufilter: apply one registered operation to an image file.
#include <cuda_runtime_api.h>

#include <opencv2/core.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "arguments.hpp"
#include "border_value.hpp"
#include "channel_layout.hpp"
#include "data_output.hpp"
#include "execute.hpp"
#include "exit_codes.hpp"
#include "gpufilter/error.hpp"
#include "gpu_warmup.hpp"
#include "host_memory.hpp"
#include "image_files.hpp"
#include "png_header.hpp"
#include "timing.hpp"
#include "write_output.hpp"

namespace gpufilter::cli {
namespace {

std::string dimensions(std::uint64_t width, std::uint64_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

using Clock = std::chrono::steady_clock;

// The input, decoded, with what the run learnt while reading it.
struct DecodedInput {
  cv::Mat image;
  PixelFormat format;
  ChannelLayout layout = ChannelLayout::AsDecoded;
};

DecodedInput decode_input(const RunRequest& request, StageTimes& times) {
  // "decode": reading IN, its header and then its pixels.
  Stopwatch stage;
  // A small PNG can hold a huge image: refuse it from its header, before decoding.
  const std::optional<PngHeader> png = read_png_header(request.input);
  if (png) {
    require_host_memory(saturating_product({2, png->decoded_bytes()}), "the " + dimensions(png->width, png->height) + " image in " +
                                                       quoted(request.input) + " and its result");
  }
  DecodedInput decoded;
  decoded.image = read_image(request.input, request.autorotate);
  times.add("decode", stage.elapsed_ms());
  decoded.format = pixel_format_of(decoded.image, request.input);
  if (!request.op->supports(decoded.format)) {
    throw CliError(ExitCode::Input, request.op->name + " does not take " + decoded.format.name() + " pixels ('" +
                                        request.input.string() + "')");
  }
  if (png && png->colour_type == PngColourType::GrayAlpha) decoded.layout = ChannelLayout::GrayAlpha;
  return decoded;
}

// The op's output for this input, or a usage error saying why its parameters do not fit
// the image (a crop rectangle outside it).
ImageShape output_shape_of(const RunRequest& request, const DecodedInput& input) {
  try {
    return request.op->output_shape_for(ImageShape{input.image.cols, input.image.rows, input.format},
                                        request.params);
  } catch (const Error& error) {
    throw CliError(ExitCode::Usage, error.what() + std::string(" ('") + request.input.string() + "')");
  }
}

// A data op (stats, histogram): reads IN, prints the result on stdout, draws --plot.
void run_data_request(RunRequest request, Clock::time_point started) {
  if (!request.plot.empty()) check_output_target(output_destination(request.plot));
  const DeviceSelection selection = select_device(request.device);
  std::optional<GpuWarmup> warmup;
  if (selection.device == Device::Gpu) warmup.emplace();
  StageTimes times;
  times.add("start", Stopwatch(started).elapsed_ms());
  DecodedInput input = decode_input(request, times);
  const DataSource source{request.op->name, request.input,
                          ImageShape{input.image.cols, input.image.rows, input.format}};
  const DataLayout layout = request.op->data_layout(source.shape, request.params);
  std::vector<double> result(layout.size());
  if (!selection.notice.empty()) std::cerr << selection.notice << '\n';
  execute_data(request, selection.device, host_view(input.image, input.format), result, times,
               warmup ? &*warmup : nullptr);
  Stopwatch stage;
  std::cout << format_data(source, layout, result, request.data_format) << std::flush;
  if (!request.plot.empty()) write_chart(output_destination(request.plot), source, layout, result);
  times.add("print", stage.elapsed_ms());
  if (request.timing) std::cerr << times.summary(to_string(selection.device), Stopwatch(started).elapsed_ms()) << '\n';
}

// `started` is when main() began: --timing's total runs from there to the printed line.
void run_request(RunRequest request, Clock::time_point started) {
  if (!request.op->produces_image()) {
    run_data_request(std::move(request), started);
    return;
  }
  const std::filesystem::path output = output_destination(request.output);
  // Cheap checks first, so a typo in OUT costs nothing and leaves nothing behind.
  check_output_target(output);
  if (!request.overwrite && same_file(request.input, output)) {
    throw CliError(ExitCode::Usage, "OUT is the same file as IN; pass --overwrite to replace IN");
  }
  // With --timing, load every kernel when the CUDA context is made (the "cuda start"
  // stage, beside decoding), so "kernel" times the kernel and not its lazy first-launch
  // loading. Must precede the first CUDA call.
  if (request.timing) setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
  const DeviceSelection selection = select_device(request.device);
  // Making the CUDA context takes about as long as decoding a photo: do both at once.
  // The CPU path starts no thread and makes no CUDA call.
  std::optional<GpuWarmup> warmup;
  if (selection.device == Device::Gpu) warmup.emplace();

  // "start": arguments, output checks and choosing the device (which starts the driver).
  StageTimes times;
  times.add("start", Stopwatch(started).elapsed_ms());
  DecodedInput input = decode_input(request, times);
  const PixelFormat format = input.format;
  const ImageShape out = output_shape_of(request, input);
  // The output keeps a gray+alpha PNG's layout only where it keeps its pixel format.
  const ChannelLayout layout = out.format == format ? input.layout : ChannelLayout::AsDecoded;
  request.border = border_for_input(request, format, input.layout, request.input);
  const OutputFit fit = check_output_holds(output, out.format);
  if (fit == OutputFit::FlattenAlpha) {
    std::cerr << "gpufilter: note: " << output.extension().string() << " holds no alpha: the image is flattened onto "
              << request.background.name << " (--background)\n";
  }

  // Host memory stays near one input and one output image: both devices read the
  // decoded Mat and write the result Mat directly.
  const std::uint64_t result_bytes =
      std::uint64_t{static_cast<std::uint64_t>(out.width)} * static_cast<std::uint64_t>(out.height) *
      out.format.pixel_bytes();
  require_host_memory(result_bytes, "the " + dimensions(static_cast<std::uint64_t>(out.width),
                                                        static_cast<std::uint64_t>(out.height)) +
                                        " " + out.format.name() + " result");
  if (!selection.notice.empty()) std::cerr << selection.notice << '\n';
  cv::Mat result(out.height, out.width, cv_type_of(out.format));
  execute(request, selection.device, host_view(input.image, format), host_view(result, out.format), times,
          warmup ? &*warmup : nullptr);
  input.image.release();  // the encoder's buffer can take its place

  Stopwatch stage;
  if (fit == OutputFit::FlattenAlpha) {
    result = flatten_onto(result, request.background);
    write_image_atomically(output, result, PixelFormat{out.format.type, 3}, ChannelLayout::AsDecoded, request.encode);
  } else {
    write_image_atomically(output, result, out.format, layout, request.encode);
  }
  times.add("encode", stage.elapsed_ms());
  result.release();  // before the line, so the total holds it
  if (request.timing) std::cerr << times.summary(to_string(selection.device), Stopwatch(started).elapsed_ms()) << '\n';
}

int run(int argc, const char* const* argv, Clock::time_point started) {
  silence_codec_logging();
  const Command command = parse_command_line(argc, argv);
  if (const auto* reply = std::get_if<TextReply>(&command)) {
    std::cout << reply->text << std::flush;
    return static_cast<int>(ExitCode::Ok);
  }
  run_request(std::get<RunRequest>(command), started);
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

// Ends the process without running static destructors and atexit handlers: the CUDA
// runtime's handler destroys the context, tens of milliseconds spent freeing what the OS
// frees anyway. By now OUT is renamed into place and every thread is joined; only the
// standard streams need flushing.
[[noreturn]] void exit_promptly(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

}  // namespace
}  // namespace gpufilter::cli

int main(int argc, char** argv) {
  // First, so that --timing's "start" and "total" hold argument parsing and device selection.
  const auto started = gpufilter::cli::Clock::now();
  gpufilter::cli::exit_promptly(gpufilter::cli::run_and_report(argc, argv, started));
}
