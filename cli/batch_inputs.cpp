#include "batch_inputs.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "exit_codes.hpp"
#include "image_files.hpp"

namespace gpufilter::cli {
namespace {

// One path a line; blank lines skipped, a Windows line end tolerated.
void read_list(const std::filesystem::path& list, std::vector<std::filesystem::path>& inputs) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (list != "-") {
    file.open(list);
    if (!file) throw CliError(ExitCode::Usage, "cannot read the list '" + list.string() + "' (--from-file)");
    in = &file;
  }
  for (std::string line; std::getline(*in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) inputs.emplace_back(line);
  }
}

}  // namespace

std::vector<BatchItem> plan_batch(const RunRequest& request) {
  const BatchOptions& batch = *request.batch;
  std::vector<std::filesystem::path> inputs = batch.inputs;
  if (!batch.from_file.empty()) read_list(batch.from_file, inputs);

  std::vector<BatchItem> items;
  std::map<std::filesystem::path, std::filesystem::path> claimed;  // output -> the input writing it
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(batch.shard_count)) != batch.shard_index) continue;
    const std::filesystem::path& input = inputs[i];
    std::filesystem::path output =
        batch.out_dir / (input.stem().string() + batch.suffix + input.extension().string());
    const auto [at, fresh] = claimed.emplace(output.lexically_normal(), input);
    if (!fresh) {
      throw CliError(ExitCode::Usage, "'" + at->second.string() + "' and '" + input.string() +
                                          "' would both be written to '" + output.string() +
                                          "'; give them different names or use --suffix");
    }
    items.push_back({input, std::move(output)});
  }
  // The directory once, before any file is read (a PNG name stands for any output: each
  // output's own suffix is checked with its file, which fails alone).
  check_output_target(batch.out_dir / "any.png");
  return items;
}

}  // namespace gpufilter::cli
