#include "help.hpp"

#include <cuda_runtime_api.h>

#include <opencv2/core/version.hpp>

#include <algorithm>
#include <charconv>
#include <string_view>

#include "exit_codes.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/version.hpp"

namespace gpufilter::cli {
namespace {

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string variants_text(const Operation& op) {
  std::string text;
  for (const std::string& variant : op.variants) {
    if (!text.empty()) text += ' ';
    text += variant;
    if (variant == op.default_variant) text += '*';
  }
  return text;
}

std::size_t longest_op_name() {
  std::size_t longest = 0;
  for (const Operation& op : operations()) longest = std::max(longest, op.name.size());
  return longest;
}

// The heading of `op`'s group ("Filters:") where `op` is the first of it, after a blank
// line where another group came before; empty inside a group.
std::string heading_before(const Operation* previous, const Operation& op) {
  if (previous != nullptr && previous->group == op.group) return "";
  return std::string(previous != nullptr ? "\n" : "") + to_string(op.group) + ":\n";
}

}  // namespace

std::string format_number(double value) {
  char buffer[64];
  const auto [end, status] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return status == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

std::string describe_formats(const std::vector<PixelFormat>& formats) {
  // Group by channel type, in the library's own order of formats.
  std::string text;
  for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32}) {
    std::vector<int> channels;
    for (const PixelFormat& format : all_pixel_formats()) {
      if (format.type == type && std::find(formats.begin(), formats.end(), format) != formats.end()) {
        channels.push_back(format.channels);
      }
    }
    if (channels.empty()) continue;
    if (!text.empty()) text += ' ';
    text += std::string(to_string(type)) + 'x';
    if (channels.size() == 1) {
      text += std::to_string(channels[0]);
      continue;
    }
    text += '{';
    for (std::size_t i = 0; i < channels.size(); ++i) text += (i ? "," : "") + std::to_string(channels[i]);
    text += '}';
  }
  return text.empty() ? "none" : text;
}

std::string operation_table() {
  // One block an op, wrapped to the terminal: the summary beside the name, the variants
  // and formats below it; a heading per group.
  const std::size_t column = longest_op_name() + 2;
  const std::size_t text_width = kHelpWidth - column;
  const std::string indent(column, ' ');
  std::string text;
  const Operation* previous = nullptr;
  for (const Operation& op : operations()) {
    text += heading_before(previous, op);
    previous = &op;
    text += padded(op.name, column) + wrapped(op.summary, text_width, column) + '\n';
    text += indent + wrapped("variants: " + variants_text(op), text_width - 2, column + 2) + '\n';
    text += indent + wrapped("formats: " + describe_formats(op.formats), text_width - 2, column + 2) + '\n';
  }
  text += "\n* the variant used unless --variant says otherwise. 'gpufilter help OP' lists\n"
          "  an op's parameters.\n";
  return text;
}

std::string general_help(const std::string& common_options) {
  std::string text = std::string("gpufilter ") + kVersion + " - image filters on the GPU\n\n";
  text +=
      "Usage:\n"
      "  gpufilter OP IN OUT [--PARAM VALUE...] [options]\n"
      "  gpufilter help OP       the parameters of one op (also: OP --help; every option: OP --help-all)\n"
      "  gpufilter list          every op with its variants and pixel formats\n"
      "  gpufilter server start  keep the GPU warm for the commands that follow (server --help)\n"
      "  gpufilter completion bash|zsh   shell completion, e.g. source <(gpufilter completion bash)\n"
      "  gpufilter man           the manual page, e.g. gpufilter man | man -l -\n"
      "  gpufilter --help | --version\n\n";
  // Wrapped to the terminal, as `gpufilter list` is; a heading per group.
  const std::size_t width = longest_op_name();
  const std::size_t column = width + 4;
  const Operation* previous = nullptr;
  for (const Operation& op : operations()) {
    text += heading_before(previous, op);
    previous = &op;
    text += "  " + padded(op.name, width + 2) + wrapped(op.summary, kHelpWidth - column, column) + '\n';
  }
  text += '\n' + common_options;
  text +=
      "\nFiles are read and written with the tool's PNG codec, libjpeg-turbo and OpenCV\n"
      "(PNG, JPEG, TIFF, BMP, PNM, WebP, ...);\n"
      "8-bit, 16-bit and 32-bit float pixels with 1, 3 or 4 channels. OUT's suffix picks\n"
      "the format, which must hold IN's depth (no 16-bit JPEG); alpha written to a format\n"
      "without it (JPEG, PNM) is flattened onto --background.\n"
      "OUT is written to a temporary file and renamed, so it is never left half written.\n"
      "\nExit codes:\n";
  for (const ExitCodeDoc& doc : kExitCodeDocs) {
    text += "  " + std::to_string(static_cast<int>(doc.code)) + "  " + wrapped(doc.meaning, 72, 5) + '\n';
  }
  return text;
}

std::string version_text() {
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  std::string text = std::string("gpufilter ") + kVersion + '\n';
  text += std::string("OpenCV ") + CV_VERSION + '\n';
  text += "CUDA runtime " + std::to_string(runtime / 1000) + '.' + std::to_string(runtime % 1000 / 10) + '\n';
#if defined(GPUFILTER_DEVICE_CODE_UNOPTIMIZED)
  text += "device code: not optimized (a build that checks it compiles; its kernels are slow)\n";
#endif
  return text;
}

std::string wrapped(const std::string& text, std::size_t width, std::size_t indent) {
  std::string result;
  std::string line;
  std::string::size_type start = 0;
  while (start < text.size()) {
    auto end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      result += line + '\n' + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return result + line;
}

}  // namespace gpufilter::cli
