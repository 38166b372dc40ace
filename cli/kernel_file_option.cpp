#include "kernel_file_option.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "exit_codes.hpp"
#include "gpufilter/io/spooled_input.hpp"

namespace gpufilter::cli {
namespace {

// Far above the text of the largest mask (127x127 numbers); a stream that goes on past
// it is not a mask.
constexpr std::size_t kMaxMaskText = std::size_t{4} << 20;

}  // namespace

void read_kernel_file_once(ParamValues& given) {
  const auto file = given.find("kernel-file");
  if (file == given.end() || given.has("kernel")) return;
  const std::string path = given.text("kernel-file");
  if (!io::reads_once(path)) return;
  std::ifstream stream(path, std::ios::binary);
  if (!stream)
    throw CliError(ExitCode::Usage, "convolve: cannot read the mask file '" + path + "': " + std::strerror(errno));
  std::string text(kMaxMaskText + 1, '\0');
  stream.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (stream.bad()) throw CliError(ExitCode::Usage, "convolve: cannot read the mask file '" + path + "'");
  text.resize(static_cast<std::size_t>(stream.gcount()));
  if (text.size() > kMaxMaskText)
    throw CliError(ExitCode::Usage, "convolve: the mask file '" + path + "' holds more than 4 MiB; no mask is that long");
  given.erase(file);
  given["kernel"] = ParamValue{text};
}

}  // namespace gpufilter::cli
