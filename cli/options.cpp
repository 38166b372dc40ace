#include "options.hpp"

#include <algorithm>

#include "help.hpp"

namespace gpufilter::cli {
namespace {

constexpr const char* kProgram = "gpufilter";

// The fixed lists of values the common options take, for the completions.
std::vector<std::string> common_choices(const Operation* op, const std::string& name) {
  if (name == "border") return border_names();
  if (name == "variant" && op) return op->variants;
  if (name == "device" || name == "codec") return {"auto", "gpu", "cpu"};
  if (name == "format") return {"png", "jpg", "tif", "webp", "bmp", "ppm"};
  return {};
}

}  // namespace

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) {
    if (!text.empty()) text += separator;
    text += item;
  }
  return text;
}

std::vector<std::string> border_names() {
  std::vector<std::string> names;
  for (BorderMode mode : all_border_modes()) names.emplace_back(to_string(mode));
  return names;
}

std::vector<std::string> operation_names() {
  std::vector<std::string> names;
  for (const Operation& op : operations()) names.push_back(op.name);
  return names;
}

// The options of one op (or, with op == nullptr, those every op shares, for the general
// help). Params are read as strings so a bad number gets our message, not cxxopts'.
cxxopts::Options make_options(const Operation* op) {
  cxxopts::Options options(op ? std::string(kProgram) + " " + op->name : kProgram,
                           op ? wrapped(op->summary, kHelpWidth, 0) + "\n" : "");
  const bool data_op = op && !op->produces_image();
  options.custom_help(op ? (data_op ? "IN [options]" : "IN OUT [options]") : "");
  options.positional_help("");
  options.set_width(kHelpWidth);  // as `gpufilter list`: fewer, fuller lines
  if (op) {
    for (const ParamSpec& spec : op->params) {
      if (spec.kind == ParamKind::Flag) {
        options.add_options(op->name)(spec.name, spec.describe());
      } else {
        options.add_options(op->name)(spec.name, spec.describe(), cxxopts::value<std::string>(), spec.metavar);
      }
    }
  }
  if (!op || op->uses_border) {
    auto border = options.add_options(kBorderGroup);
    border("border",
           "pixels outside the image: " + join(border_names(), ", ") +
               " (default: " + to_string(Border{}.mode) + ")",
           cxxopts::value<std::string>(), "MODE");
    border("border-value",
           "value outside the image with --border constant, in the image's units (8-bit: "
           "0..255, 16-bit: 0..65535, whole numbers); one number for every channel or one per "
           "channel, gray[,alpha] for a gray+alpha PNG (default: 0)",
           cxxopts::value<std::string>(), "V[,V...]");
  }
  auto common = options.add_options(kCommonGroup);
  common("variant",
         op ? "kernel to run on the GPU: " + join(op->variants, ", ") + " (default: " +
                  op->default_variant + ")"
            : std::string("kernel to run on the GPU (see 'gpufilter list')"),
         cxxopts::value<std::string>(), "NAME");
  common("device",
         "auto: the GPU when one is usable, else the CPU (its fast path); gpu; cpu (default: auto)",
         cxxopts::value<std::string>(), "auto|gpu|cpu");
  common("codec",
         "JPEG decoding and encoding on a GPU run: auto: nvJPEG on the GPU in a batch, for the JPEG files it "
         "takes, and OpenCV for one file (where nvJPEG's start-up costs more than it saves); gpu: nvJPEG for every "
         "JPEG it takes, an error where it cannot be used at all; cpu: OpenCV (default: auto)",
         cxxopts::value<std::string>(), "auto|gpu|cpu");
  common("timing", "print the time of each stage on stderr");
  common("y,yes", data_op ? "replace an existing --plot FILE" : "replace an existing OUT (in a batch, existing outputs)");
  if (data_op) {
    common("json", "print the result as JSON (default: a table)");
    common("csv", "print the result as CSV (default: a table)");
    common("plot", "also draw the result as a chart into FILE (PNG; ops whose rows form an axis, e.g. bins)",
           cxxopts::value<std::string>(), "FILE");
  } else {
    common("overwrite", "allow OUT to be the same file as IN");
    common("quality", "JPEG quality of OUT, 1..100 (default: 95)", cxxopts::value<std::string>(), "N");
    common("png-compression",
           "zlib level of a PNG OUT: 0 none (fastest); 1..6 zlib's level; 7..9 each strip of rows the smaller of the "
           "default and a level-9 search capped at 16, 32, 64 chain entries (default: adaptive row filters, "
           "run-length matching, or a short full search where rows repeat at a distance: fastest, and on photos "
           "smaller than levels 1..6)",
           cxxopts::value<std::string>(), "N");
    common("background",
           "colour under an image with alpha written to a format without it (JPEG, PNM): white, black, gray, "
           "#RRGGBB or R,G,B (default: white)",
           cxxopts::value<std::string>(), "COLOUR");
    common("strip", "write OUT without IN's metadata (EXIF, IPTC, XMP, ICC colour profile), which is otherwise kept "
                    "where OUT's format holds it (JPEG, PNG, TIFF, WebP)");
  }
  common("no-autorotate", "keep a JPEG's pixels in their stored order (default: turn them upright by the EXIF "
                          "orientation, as viewers show them)");
  if (!op || op->produces_image()) {
    common("out-dir", "batch: write each IN into DIR as <name><suffix><extension>; IN may be many files; DIR is "
                      "made when missing",
           cxxopts::value<std::string>(), "DIR");
    common("format", "the output's format (png, jpg, tif, webp, ...) for OUT '-' (standard output; default: IN's) "
                     "or an OUT without a suffix; in a batch, each output's extension (default: its input's)",
           cxxopts::value<std::string>(), "FMT");
    common("suffix", "batch: added to each output's name before its extension (default: none)",
           cxxopts::value<std::string>(), "TEXT");
    common("from-file", "batch: read more inputs from LIST, one path a line ('-': stdin)",
           cxxopts::value<std::string>(), "LIST");
    common("jobs", "batch: threads decoding and encoding files (default: one per core)",
           cxxopts::value<std::string>(), "N");
    common("shard", "batch: keep only inputs I, I+N, I+2N, ... of the list (0 <= I < N), to spread a "
                    "collection over machines",
           cxxopts::value<std::string>(), "I/N");
    common("quiet", "batch: no progress bar and no summary");
  }
  common("devices", "GPUs to use: all, or a list such as 0,1 (default: 0); a batch spreads files over them",
         cxxopts::value<std::string>(), "all|N[,N...]");
  common("max-pixels",
         "refuse images of more pixels than N before decoding them, as a guard against decompression bombs; "
         "0: no limit (default: 1073741824, OpenCV's limit)",
         cxxopts::value<std::string>(), "N");
  common("h,help", op ? "print the op's parameters and its border options" : "print this help");
  if (op) common("help-all", "print every option of the op, these common ones too");
  options.add_options("")(kFilesOption, data_op ? "IN" : "IN OUT | IN... --out-dir DIR",
                          cxxopts::value<std::vector<std::string>>());
  options.parse_positional({kFilesOption});
  return options;
}

std::string rendered_help(const cxxopts::Options& options, const std::vector<std::string>& groups,
                          bool with_usage) {
  std::string text = options.help(groups, with_usage);
  const auto first = text.find_first_not_of('\n');
  return first == std::string::npos ? std::string() : text.substr(first);
}


std::string operation_help(const Operation& op, bool all) {
  const cxxopts::Options options = make_options(&op);
  std::vector<std::string> groups{op.name};
  if (op.uses_border) groups.push_back(kBorderGroup);
  if (all) groups.push_back(kCommonGroup);
  std::string text = rendered_help(options, groups, true);
  text += "\nPixel formats: " + describe_formats(op.formats) + "\n";
  text += wrapped("Variants (--variant): " + join(op.variants, ", ") + " (default: " + op.default_variant + ")",
                  kHelpWidth, 2) +
          "\n";
  if (!all) {
    // The common options by name alone: a dozen lines of them would bury the parameters.
    std::vector<std::string> names;
    for (const OptionDoc& doc : option_docs(&op))
      if (doc.group == kCommonGroup) names.push_back("--" + doc.name);
    text += "\n" + wrapped("Common options: " + join(names, ", ") + ".", kHelpWidth, 2) + "\n";
    text += "'gpufilter " + op.name + " --help-all' describes them; exit codes: see 'gpufilter --help'.\n";
  } else {
    text += "Exit codes: see 'gpufilter --help'.\n";
  }
  return text;
}

std::vector<OptionDoc> option_docs(const Operation* op) {
  const cxxopts::Options options = make_options(op);
  std::vector<OptionDoc> docs;
  for (const std::string& group : options.groups()) {
    if (group.empty()) continue;  // the positional files
    for (const cxxopts::HelpOptionDetails& details : options.group_help(group).options) {
      OptionDoc doc;
      doc.name = details.l.empty() ? details.s : details.l.front();
      if (!details.l.empty()) doc.short_name = details.s;
      doc.value = details.is_boolean ? "" : details.arg_help;
      doc.help = details.desc;
      doc.group = group;
      const ParamSpec* spec = op ? op->find_param(doc.name) : nullptr;
      if (spec != nullptr && group == op->name) {
        doc.choices = spec->choices;
      } else {
        doc.choices = common_choices(op, doc.name);
      }
      docs.push_back(std::move(doc));
    }
  }
  // The op's parameters first, then the border and the common options, as --help-all.
  const auto rank = [](const OptionDoc& doc) {
    return doc.group == kCommonGroup ? 2 : doc.group == kBorderGroup ? 1 : 0;
  };
  std::stable_sort(docs.begin(), docs.end(), [&](const OptionDoc& a, const OptionDoc& b) { return rank(a) < rank(b); });
  return docs;
}

}  // namespace gpufilter::cli
