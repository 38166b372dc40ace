#include "gpufilter/io/process_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::io {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxHops = 40;  // as the kernel's own limit on links followed

// Whether the (absolute, lexically normal) `path` lies in /proc or /dev/fd, or is one of
// /dev/stdin, /dev/stdout, /dev/stderr (a plain file on systems without their links).
bool names_process_entry(const std::string& path) {
  const auto under = [&](std::string_view root) {
    return path.compare(0, root.size(), root) == 0 && (path.size() == root.size() || path[root.size()] == '/');
  };
  return under("/proc") || under("/dev/fd") || under("/dev/stdin") || under("/dev/stdout") || under("/dev/stderr");
}

}  // namespace

std::optional<fs::path> ProcessPathCheck::resolve(const fs::path& path, int hops) {
  if (hops > kMaxHops || names_process_entry(path.string())) return std::nullopt;
  if (path == path.root_path() || !path.has_filename()) return path;
  const std::string directory_key = path.parent_path().string();
  auto known = directories_.find(directory_key);
  if (known == directories_.end())
    known = directories_.emplace(directory_key, resolve(path.parent_path(), hops)).first;
  if (!known->second) return std::nullopt;
  // The directory holds no link now: what is left is this last name.
  const fs::path here = (*known->second / path.filename()).lexically_normal();
  if (names_process_entry(here.string())) return std::nullopt;
  struct stat status {};
  if (::lstat(here.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return here;
  std::string target(static_cast<std::size_t>(status.st_size > 0 ? status.st_size : 4096) + 1, '\0');
  const ssize_t length = ::readlink(here.c_str(), target.data(), target.size());
  if (length < 0) return here;
  target.resize(static_cast<std::size_t>(length));
  const fs::path next = fs::path(target).is_absolute() ? fs::path(target) : *known->second / target;
  return resolve(next, hops + 1);
}

bool ProcessPathCheck::through_process(const fs::path& path) {
  if (path.empty()) return false;
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  if (error) return false;
  // Not normalized first: "link/.." is the link target's parent, as the kernel sees it.
  return !resolve(absolute, 0);
}

bool arguments_through_process(int argc, const char* const* argv) {
  ProcessPathCheck check;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.empty() || arg == "-") continue;
    // "--plot=/dev/stdout": the value; "-o/dev/fd/3" is not a form the tool takes.
    const std::size_t equals = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string_view::npos;
    const std::string_view value = equals != std::string_view::npos ? arg.substr(equals + 1) : arg;
    if (value.rfind("-", 0) == 0 && equals == std::string_view::npos) continue;  // an option's name
    if (check.through_process(fs::path(std::string(value)))) return true;
  }
  return false;
}

std::atomic<bool>& serving_a_caller() {
  static std::atomic<bool> serving{false};
  return serving;
}

void refuse_process_path_in_server(const fs::path& path, ProcessPathCheck& check, const std::string& where) {
  if (!serving_a_caller().load() || !check.through_process(path)) return;
  throw IoError(Fault::Request, "'" + path.string() + "' (" + where +
                                      ") names a file through the process (/proc, /dev/fd), which the server "
                                      "would read as its own; run this command with GPUFILTER_SERVER=off");
}

}  // namespace gpufilter::io
