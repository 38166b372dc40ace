#pragma once
// The command line, parsed with cxxopts from options generated out of the operation
// registry: every registered op is a subcommand, every ParamSpec a --flag.
#include <filesystem>
#include <string>
#include <variant>

#include "gpufilter/io/run_request.hpp"

namespace gpufilter::cli {

// How a data op's result is printed on stdout.
enum class DataFormat { Table, Csv, Json };

// A run as the command line asks for it: the request gpufilter_io runs, and how the tool
// prints a data op's result (stats, histogram).
struct RunCommand : io::RunRequest {
  DataFormat data_format = DataFormat::Table;
  // A chart file for ops whose rows form an axis (--plot; empty: none).
  std::filesystem::path plot;
};

// Help, version or the op table: printed on stdout, exit 0.
struct TextReply {
  std::string text;
};

using Command = std::variant<TextReply, RunCommand>;

// Throws CliError(Usage) with a one-line message on anything malformed. A ':' argument
// starts the next op of a chain: "gpufilter blur IN OUT --sigma 2 : sharpen : gray".
Command parse_command_line(int argc, const char* const* argv);

}  // namespace gpufilter::cli
