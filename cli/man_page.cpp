#include "man_page.hpp"

#include <vector>

#include "exit_codes.hpp"
#include "gpufilter/version.hpp"
#include "help.hpp"
#include "options.hpp"

namespace gpufilter::cli {
namespace {

// Text as roff reads it literally: backslashes escaped, hyphens as hyphen-minus (what a
// reader types), and a line never starting with a control character.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string option_entries(const std::vector<OptionDoc>& docs, const std::string& group) {
  std::string text;
  for (const OptionDoc& doc : docs) {
    if (doc.group != group) continue;
    text += ".TP\n";
    if (!doc.short_name.empty()) text += "\\fB\\-" + roff(doc.short_name) + "\\fR, ";
    text += "\\fB\\-\\-" + roff(doc.name) + "\\fR";
    if (!doc.value.empty()) text += " \\fI" + roff(doc.value) + "\\fR";
    text += "\n" + roff(doc.help) + "\n";
  }
  return text;
}

}  // namespace

std::string man_page() {
  std::string text;
  text += ".TH GPUFILTER 1 \"\" \"gpufilter " + std::string(kVersion) + "\" \"User Commands\"\n";
  text += ".SH NAME\ngpufilter \\- image filters on the GPU\n";
  text += ".SH SYNOPSIS\n";
  text += ".B gpufilter\n.I OP IN OUT\n[\\fIoptions\\fR] [\\fB:\\fR \\fIOP\\fR [\\fIoptions\\fR]...]\n.br\n";
  text += ".B gpufilter\n.I OP IN...\n\\fB\\-\\-out\\-dir\\fR \\fIDIR\\fR [\\fIoptions\\fR]\n.br\n";
  text += ".B gpufilter help\n.I OP\n.br\n";
  text += ".B gpufilter\n\\fBlist\\fR | \\fBserver\\fR ... | \\fBcompletion bash\\fR|\\fBzsh\\fR | \\fBman\\fR | "
          "\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n";
  text += ".SH DESCRIPTION\n";
  text += roff("gpufilter runs one registered operation (or a chain of them, separated by ':') on an image file, "
               "on the GPU when one is usable and on the CPU otherwise. IN and OUT may be '-' for the standard "
               "input and output; OUT's suffix (or --format) names its format, and OUT '-' without --format "
               "takes IN's. OUT is written to a temporary file and renamed, and an existing OUT is replaced "
               "only with -y.") +
          "\n";
  const std::vector<OptionDoc> shared = option_docs(nullptr);
  text += ".SH OPERATIONS\n";
  for (const Operation& op : operations()) {
    text += ".SS " + roff(op.name) + "\n" + roff(op.summary) + "\n.PP\n";
    text += "Pixel formats: " + roff(describe_formats(op.formats)) + ". Variants: " + roff(join(op.variants, ", ")) +
            " (default: " + roff(op.default_variant) + ").\n";
    text += option_entries(option_docs(&op), op.name);
    if (op.uses_border) text += ".PP\nTakes the border options (\\fB\\-\\-border\\fR, \\fB\\-\\-border\\-value\\fR).\n";
  }
  text += ".SH BORDER OPTIONS\n" + option_entries(shared, kBorderGroup);
  text += ".SH COMMON OPTIONS\n" + option_entries(shared, kCommonGroup);
  text += ".SH EXIT STATUS\n";
  for (const ExitCodeDoc& doc : kExitCodeDocs)
    text += ".TP\n.B " + std::to_string(static_cast<int>(doc.code)) + "\n" + roff(doc.meaning) + "\n";
  text += ".SH EXAMPLES\n.nf\n";
  text += roff("gpufilter blur photo.png soft.png --sigma 2") + "\n";
  text += roff("gpufilter resize in.png out.png --size 50%") + "\n";
  text += roff("gpufilter blur *.jpg --out-dir blurred --suffix _soft") + "\n";
  text += roff("gpufilter blur - - < in.png > out.png") + "\n";
  text += ".fi\n";
  text += ".SH SEE ALSO\n" + roff("gpufilter list, gpufilter help OP, gpufilter server --help") + "\n";
  return text;
}

}  // namespace gpufilter::cli
