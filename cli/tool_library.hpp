#pragma once
// The program `gpufilter` is a small front (front.cpp) that hands a command to a running
// server; everything else, the tool itself, is a shared library the front loads only when
// a command runs in its own process. A command the server runs then costs no more than
// starting a program that links the C++ runtime alone: the tool's libraries (the
// library's kernels, CUDA's runtime, nvJPEG, OpenCV, Exiv2, ...) are mapped and relocated
// only then (docs/cpu-path.md, "Start-up, libraries and pages").
#include <filesystem>

namespace gpufilter::cli {

// The tool's entry points, looked up by these names in its library.
// Runs the command line in this process, as `gpufilter` did before the front existed;
// `started_ns` is the front's start on ServerClock. Never returns.
using ToolRun = void (*)(int argc, char** argv, long long started_ns);
constexpr const char* kToolRunSymbol = "gpufilter_tool_run";
// What a caller whose server ended mid-command may find of its outputs (server.hpp).
using ToolLostServerNote = const char* (*)(int argc, const char* const* argv);
constexpr const char* kToolLostServerNoteSymbol = "gpufilter_tool_lost_server_note";

// The tool's library: beside the program (the build tree), else where `cmake --install`
// puts it relative to the program. Empty when neither holds it.
std::filesystem::path tool_library_path();

}  // namespace gpufilter::cli
