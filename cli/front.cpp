// `gpufilter`: hands the command to a running server (server.hpp) or, where none takes it,
// loads the tool's library and runs the command in this process (tool_library.hpp).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "closed_streams.hpp"
#include "exit_codes.hpp"
#include "server.hpp"
#include "tool_library.hpp"

namespace {

using namespace gpufilter::cli;

// The tool's library, loaded once; exits with a message where it cannot be.
void* tool_library() {
  static void* handle = [] {
    const std::filesystem::path path = tool_library_path();
    void* loaded = path.empty() ? nullptr : ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (loaded == nullptr) {
      std::cerr << "gpufilter: error: cannot load the tool's library (libgpufilter_tool beside the program or in its "
                   "installed lib/gpufilter)"
                << (path.empty() ? std::string() : std::string(": ") + ::dlerror()) << std::endl;
      std::_Exit(static_cast<int>(ExitCode::Runtime));
    }
    return loaded;
  }();
  return handle;
}

template <class Function>
Function tool_function(const char* name) {
  void* symbol = ::dlsym(tool_library(), name);
  if (symbol == nullptr) {
    std::cerr << "gpufilter: error: the tool's library lacks " << name << " (another build?)" << std::endl;
    std::_Exit(static_cast<int>(ExitCode::Runtime));
  }
  return reinterpret_cast<Function>(symbol);
}

}  // namespace

int main(int argc, char** argv) {
  // First, so that --timing's "start" and "total" hold loading the tool.
  const ServerClock::time_point started = ServerClock::now();
  hold_closed_standard_streams();
  if (!is_server_command(argc, argv)) {
    const auto lost_server_note = [&] {
      return std::string(tool_function<ToolLostServerNote>(kToolLostServerNoteSymbol)(argc, argv));
    };
    if (const std::optional<int> status = forward_to_server(argc, argv, started, lost_server_note))
      exit_promptly(*status);
  }
  const long long started_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count();
  tool_function<ToolRun>(kToolRunSymbol)(argc, argv, started_ns);
  return static_cast<int>(ExitCode::Runtime);  // the tool never returns
}
