#pragma once
// The options of each op, generated from the registry: what the parser reads, what
// `--help`, `--help-all`, the man page and the shell completions show.
#include <cxxopts.hpp>

#include <string>
#include <vector>

#include "gpufilter/registry.hpp"

namespace gpufilter::cli {

// The option groups: an op's own parameters are the group named after it.
inline constexpr const char* kBorderGroup = "Border";
inline constexpr const char* kCommonGroup = "Common";
// The positional arguments' option.
inline constexpr const char* kFilesOption = "files";

// The options of one op (or, with op == nullptr, those every op shares, for the general
// help). Params are read as strings so a bad number gets our message, not cxxopts'.
cxxopts::Options make_options(const Operation* op);

// `options.help(groups)` without its leading blank lines.
std::string rendered_help(const cxxopts::Options& options, const std::vector<std::string>& groups, bool with_usage);

// `gpufilter OP --help`: the op's parameters and its border first, the common options
// named in one line; with `all`, every option (`--help-all`).
std::string operation_help(const Operation& op, bool all);

// One option as the man page and the completions describe it.
struct OptionDoc {
  std::string name;        // "sigma" (the flag is --sigma)
  std::string short_name;  // "y" for -y; empty where there is none
  std::string value;       // how its value is written ("X", "MODE"); empty for a flag
  std::string help;
  std::vector<std::string> choices;  // the values it accepts where they are a fixed list
  std::string group;                 // the op's name, kBorderGroup or kCommonGroup
};
// Every option of `op` (nullptr: those every op shares), its parameters first.
std::vector<OptionDoc> option_docs(const Operation* op);

std::vector<std::string> border_names();
std::vector<std::string> operation_names();
std::string join(const std::vector<std::string>& items, const char* separator);

}  // namespace gpufilter::cli
