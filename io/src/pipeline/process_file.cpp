#include "gpufilter/io/process_file.hpp"

#include <opencv2/core.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <utility>

#include "pipeline/border_value.hpp"
#include "gpufilter/io/channel_layout.hpp"
#include "codecs/channel_order.hpp"
#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/flatten_alpha.hpp"
#include "gpufilter/io/gpu_jpeg_file.hpp"
#include "gpufilter/error.hpp"
#include "files/host_memory.hpp"
#include "gpufilter/io/image_size.hpp"
#include "gpufilter/io/image_files.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/jpeg_file.hpp"
#include "codecs/codec.hpp"
#include "gpufilter/io/standard_streams.hpp"
#include "gpufilter/io/stop_request.hpp"
#include "gpufilter/io/write_output.hpp"
#include "files/quoted_path.hpp"

namespace gpufilter::io {
namespace {

std::string dimensions(std::uint64_t width, std::uint64_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

// A JPEG for nvJPEG where the run is on a GPU of a build that has it ("read": the file
// into memory; the wait for CUDA's start is shown beside it).
std::optional<GpuJpegFile> gpu_jpeg_input(const RunRequest& request, const std::filesystem::path& input,
                                          const JpegHeader& header, Runner& runner, StageTimes& times,
                                          Stopwatch& stage) {
  if (request.codec == CodecChoice::Cpu) return std::nullopt;
  if (request.codec == CodecChoice::Gpu && !gpu_jpeg_built())
    throw IoError(Fault::Runtime, "--codec gpu, but this gpufilter was built without nvJPEG");
  std::optional<GpuJpegFile> jpeg = read_gpu_jpeg_file(input, header, request.autorotate);
  if (!jpeg) return std::nullopt;
  times.add("read", stage.elapsed_ms());
  const bool on_gpu = runner.takes_gpu_jpeg(times, "read");
  stage.restart();
  if (on_gpu) return jpeg;
  if (request.codec == CodecChoice::Gpu)
    throw IoError(Fault::Runtime, "--codec gpu, but the run is on the CPU, where nvJPEG cannot be used");
  return std::nullopt;
}

// `gpu_jpeg_runner`: the runner to ask whether nvJPEG may read a JPEG input; null for
// OpenCV alone. `metadata_read_before`: IN's metadata where a first attempt read it.
DecodedInput decode_input(const RunRequest& request, const std::filesystem::path& input, StageTimes& times,
                          Runner* gpu_jpeg_runner = nullptr, const ImageMetadata* metadata_read_before = nullptr) {
  // "decode": reading IN, its header and then its pixels.
  Stopwatch stage;
  // Both from the file's header (the first codec of the table that reads it), before
  // decoding: an image over the pixel limit, and a small file that holds a huge image.
  const std::optional<codecs::ImageHeader> header = codecs::header(input.string());
  const bool jpeg = header && header->format == ".jpg";
  if (header) {
    const std::uint64_t width = header->width;
    const std::uint64_t height = header->height;
    const std::uint64_t pixels = width * height;  // each side < 2^32: no overflow
    if (pixels > request.max_pixels) {
      char text[256];
      std::snprintf(text, sizeof text,
                    " is %llux%llu, %.1f megapixels: more than the limit of %.1f megapixels that guards against "
                    "decompression bombs (--max-pixels N raises it)",
                    static_cast<unsigned long long>(width), static_cast<unsigned long long>(height),
                    static_cast<double>(pixels) / 1e6, static_cast<double>(request.max_pixels) / 1e6);
      throw IoError(Fault::Input, quoted(input) + text);
    }
  }
  if (header && header->decoded_bytes > 0) {
    require_host_memory(saturating_product({2, header->decoded_bytes}),
                        "the " + dimensions(header->width, header->height) + " image in " + quoted(input) +
                            " and its result");
  }
  DecodedInput decoded;
  if (metadata_read_before != nullptr) {
    decoded.metadata = *metadata_read_before;
  } else if (!request.strip && request.op->produces_image()) {
    // Read once, for whichever path writes OUT. A JPEG's pixels are turned upright on
    // read (read_image, GpuJpegFile), so its tag then says upright.
    decoded.metadata = ImageMetadata::read(input);
    if (jpeg && request.autorotate) decoded.metadata.reset_orientation();
  }
  // nvJPEG's path needs the JPEG header whole (its frame, subsampling and markers): read
  // again only where the path is open, not on every run's way to the CPU decoder.
  const std::optional<JpegHeader> jpeg_header =
      gpu_jpeg_runner != nullptr && jpeg ? read_jpeg_header(input) : std::nullopt;
  if (jpeg_header) {
    decoded.gpu_jpeg = gpu_jpeg_input(request, input, *jpeg_header, *gpu_jpeg_runner, times, stage);
    if (decoded.gpu_jpeg) {
      decoded.format = decoded.gpu_jpeg->format();
      if (!request.op->supports(decoded.format)) {
        throw IoError(Fault::Input, request.op->name + " does not take " + decoded.format.name() + " pixels (" +
                                            quoted(input) + ")");
      }
      return decoded;
    }
  }
  decoded.image = read_image(input, request.autorotate);
  to_library_order(decoded.image);
  times.add("decode", stage.elapsed_ms());
  decoded.format = pixel_format_of(decoded.image, input);
  if (!request.op->supports(decoded.format)) {
    throw IoError(Fault::Input,
                   request.op->name + " does not take " + decoded.format.name() + " pixels (" + quoted(input) + ")");
  }
  if (header) decoded.layout = header->layout;
  return decoded;
}

// The op's output for this input, or a usage error saying why its parameters do not fit
// the image (a crop rectangle outside it).
ImageShape output_shape_of(const RunRequest& request, const ImageShape& shape, const std::filesystem::path& input) {
  try {
    return request.op->output_shape_for(shape, request.params);
  } catch (const Error& error) {
    throw IoError(Fault::Request, error.what() + std::string(" (") + quoted(input) + ")");
  }
}

// The host image a run writes its `out`-shaped result into. `for_download`: a GPU may
// fill it.
cv::Mat result_image(const ImageShape& out, bool for_download) {
  const std::uint64_t result_bytes = static_cast<std::uint64_t>(out.width) *
                                     static_cast<std::uint64_t>(out.height) * out.format.pixel_bytes();
  require_host_memory(result_bytes, "the " + dimensions(static_cast<std::uint64_t>(out.width),
                                                        static_cast<std::uint64_t>(out.height)) +
                                        " " + out.format.name() + " result");
  // For a download, zeroed now, so its pages are mapped before the run: a download into
  // fresh pageable memory faults every page in as it goes (most of the download's time;
  // docs/cpu-path.md, "Start-up, libraries and pages"), while here the main thread would
  // otherwise only wait for CUDA to start. The CPU path's threads fault their own rows in
  // as they write them.
  if (!for_download) return cv::Mat(out.height, out.width, cv_type_of(out.format));
  return cv::Mat::zeros(out.height, out.width, cv_type_of(out.format));
}

// Encodes the downloaded result with OpenCV (or the PNG writer) into OUT, with IN's
// metadata where OUT's format holds it (warnings about it go to `notes`).
void write_result(const RunRequest& request, const std::filesystem::path& output, cv::Mat& result,
                  const ImageShape& out, OutputFit fit, ChannelLayout layout, const ImageMetadata& metadata,
                  StageTimes& times, std::string& notes) {
  throw_if_cancelled();  // a server's caller gone: no OUT
  Stopwatch stage;
  to_codec_order(result);
  if (fit == OutputFit::FlattenAlpha) {
    result = flatten_onto(result, request.background);
    notes += write_image_atomically(output, result, PixelFormat{out.format.type, 3}, ChannelLayout::AsDecoded,
                                    request.encode, &metadata);
  } else {
    notes += write_image_atomically(output, result, out.format, layout, request.encode, &metadata);
  }
  times.add("encode", stage.elapsed_ms());
}

// Whether the result may be encoded by nvJPEG: OUT is a JPEG that holds it as it is.
bool jpeg_encodes_on_gpu(const RunRequest& request, const std::filesystem::path& output, const ImageShape& out,
                         OutputFit fit) {
  return fit == OutputFit::AsIs && is_jpeg_path("image" + output_suffix(output, request.encode.format)) &&
         out.format.type == ChannelType::U8 &&
         (out.format.channels == 1 || out.format.channels == 3) && request.codec != CodecChoice::Cpu;
}

// `encoded` (a JPEG from nvJPEG of an `out`-shaped result) with IN's metadata, written
// to OUT.
void write_gpu_encoded(const std::filesystem::path& output, std::vector<unsigned char>& encoded,
                       const ImageMetadata& metadata, const ImageShape& out, const EncodeOptions& encode,
                       StageTimes& times, std::string& notes) {
  throw_if_cancelled();  // a server's caller gone: no OUT
  Stopwatch stage;
  notes += write_encoded_atomically(output, std::move(encoded), "JPEG", encode.replace_existing, &metadata, out.width,
                                    out.height, encode.format);
  times.add("write", stage.elapsed_ms());
}

// A JPEG decoded by nvJPEG; the result encoded by nvJPEG too where OUT is a JPEG that
// holds it as it is (only the file's bytes come back from the GPU), else downloaded and
// written as any result. False where nvJPEG refused the file.
bool run_gpu_jpeg(const RunRequest& request, const GpuJpegFile& jpeg, const std::filesystem::path& output,
                  const ImageShape& out, OutputFit fit, ChannelLayout layout, const ImageMetadata& metadata,
                  Runner& runner, StageTimes& times, std::string& notes) {
  const bool encode_on_gpu = jpeg_encodes_on_gpu(request, output, out, fit);
  GpuJpegOutput sink;
  sink.quality = request.encode.jpeg_quality;
  std::vector<unsigned char> encoded;
  cv::Mat result;
  if (encode_on_gpu) {
    sink.encoded = &encoded;
  } else {
    result = result_image(out, true);
    sink.download = host_view(result, out.format);
  }
  if (!runner.run_jpeg(request, jpeg.input(), sink, times)) return false;
  if (!encode_on_gpu) {
    write_result(request, output, result, out, fit, layout, metadata, times, notes);
    return true;
  }
  write_gpu_encoded(output, encoded, metadata, out, request.encode, times, notes);
  return true;
}

// The rest of a file once decoded: the output's shape and checks, the op on `runner`,
// OUT written. `host_to_gpu_jpeg`: a host image whose JPEG result may be encoded on the
// GPU (the CPU decoders' files, which stand for files the GPU would have decoded).
void finish_image_file(const RunRequest& given, const std::filesystem::path& input,
                       const std::filesystem::path& output, DecodedInput decoded, Runner& runner, StageTimes& times,
                       std::string& notes, bool host_to_gpu_jpeg) {
  throw_if_cancelled();  // a server's caller gone: the op need not run
  RunRequest request = given;
  const PixelFormat format = decoded.format;
  ImageShape out = output_shape_of(request, decoded.shape(), input);
  request.border = border_for_input(request, format, decoded.layout, input);
  // A chain: each step takes the previous one's output, with its border judged against
  // the pixels it reads.
  for (RunRequest& step : request.chain) {
    if (!step.op->supports(out.format)) {
      throw IoError(Fault::Input, step.op->name + " does not take " + out.format.name() + " pixels, which the op "
                                          "before it in the chain gives (" + quoted(input) + ")");
    }
    step.border = border_for_input(step, out.format, ChannelLayout::AsDecoded, input);
    out = output_shape_of(step, out, input);
  }
  // The output keeps a gray+alpha PNG's layout only where it keeps its pixel format.
  const ChannelLayout layout = out.format == format ? decoded.layout : ChannelLayout::AsDecoded;
  const OutputFit fit = check_output_holds(output, out.format, request.encode.format);
  if (fit == OutputFit::FlattenAlpha) {
    notes += "gpufilter: note: " + output_suffix(output, request.encode.format) + " holds no alpha: the image is flattened onto " +
             request.background.name + " (--background)\n";
  }

  if (decoded.gpu_jpeg) {
    if (run_gpu_jpeg(request, *decoded.gpu_jpeg, output, out, fit, layout, decoded.metadata, runner, times, notes))
      return;
    const ImageMetadata metadata = decoded.metadata;
    decoded = decode_input(request, input, times, nullptr, &metadata);  // nvJPEG refused the file: OpenCV reads it
  } else if (host_to_gpu_jpeg && jpeg_encodes_on_gpu(request, output, out, fit)) {
    std::vector<unsigned char> encoded;
    if (runner.run_image_to_jpeg(request, host_view(decoded.image, format), request.encode.jpeg_quality, encoded,
                                 times)) {
      decoded.image.release();
      write_gpu_encoded(output, encoded, decoded.metadata, out, request.encode, times, notes);
      return;
    }
  }

  // Host memory stays near one input and one output image: both devices read the
  // decoded Mat and write the result Mat directly.
  cv::Mat result = result_image(out, runner.may_use_gpu());
  runner.run_image(request, host_view(decoded.image, format), host_view(result, out.format), times);
  decoded.image.release();  // the encoder's buffer can take its place
  write_result(request, output, result, out, fit, layout, decoded.metadata, times, notes);
}

}  // namespace

void check_output_path(const RunRequest& request, const std::filesystem::path& input,
                       const std::filesystem::path& output) {
  check_output_target(output, request.encode.format);
  if (is_standard_output(output)) return;
  if (same_file(input, output)) {
    if (!request.overwrite)
      throw IoError(Fault::Request, "OUT is the same file as IN (" + quoted(input) + "); pass --overwrite to replace IN");
  } else {
    refuse_existing_output(output, request.encode.replace_existing, "OUT");
  }
}

void process_image_file(const RunRequest& request, const std::filesystem::path& input,
                        const std::filesystem::path& output_name, Runner& runner, StageTimes& times,
                        std::string& notes) {
  DecodedInput decoded = decode_input(request, input, times, &runner);
  finish_image_file(request, input, output_name, std::move(decoded), runner, times, notes, false);
}

DecodedInput decode_on_cpu(const RunRequest& request, const std::filesystem::path& input, StageTimes& times) {
  return decode_input(request, input, times);
}

void process_decoded_file(const RunRequest& request, const std::filesystem::path& input,
                          const std::filesystem::path& output_name, DecodedInput decoded, Runner& runner,
                          StageTimes& times, std::string& notes) {
  finish_image_file(request, input, output_name, std::move(decoded), runner, times, notes, true);
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

}  // namespace gpufilter::io
