#pragma once
// The command line, parsed with cxxopts from options generated out of the operation
// registry: every registered op is a subcommand, every ParamSpec a --flag.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/registry.hpp"
#include "flatten_alpha.hpp"
#include "write_output.hpp"

namespace gpufilter::cli {

enum class DeviceChoice { Auto, Gpu, Cpu };

// Who decodes and encodes JPEG files on a GPU run: nvJPEG where it takes the file (auto),
// OpenCV always (cpu), or nvJPEG required of the build and the run (gpu; a file nvJPEG
// refuses still goes to OpenCV).
enum class CodecChoice { Auto, Gpu, Cpu };

// How a data op's result is printed on stdout.
enum class DataFormat { Table, Csv, Json };

// Many files through one op (--out-dir): each IN becomes DIR/<stem><suffix><ext>.
struct BatchOptions {
  std::vector<std::filesystem::path> inputs;  // as given on the command line
  std::filesystem::path from_file;            // more inputs, one path a line (empty: none)
  std::filesystem::path out_dir;
  std::string suffix;
  std::string format;  // --format as a suffix (".jpg"): every output's; empty: each input's own
  int jobs = 0;        // decode/encode threads; 0: one per core
  bool quiet = false;  // no progress bar and no closing summary
  int shard_index = 0;  // --shard I/N keeps the inputs whose position is I modulo N
  int shard_count = 1;
};

// One filter run: everything checked that can be checked without touching files.
struct RunRequest {
  const Operation* op = nullptr;
  std::filesystem::path input;
  std::filesystem::path output;  // image ops only
  ParamValues params;  // resolved: defaults filled in, ranges checked
  Border border;
  // The numbers given to --border-value, as given: whether they fit the pixels can only
  // be judged once IN is read (see border_value.hpp).
  std::vector<double> border_values;
  std::string variant;
  DeviceChoice device = DeviceChoice::Auto;
  // --devices: the GPUs to use, in order (empty: device 0); a single file runs on the first.
  std::vector<int> devices;
  bool all_devices = false;  // --devices all
  std::optional<BatchOptions> batch;  // set: a batch, and input/output are unused
  // Ops run after this one on its result, in order ("blur IN OUT --sigma 2 : sharpen"),
  // with the image staying on the GPU between them. Each step holds its own op, params,
  // border and variant; its other fields are unused.
  std::vector<RunRequest> chain;
  bool timing = false;
  bool overwrite = false;
  bool autorotate = true;  // apply a JPEG's EXIF orientation on read
  bool strip = false;      // --strip: OUT carries none of IN's metadata
  CodecChoice codec = CodecChoice::Auto;  // --codec
  // Images of more pixels are refused before decoding (decompression bombs); OpenCV's
  // default limit, raised or lowered with --max-pixels.
  std::uint64_t max_pixels = std::uint64_t{1} << 30;
  EncodeOptions encode;    // --quality, --png-compression
  Background background;   // under an image whose alpha OUT cannot hold
  // Data ops (stats, histogram): how the table is printed, and a chart file for ops whose
  // rows form an axis (empty: none).
  DataFormat data_format = DataFormat::Table;
  std::filesystem::path plot;
};

// Help, version or the op table: printed on stdout, exit 0.
struct TextReply {
  std::string text;
};

using Command = std::variant<TextReply, RunRequest>;

// Throws CliError(Usage) with a one-line message on anything malformed. A ':' argument
// starts the next op of a chain: "gpufilter blur IN OUT --sigma 2 : sharpen : gray".
Command parse_command_line(int argc, const char* const* argv);

}  // namespace gpufilter::cli
