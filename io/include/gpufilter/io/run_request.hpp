#pragma once
/// @file
/// One run of an op (or a chain of them) over image files, as the command line or a binding
/// describes it: everything checked that can be checked without touching files. The
/// command-line flags that set each field are named beside it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/io/flatten_alpha.hpp"
#include "gpufilter/io/write_output.hpp"

namespace gpufilter::io {

enum class DeviceChoice { Auto, Gpu, Cpu };

/// Who decodes and encodes JPEG files on a GPU run: nvJPEG where it takes the file (auto),
/// OpenCV always (cpu), or nvJPEG required of the build and the run (gpu; a file nvJPEG
/// refuses still goes to OpenCV).
enum class CodecChoice { Auto, Gpu, Cpu };

/// Many files through one op (--out-dir): each IN becomes DIR/<stem><suffix><ext>.
struct BatchOptions {
  std::vector<std::filesystem::path> inputs;  ///< as given on the command line
  std::filesystem::path from_file;            ///< more inputs, one path a line (empty: none)
  std::filesystem::path out_dir;
  std::string suffix;
  std::string format;  ///< --format as a suffix (".jpg"): every output's; empty: each input's own
  int jobs = 0;        ///< decode/encode threads; 0: one per core
  bool quiet = false;  ///< the caller shows no progress and no closing summary (io prints none)
  int shard_index = 0;  ///< --shard I/N keeps the inputs whose position is I modulo N
  int shard_count = 1;
};

struct RunRequest {
  const Operation* op = nullptr;
  std::filesystem::path input;
  std::filesystem::path output;  ///< image ops only
  ParamValues params;  ///< resolved: defaults filled in, ranges checked
  Border border;
  /// The numbers given to --border-value, as given: whether they fit the pixels can only
  /// be judged once IN is read (border_value.hpp).
  std::vector<double> border_values;
  std::string variant;
  DeviceChoice device = DeviceChoice::Auto;
  /// --devices: the GPUs to use, in order (empty: device 0); a single file runs on the first.
  std::vector<int> devices;
  bool all_devices = false;  ///< --devices all
  std::optional<BatchOptions> batch;  ///< set: a batch, and input/output are unused
  /// Ops run after this one on its result, in order ("blur IN OUT --sigma 2 : sharpen"),
  /// with the image staying on the GPU between them. Each step holds its own op, params,
  /// border and variant; its other fields are unused.
  std::vector<RunRequest> chain;
  bool timing = false;     ///< --timing: each file's stages timed
  bool overwrite = false;  ///< --overwrite: OUT may be IN
  bool autorotate = true;  ///< apply a JPEG's EXIF orientation on read
  bool strip = false;      ///< --strip: OUT carries none of IN's metadata
  CodecChoice codec = CodecChoice::Auto;  ///< --codec
  /// Images of more pixels are refused before decoding (decompression bombs); OpenCV's
  /// default limit, raised or lowered with --max-pixels.
  std::uint64_t max_pixels = std::uint64_t{1} << 30;
  EncodeOptions encode;    ///< --quality, --png-compression, -y
  Background background;   ///< --background: under an image whose alpha OUT cannot hold
};

}  // namespace gpufilter::io
