#pragma once
/// @file
/// One file through one op, the unit both a single run and a batch are made of: decode
/// IN, run the op on a Runner, then write OUT atomically (image ops) or return the table
/// (data ops).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/io/run_request.hpp"
#include "gpufilter/io/channel_layout.hpp"
#include "gpufilter/io/execute.hpp"
#include "gpufilter/io/gpu_jpeg_file.hpp"
#include "gpufilter/io/image_metadata.hpp"
#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/timing.hpp"

namespace gpufilter::io {

/// Checks on OUT that cost nothing and need no input: a suffix OpenCV can encode, an
/// existing writable directory, not IN itself unless request.overwrite. Throws IoError.
void check_output_path(const RunRequest& request, const std::filesystem::path& input,
                       const std::filesystem::path& output);

/// An input file decoded, with what was learnt while reading it; or, for nvJPEG, still
/// the file's bytes, with the shape its header gives.
struct DecodedInput {
  cv::Mat image;
  PixelFormat format;
  ChannelLayout layout = ChannelLayout::AsDecoded;
  ImageMetadata metadata;  ///< IN's EXIF, IPTC, XMP and ICC profile, read once; empty with --strip
  std::optional<GpuJpegFile> gpu_jpeg;
  ImageShape shape() const { return gpu_jpeg ? gpu_jpeg->upright_shape() : ImageShape{image.cols, image.rows, format}; }
  /// The decoded image's bytes in host memory.
  std::uint64_t host_bytes() const { return static_cast<std::uint64_t>(image.total() * image.elemSize()); }
};

/// The first half of process_image_file with OpenCV's decoders alone (as for a file
/// nvJPEG declines): IN checked against the pixel limit and host memory, decoded, turned
/// upright and checked against request.op. Throws as process_image_file. For the CPU
/// decoders beside the GPU's (cpu_decoders.hpp).
DecodedInput decode_on_cpu(const RunRequest& request, const std::filesystem::path& input, StageTimes& times);

/// The second half of process_image_file for an input from decode_on_cpu: the op runs on
/// `runner`; where OUT is a JPEG that holds the result as it is, the runner may encode
/// it on the GPU (Runner::run_image_to_jpeg), as the files it decodes itself are; else
/// OpenCV writes it as any downloaded result. `decoded`'s image is released once uploaded.
void process_decoded_file(const RunRequest& request, const std::filesystem::path& input,
                          const std::filesystem::path& output, DecodedInput decoded, Runner& runner,
                          StageTimes& times, std::string& notes);

/// Decodes `input`, runs request.op on `runner` and writes `output` atomically. One-line
/// notes (an alpha channel flattened) go to `notes`. Throws IoError, gpufilter::Error or
/// cv::Exception; OUT is then untouched.
void process_image_file(const RunRequest& request, const std::filesystem::path& input,
                        const std::filesystem::path& output, Runner& runner, StageTimes& times, std::string& notes);

/// What a data op's result describes, for a printout's header or a chart's title.
struct DataSource {
  std::string op;
  std::filesystem::path input;
  ImageShape shape;
};

struct DataFileResult {
  DataSource source;
  DataLayout layout;
  std::vector<double> values;
};

/// Decodes `input` and runs the data op request.op on `runner`.
DataFileResult process_data_file(const RunRequest& request, const std::filesystem::path& input, Runner& runner,
                                 StageTimes& times);

}  // namespace gpufilter::io
