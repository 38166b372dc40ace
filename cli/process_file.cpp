#include "process_file.hpp"

#include <opencv2/core.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>

#include "border_value.hpp"
#include "channel_layout.hpp"
#include "channel_order.hpp"
#include "exit_codes.hpp"
#include "flatten_alpha.hpp"
#include "gpufilter/error.hpp"
#include "host_memory.hpp"
#include "image_size.hpp"
#include "jpeg_header.hpp"
#include "image_files.hpp"
#include "png_header.hpp"
#include "write_output.hpp"

namespace gpufilter::cli {
namespace {

std::string dimensions(std::uint64_t width, std::uint64_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

// The input, decoded, with what was learnt while reading it.
struct DecodedInput {
  cv::Mat image;
  PixelFormat format;
  ChannelLayout layout = ChannelLayout::AsDecoded;
  std::vector<JpegSegment> jpeg_metadata;  // EXIF and ICC segments of a JPEG input
  ImageShape shape() const { return ImageShape{image.cols, image.rows, format}; }
};

DecodedInput decode_input(const RunRequest& request, const std::filesystem::path& input, StageTimes& times) {
  // "decode": reading IN, its header and then its pixels.
  Stopwatch stage;
  // Both from the file's header, before decoding: an image over the pixel limit, and a
  // small PNG that holds a huge image.
  const std::optional<PngHeader> png = read_png_header(input);
  std::optional<JpegHeader> jpeg = png ? std::nullopt : read_jpeg_header(input);
  if (png || jpeg) {
    const std::uint64_t width = png ? png->width : jpeg->width, height = png ? png->height : jpeg->height;
    const std::uint64_t pixels = width * height;  // each side < 2^32: no overflow
    if (pixels > request.max_pixels) {
      char text[256];
      std::snprintf(text, sizeof text,
                    " is %llux%llu, %.1f megapixels: more than the limit of %.1f megapixels that guards against "
                    "decompression bombs (--max-pixels N raises it)",
                    static_cast<unsigned long long>(width), static_cast<unsigned long long>(height),
                    static_cast<double>(pixels) / 1e6, static_cast<double>(request.max_pixels) / 1e6);
      throw CliError(ExitCode::Input, quoted(input) + text);
    }
  }
  if (png) {
    require_host_memory(saturating_product({2, png->decoded_bytes()}),
                        "the " + dimensions(png->width, png->height) + " image in " + quoted(input) +
                            " and its result");
  }
  DecodedInput decoded;
  decoded.image = read_image(input, request.autorotate);
  to_library_order(decoded.image);
  times.add("decode", stage.elapsed_ms());
  decoded.format = pixel_format_of(decoded.image, input);
  if (!request.op->supports(decoded.format)) {
    throw CliError(ExitCode::Input,
                   request.op->name + " does not take " + decoded.format.name() + " pixels (" + quoted(input) + ")");
  }
  if (png && png->colour_type == PngColourType::GrayAlpha) decoded.layout = ChannelLayout::GrayAlpha;
  if (jpeg) {
    // Carried into a JPEG OUT; pixels turned upright keep an upright tag.
    decoded.jpeg_metadata = std::move(jpeg->metadata);
    if (request.autorotate)
      for (JpegSegment& segment : decoded.jpeg_metadata) reset_exif_orientation(segment);
  }
  return decoded;
}

// The op's output for this input, or a usage error saying why its parameters do not fit
// the image (a crop rectangle outside it).
ImageShape output_shape_of(const RunRequest& request, const ImageShape& shape, const std::filesystem::path& input) {
  try {
    return request.op->output_shape_for(shape, request.params);
  } catch (const Error& error) {
    throw CliError(ExitCode::Usage, error.what() + std::string(" (") + quoted(input) + ")");
  }
}

}  // namespace

void check_output_path(const RunRequest& request, const std::filesystem::path& input,
                       const std::filesystem::path& output) {
  check_output_target(output_destination(output));
  if (!request.overwrite && same_file(input, output_destination(output))) {
    throw CliError(ExitCode::Usage, "OUT is the same file as IN (" + quoted(input) + "); pass --overwrite to replace IN");
  }
}

void process_image_file(const RunRequest& given, const std::filesystem::path& input,
                        const std::filesystem::path& output_name, Runner& runner, StageTimes& times,
                        std::string& notes) {
  RunRequest request = given;
  const std::filesystem::path output = output_destination(output_name);
  DecodedInput decoded = decode_input(request, input, times);
  const PixelFormat format = decoded.format;
  ImageShape out = output_shape_of(request, decoded.shape(), input);
  request.border = border_for_input(request, format, decoded.layout, input);
  // A chain: each step takes the previous one's output, with its border judged against
  // the pixels it reads.
  for (RunRequest& step : request.chain) {
    if (!step.op->supports(out.format)) {
      throw CliError(ExitCode::Input, step.op->name + " does not take " + out.format.name() + " pixels, which the op "
                                          "before it in the chain gives (" + quoted(input) + ")");
    }
    step.border = border_for_input(step, out.format, ChannelLayout::AsDecoded, input);
    out = output_shape_of(step, out, input);
  }
  // The output keeps a gray+alpha PNG's layout only where it keeps its pixel format.
  const ChannelLayout layout = out.format == format ? decoded.layout : ChannelLayout::AsDecoded;
  const OutputFit fit = check_output_holds(output, out.format);
  if (fit == OutputFit::FlattenAlpha) {
    notes += "gpufilter: note: " + output.extension().string() + " holds no alpha: the image is flattened onto " +
             request.background.name + " (--background)\n";
  }

  // Host memory stays near one input and one output image: both devices read the
  // decoded Mat and write the result Mat directly.
  const std::uint64_t result_bytes = static_cast<std::uint64_t>(out.width) *
                                     static_cast<std::uint64_t>(out.height) * out.format.pixel_bytes();
  require_host_memory(result_bytes, "the " + dimensions(static_cast<std::uint64_t>(out.width),
                                                        static_cast<std::uint64_t>(out.height)) +
                                        " " + out.format.name() + " result");
  // Zeroed now, so its pages are mapped before the run: a download into fresh pageable
  // memory faults every page in as it goes (40 ms of a 24 MP photo's 51 ms download),
  // while here the main thread would otherwise only wait for CUDA to start.
  cv::Mat result = cv::Mat::zeros(out.height, out.width, cv_type_of(out.format));
  runner.run_image(request, host_view(decoded.image, format), host_view(result, out.format), times);
  decoded.image.release();  // the encoder's buffer can take its place

  Stopwatch stage;
  to_codec_order(result);
  if (fit == OutputFit::FlattenAlpha) {
    result = flatten_onto(result, request.background);
    write_image_atomically(output, result, PixelFormat{out.format.type, 3}, ChannelLayout::AsDecoded, request.encode);
  } else {
    write_image_atomically(output, result, out.format, layout, request.encode, decoded.jpeg_metadata);
  }
  times.add("encode", stage.elapsed_ms());
}

DataFileResult process_data_file(const RunRequest& request, const std::filesystem::path& input, Runner& runner,
                                 StageTimes& times) {
  DecodedInput decoded = decode_input(request, input, times);
  DataFileResult result{DataSource{request.op->name, input, decoded.shape()}, {}, {}};
  result.layout = request.op->data_layout(result.source.shape, request.params);
  result.values.assign(result.layout.size(), 0.0);
  runner.run_data(request, host_view(decoded.image, decoded.format), result.values, times);
  return result;
}

}  // namespace gpufilter::cli
