#include "arguments.hpp"

#include <cxxopts.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

#include "background_option.hpp"
#include "comma_list.hpp"
#include "exit_codes.hpp"
#include "gpufilter/error.hpp"
#include "kernel_file_option.hpp"
#include "gpufilter/io/standard_streams.hpp"
#include "help.hpp"
#include "man_page.hpp"
#include "options.hpp"
#include "shell_completion.hpp"
#include "suggest.hpp"

namespace gpufilter::cli {
namespace {

using io::BatchOptions;
using io::CodecChoice;
using io::DeviceChoice;
using io::RunRequest;

constexpr std::string_view kChainSeparator = ":";

[[noreturn]] void usage_error(const std::string& message) { throw CliError(ExitCode::Usage, message); }

// cxxopts quotes names with typographic quotes; keep error lines plain ASCII.
std::string plain_quotes(std::string text) {
  for (std::string_view quote : {"\u2018", "\u2019"}) {
    for (auto at = text.find(quote); at != std::string::npos; at = text.find(quote, at + 1)) {
      text.replace(at, quote.size(), "'");
    }
  }
  return text;
}

// "unknown op 'blurr'; did you mean 'blur'?", or where nothing is close, where to look.
std::string unknown_op_message(const std::string& name) {
  const std::string suggestion = did_you_mean(name, operation_names());
  return "unknown op '" + name + "'" + (suggestion.empty() ? "; 'gpufilter list' shows the ops" : suggestion);
}

const Operation& known_operation(const std::string& name) {
  const Operation* op = find_operation(name);
  if (!op) usage_error(unknown_op_message(name));
  return *op;
}

// The option cxxopts names in "Option 'sigmma' does not exist", as it was typed.
std::string unknown_option_name(const std::string& message) {
  const auto open = message.find('\'');
  const auto close = message.rfind('\'');
  if (open == std::string::npos || close <= open) return "";
  return message.substr(open + 1, close - open - 1);
}

// cxxopts skips argv[0]; handing it the op name there parses what follows. An unknown
// option gets the op's nearest option names.
cxxopts::ParseResult parse_options(cxxopts::Options& options, const Operation& op, int argc, const char* const* argv) {
  const std::string see = " (see 'gpufilter " + op.name + " --help')";
  try {
    return options.parse(argc - 1, argv + 1);
  } catch (const cxxopts::exceptions::no_such_option& error) {
    const std::string name = unknown_option_name(plain_quotes(error.what()));
    if (name.empty()) usage_error(plain_quotes(error.what()) + see);
    std::vector<std::string> names;
    for (const OptionDoc& doc : option_docs(&op)) names.push_back(doc.name);
    const std::string typed = (name.size() == 1 ? "-" : "--") + name;
    usage_error("unknown option '" + typed + "' for " + op.name + did_you_mean(name, names, "--") + see);
  } catch (const cxxopts::exceptions::exception& error) {
    usage_error(plain_quotes(error.what()) + see);
  }
}

double parse_number(const std::string& text, const std::string& option) {
  double value = 0.0;
  const char* const end = text.data() + text.size();
  const auto [stop, status] = std::from_chars(text.data(), end, value);
  if (text.empty() || status != std::errc() || stop != end || !std::isfinite(value)) {
    usage_error("--" + option + " expects a number, got '" + text + "'");
  }
  return value;
}

ParamValues read_params(const Operation& op, const cxxopts::ParseResult& result) {
  ParamValues given;
  // The registry reads each kind from text and judges ranges, choices and defaults.
  try {
    for (const ParamSpec& spec : op.params) {
      if (result.count(spec.name) == 0) continue;
      given[spec.name] = spec.kind == ParamKind::Flag ? ParamValue{1.0}
                                                      : spec.parse(result[spec.name].as<std::string>());
    }
    read_kernel_file_once(given);
    return op.resolve(given);
  } catch (const Error& error) {
    usage_error(error.what());
  }
}

// Fills request.border and request.border_values.
void read_border(const cxxopts::ParseResult& result, RunRequest& request) {
  Border& border = request.border;
  std::vector<double>& values = request.border_values;
  if (result.count("border")) {
    const std::string name = result["border"].as<std::string>();
    bool known = false;
    for (BorderMode mode : all_border_modes()) {
      if (name == to_string(mode)) {
        border.mode = mode;
        known = true;
      }
    }
    if (!known) usage_error("unknown border '" + name + "'; use one of " + join(border_names(), ", "));
  }
  if (result.count("border-value")) {
    if (border.mode != BorderMode::Constant) {
      usage_error("--border-value needs --border constant");
    }
    const std::string text = result["border-value"].as<std::string>();
    for (const std::string& part : comma_separated(text)) values.push_back(parse_number(part, "border-value"));
    if (values.size() > border.value.size()) {
      usage_error("--border-value takes at most " + std::to_string(border.value.size()) +
                  " numbers, got '" + text + "'");
    }
    for (std::size_t c = 0; c < border.value.size(); ++c) {
      border.value[c] = values.size() == 1 ? values[0] : (c < values.size() ? values[c] : 0.0);
    }
  }
}

// A whole number in [min, max] from an option's text, or a usage error naming the range.
int whole_number_in(const std::string& text, const std::string& option, int min, int max) {
  const double value = parse_number(text, option);
  if (value != std::floor(value) || value < min || value > max)
    usage_error("--" + option + " must be a whole number in [" + std::to_string(min) + ", " + std::to_string(max) +
                "], got '" + text + "'");
  return static_cast<int>(value);
}

std::uint64_t read_max_pixels(const cxxopts::ParseResult& result, std::uint64_t fallback) {
  if (result.count("max-pixels") == 0) return fallback;
  const std::string text = result["max-pixels"].as<std::string>();
  const double value = parse_number(text, "max-pixels");
  if (value != std::floor(value) || value < 0 || value > 1e13)
    usage_error("--max-pixels must be a whole number in [0, 10000000000000] (0: no limit), got '" + text + "'");
  return value == 0 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(value);
}

DeviceChoice read_device(const cxxopts::ParseResult& result) {
  if (result.count("device") == 0) return DeviceChoice::Auto;
  const std::string name = result["device"].as<std::string>();
  if (name == "auto") return DeviceChoice::Auto;
  if (name == "gpu") return DeviceChoice::Gpu;
  if (name == "cpu") return DeviceChoice::Cpu;
  usage_error("unknown device '" + name + "'; use auto, gpu or cpu");
}

CodecChoice read_codec(const cxxopts::ParseResult& result) {
  if (result.count("codec") == 0) return CodecChoice::Auto;
  const std::string name = result["codec"].as<std::string>();
  if (name == "auto") return CodecChoice::Auto;
  if (name == "gpu") return CodecChoice::Gpu;
  if (name == "cpu") return CodecChoice::Cpu;
  usage_error("unknown codec '" + name + "'; use auto, gpu or cpu");
}

// cxxopts would call --border on a borderless op merely unknown; say why instead.
void refuse_border_options(const Operation& op, int argc, const char* const* argv) {
  if (op.uses_border) return;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const std::string_view name = arg.substr(0, arg.find('='));
    if (name == "--border" || name == "--border-value") {
      usage_error(op.name + " reads no pixels outside the image, so it takes no " + std::string(name));
    }
  }
}

// --devices all | 0,1,...
void read_devices(const cxxopts::ParseResult& result, RunRequest& request) {
  if (result.count("devices") == 0) return;
  const std::string text = result["devices"].as<std::string>();
  if (text == "all") {
    request.all_devices = true;
    return;
  }
  for (const std::string& part : comma_separated(text)) {
    const int device = whole_number_in(part, "devices", 0, 1023);
    for (const int known : request.devices)
      if (known == device) usage_error("--devices names GPU " + part + " twice");
    request.devices.push_back(device);
  }
  if (request.devices.empty()) usage_error("--devices expects all or a list such as 0,1, got '" + text + "'");
}

// --format as an output suffix (".jpg"), or empty when not given.
std::string read_format(const cxxopts::ParseResult& result) {
  if (!result.count("format")) return {};
  std::string format = result["format"].as<std::string>();
  if (!format.empty() && format.front() == '.') format.erase(0, 1);
  const bool plain = !format.empty() && std::all_of(format.begin(), format.end(), [](unsigned char c) {
    return std::isalnum(c) != 0;
  });
  if (!plain) usage_error("--format expects a format name such as png, jpg or tif, got '" + format + "'");
  std::transform(format.begin(), format.end(), format.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return "." + format;
}

// The batch options, when --out-dir or --from-file makes the run a batch.
std::optional<BatchOptions> read_batch(const cxxopts::ParseResult& result, const std::vector<std::string>& files) {
  const bool batch = result.count("out-dir") || result.count("from-file");
  for (const char* option : {"suffix", "jobs", "shard", "quiet"})
    if (!batch && result.count(option)) usage_error(std::string("--") + option + " belongs to a batch: add --out-dir DIR");
  if (!batch) return std::nullopt;
  if (!result.count("out-dir")) usage_error("a batch needs --out-dir DIR for its outputs");
  BatchOptions options;
  options.out_dir = result["out-dir"].as<std::string>();
  for (const std::string& file : files) options.inputs.emplace_back(file);
  if (result.count("from-file")) options.from_file = result["from-file"].as<std::string>();
  if (options.inputs.empty() && options.from_file.empty())
    usage_error("no input files: give IN... or --from-file LIST");
  if (result.count("suffix")) options.suffix = result["suffix"].as<std::string>();
  if (options.suffix.find('/') != std::string::npos) usage_error("--suffix cannot hold '/'");
  options.format = read_format(result);
  for (const std::filesystem::path& input : options.inputs)
    if (input == "-") usage_error("IN '-' (standard input) is one file; a batch reads --from-file - for its list");
  if (result.count("jobs")) options.jobs = whole_number_in(result["jobs"].as<std::string>(), "jobs", 1, 1024);
  options.quiet = result.count("quiet") > 0;
  if (result.count("shard")) {
    const std::string text = result["shard"].as<std::string>();
    const auto slash = text.find('/');
    if (slash == std::string::npos) usage_error("--shard expects I/N, such as 0/4, got '" + text + "'");
    options.shard_count = whole_number_in(text.substr(slash + 1), "shard", 1, 1 << 30);
    options.shard_index = whole_number_in(text.substr(0, slash), "shard", 0, 1 << 30);
    if (options.shard_index >= options.shard_count)
      usage_error("--shard I/N needs 0 <= I < N, got '" + text + "'");
  }
  return options;
}

// --json, --csv and --plot of a data op.
void read_data_output(const cxxopts::ParseResult& result, RunCommand& request) {
  if (result.count("json") && result.count("csv")) usage_error("--json and --csv exclude each other; pick one");
  if (result.count("json")) request.data_format = DataFormat::Json;
  if (result.count("csv")) request.data_format = DataFormat::Csv;
  if (result.count("plot")) {
    request.plot = result["plot"].as<std::string>();
    if (request.plot.extension() != ".png") usage_error("--plot writes a PNG chart; give FILE a .png name");
  }
}

Command parse_run(const Operation& op, int argc, const char* const* argv) {
  refuse_border_options(op, argc, argv);
  cxxopts::Options options = make_options(&op);
  const cxxopts::ParseResult result = parse_options(options, op, argc, argv);
  if (result.count("help") || result.count("help-all")) return TextReply{operation_help(op, result.count("help-all") > 0)};

  RunCommand request;
  request.op = &op;
  // Option values first: "--sigma --device cpu" is a missing sigma, not a stray "cpu".
  request.params = read_params(op, result);
  if (op.uses_border) read_border(result, request);
  request.variant = result.count("variant") ? result["variant"].as<std::string>() : op.default_variant;
  if (!op.has_variant(request.variant)) {
    usage_error("unknown variant '" + request.variant + "' for " + op.name + "; use one of " +
                join(op.variants, ", "));
  }
  request.device = read_device(result);
  request.codec = read_codec(result);
  request.timing = result.count("timing") > 0;
  request.autorotate = result.count("no-autorotate") == 0;
  request.strip = result.count("strip") > 0;
  request.max_pixels = read_max_pixels(result, request.max_pixels);
  const auto files = result.count(kFilesOption) ? result[kFilesOption].as<std::vector<std::string>>()
                                                : std::vector<std::string>{};
  if (!op.produces_image()) {
    read_devices(result, request);
    read_data_output(result, request);
    request.encode.replace_existing = result.count("yes") > 0;
    if (files.empty()) usage_error("IN is missing (usage: gpufilter " + op.name + " IN [options])");
    if (files.size() > 1)
      usage_error(op.name + " prints its result and writes no image: unexpected argument '" + files[1] +
                  "' after IN");
    request.input = files[0];
    return request;
  }
  read_devices(result, request);
  request.overwrite = result.count("overwrite") > 0;
  request.encode.replace_existing = result.count("yes") > 0 || request.overwrite;
  request.batch = read_batch(result, files);
  if (result.count("background")) request.background = parse_background(result["background"].as<std::string>());
  if (result.count("quality"))
    request.encode.jpeg_quality = whole_number_in(result["quality"].as<std::string>(), "quality", 1, 100);
  if (result.count("png-compression"))
    request.encode.png_compression =
        whole_number_in(result["png-compression"].as<std::string>(), "png-compression", 0, 9);
  if (request.batch) return request;

  if (files.size() < 2) {
    usage_error(std::string(files.empty() ? "IN and OUT are" : "OUT is") + " missing (usage: gpufilter " +
                op.name + " IN OUT [options])");
  }
  if (files.size() > 2)
    usage_error("unexpected argument '" + files[2] + "' after IN and OUT (for many files: IN... --out-dir DIR)");
  request.input = files[0];
  request.output = files[1];
  const std::string format = read_format(result);
  if (request.output == "-") {
    // Without --format, IN's format: the run names it once IN can be read (main.cpp).
    if (!format.empty()) request.output = io::standard_output_path(format);
  } else if (!format.empty()) {
    if (request.output.has_extension())
      usage_error("OUT '" + request.output.string() + "' names its format by its suffix; --format is for OUT '-', an "
                  "OUT without a suffix and batches");
    request.encode.format = format;  // a suffix-less OUT in that format
  } else if (io::is_standard_output(request.output)) {
    request.output = "." / request.output;  // a file of that name, not standard output
  }
  return request;
}

// One later op of a chain, from ": OP [options]" (argv[0] is the ':'). It takes the op's
// parameters, --variant and the border options; the run's options found here are added
// to `run_options` for the first op, and files belong to the first op alone.
Command parse_step(const std::string& name, int argc, const char* const* argv, std::vector<std::string>& run_options) {
  const Operation* op = find_operation(name);
  if (!op) usage_error(unknown_op_message(name) + " after ':'");
  if (!op->produces_image())
    usage_error(op->name + " prints data and writes no image: it cannot follow ':' in a chain");
  refuse_border_options(*op, argc, argv);
  cxxopts::Options options = make_options(op);
  const cxxopts::ParseResult result = parse_options(options, *op, argc, argv);
  if (result.count("help") || result.count("help-all")) return TextReply{operation_help(*op, result.count("help-all") > 0)};
  RunCommand step;
  step.op = op;
  // The run's options go to the first op, which owns them (flags hold "true").
  static const std::set<std::string> kFlags = {"timing", "overwrite", "yes", "no-autorotate", "strip", "quiet", "json", "csv"};
  for (const auto& option : result.arguments()) {
    const std::string& key = option.key();
    if (op->find_param(key) || key == "variant" || key == "border" || key == "border-value") continue;
    run_options.push_back(kFlags.count(key) ? "--" + key : "--" + key + "=" + option.value());
  }
  if (result.count(kFilesOption))
    usage_error("'" + result[kFilesOption].as<std::vector<std::string>>().front() + "' after ': " + op->name +
                "': files belong to the first op of a chain");
  step.params = read_params(*op, result);
  if (op->uses_border) read_border(result, step);
  step.variant = result.count("variant") ? result["variant"].as<std::string>() : op->default_variant;
  if (!op->has_variant(step.variant))
    usage_error("unknown variant '" + step.variant + "' for " + op->name + "; use one of " + join(op->variants, ", "));
  return step;
}

}  // namespace

Command parse_command_line(int argc, const char* const* argv) {
  if (argc < 2) usage_error("no op given; see 'gpufilter --help'");
  const std::string first = argv[1];
  if (first == "-h" || first == "--help" || (first == "help" && argc == 2)) {
    return TextReply{general_help(rendered_help(make_options(nullptr), {kBorderGroup, kCommonGroup}, false))};
  }
  if (first == "help") {
    if (argc > 3) usage_error(std::string("'help' takes one op, got '") + argv[3] + "' after it");
    return TextReply{operation_help(known_operation(argv[2]), false)};
  }
  if (first == "--version") return TextReply{version_text()};
  if (first == "man") {
    if (argc > 2) usage_error(std::string("'man' takes no arguments, got '") + argv[2] + "'");
    return TextReply{man_page()};
  }
  if (first == "completion") {
    const std::string shell = argc > 2 ? argv[2] : "";
    if (argc != 3 || (shell != "bash" && shell != "zsh"))
      usage_error("'completion' takes the shell: bash or zsh (as in: source <(gpufilter completion bash))");
    return TextReply{shell == "bash" ? bash_completion() : zsh_completion()};
  }
  if (first == "list") {
    if (argc > 2) usage_error(std::string("'list' takes no arguments, got '") + argv[2] + "'");
    return TextReply{operation_table()};
  }
  if (first.starts_with("-")) usage_error("expected an op before '" + first + "'; see 'gpufilter --help'");
  const Operation* op = &known_operation(first);
  // The chain's segments: the first op with its files and options, then ": OP [options]".
  // The run's own options (--device, --timing, --quality, ...) may stand in any segment:
  // they are moved to the first, which owns them.
  std::vector<int> starts;  // each later segment's ':'
  for (int i = 2; i < argc; ++i)
    if (std::string_view(argv[i]) == kChainSeparator) starts.push_back(i);
  const int first_end = starts.empty() ? argc : starts.front();
  std::vector<std::string> first_args(argv, argv + first_end);
  std::vector<RunRequest> steps;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const int start = starts[k];
    const int end = k + 1 < starts.size() ? starts[k + 1] : argc;
    if (end == start + 1) usage_error("an op must follow ':' (as in 'blur IN OUT : sharpen')");
    Command step = parse_step(argv[start + 1], end - start, argv + start, first_args);
    if (const auto* help = std::get_if<TextReply>(&step)) return *help;
    steps.push_back(std::move(static_cast<RunRequest&>(std::get<RunCommand>(step))));
  }
  std::vector<const char*> first_argv;
  for (const std::string& arg : first_args) first_argv.push_back(arg.c_str());
  Command command = parse_run(*op, static_cast<int>(first_argv.size()), first_argv.data());
  if (auto* request = std::get_if<RunCommand>(&command); request && !steps.empty()) {
    if (!request->op->produces_image())
      usage_error(request->op->name + " prints data and writes no image: it cannot start a chain");
    request->chain = std::move(steps);
  }
  return command;
}

}  // namespace gpufilter::cli
