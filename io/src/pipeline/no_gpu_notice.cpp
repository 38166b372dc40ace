#include "pipeline/no_gpu_notice.hpp"

#include <fstream>
#include <iterator>
#include <optional>

#include "gpufilter/io/user_folders.hpp"

namespace gpufilter::io {

std::string no_gpu_notice(const std::string& reason) {
  const std::string notice = "gpufilter: no usable GPU (" + reason +
                             "); running on the CPU (said once while the reason stays the same)";
  const std::optional<std::filesystem::path> folder = user_cache_folder();
  if (!folder) return notice;
  const std::filesystem::path told = *folder / "no-gpu-notice";
  std::ifstream before(told);
  const std::string said((std::istreambuf_iterator<char>(before)), std::istreambuf_iterator<char>());
  if (said == reason) return "";
  // Remembered where possible; where not (a read-only home), the notice shows each time.
  if (make_private_directories(*folder) == 0) std::ofstream(told, std::ios::trunc) << reason;
  return notice;
}

}  // namespace gpufilter::io
