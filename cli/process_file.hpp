#pragma once
// One file through one op, the unit both a single run and a batch are made of: decode
// IN, run the op on a Runner, then write OUT atomically (image ops) or return the table
// (data ops).
#include <filesystem>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "data_output.hpp"
#include "execute.hpp"
#include "timing.hpp"

namespace gpufilter::cli {

// Checks on OUT that cost nothing and need no input: a suffix OpenCV can encode, an
// existing writable directory, not IN itself unless request.overwrite. Throws CliError.
void check_output_path(const RunRequest& request, const std::filesystem::path& input,
                       const std::filesystem::path& output);

// Decodes `input`, runs request.op on `runner` and writes `output` atomically. One-line
// notes (an alpha channel flattened) go to `notes`. Throws CliError, gpufilter::Error or
// cv::Exception; OUT is then untouched.
void process_image_file(const RunRequest& request, const std::filesystem::path& input,
                        const std::filesystem::path& output, Runner& runner, StageTimes& times, std::string& notes);

struct DataFileResult {
  DataSource source;
  DataLayout layout;
  std::vector<double> values;
};

// Decodes `input` and runs the data op request.op on `runner`.
DataFileResult process_data_file(const RunRequest& request, const std::filesystem::path& input, Runner& runner,
                                 StageTimes& times);

}  // namespace gpufilter::cli
