#include "gpufilter/io/batch_inputs.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/image_files.hpp"
#include "gpufilter/io/input_list.hpp"
#include "gpufilter/io/process_paths.hpp"
#include "gpufilter/io/spooled_input.hpp"
#include "files/quoted_path.hpp"

namespace gpufilter::io {
namespace {

void read_list(const std::filesystem::path& list, std::vector<std::filesystem::path>& inputs) {
  std::ifstream file;
  if (list != "-") {
    file.open(list, std::ios::binary);
    if (!file) throw IoError(Fault::Request, "cannot read the list " + quoted(list) + " (--from-file)");
  }
  const std::vector<std::filesystem::path> listed =
      parse_input_list(list == "-" ? std::cin : file, list == "-" ? "standard input" : quoted(list));
  inputs.insert(inputs.end(), listed.begin(), listed.end());
}

// --out-dir and its parents, made as mkdir -p would (0777 less the umask).
void make_output_directory(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw IoError(Fault::Output, "cannot make the output directory '" + directory.string() + "': " +
                                         error.message());
  }
}

// A batch into a folder that already holds some of its outputs stops before any work,
// so that no output is replaced without -y (and none is half the run's).
void refuse_existing_outputs(const std::vector<BatchItem>& items, const std::filesystem::path& out_dir) {
  std::size_t existing = 0;
  const BatchItem* first = nullptr;
  for (const BatchItem& item : items) {
    if (!output_exists(item.output)) continue;
    if (existing++ == 0) first = &item;
  }
  if (existing == 0) return;
  throw IoError(Fault::Request, std::to_string(existing) + " of the " + std::to_string(items.size()) +
                                      " outputs exist in '" + out_dir.string() + "' (the first: '" +
                                      first->output.string() + "'); pass -y to replace them");
}

}  // namespace

std::vector<BatchItem> plan_batch(const RunRequest& request) {
  const BatchOptions& batch = *request.batch;
  std::vector<std::filesystem::path> inputs = batch.inputs;
  if (!batch.from_file.empty()) read_list(batch.from_file, inputs);
  ProcessPathCheck process_paths;  // in a server: the list's /dev/fd/N are the caller's, not ours
  for (std::size_t i = batch.inputs.size(); i < inputs.size(); ++i)
    refuse_process_path_in_server(inputs[i], process_paths, "--from-file");

  std::vector<BatchItem> items;
  std::map<std::filesystem::path, std::filesystem::path> claimed;  // output -> the input writing it
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(batch.shard_count)) != batch.shard_index) continue;
    const std::filesystem::path& input = inputs[i];
    // A batch looks at its files more than once (which are JPEG, then each file's header,
    // metadata and pixels), before it knows which it will read when: a pipe would be
    // drained by the first look, and a named pipe would wait for another writer.
    if (reads_once(input)) {
      throw IoError(Fault::Request, quoted(input) + " is a pipe or device, which a batch cannot read; give it " +
                                        "alone (gpufilter OP IN OUT), where it is read once");
    }
    const std::string extension = batch.format.empty() ? input.extension().string() : batch.format;
    std::filesystem::path output = batch.out_dir / (input.stem().string() + batch.suffix + extension);
    const auto [at, fresh] = claimed.emplace(output.lexically_normal(), input);
    if (!fresh) {
      throw IoError(Fault::Request, "'" + at->second.string() + "' and '" + input.string() +
                                          "' would both be written to '" + output.string() +
                                          "'; give them different names or use --suffix");
    }
    items.push_back({input, std::move(output)});
  }
  make_output_directory(batch.out_dir);
  // The directory once, before any file is read (a PNG name stands for any output: each
  // output's own suffix is checked with its file, which fails alone).
  check_output_target(batch.out_dir / "any.png");
  if (!request.encode.replace_existing) refuse_existing_outputs(items, batch.out_dir);
  return items;
}

}  // namespace gpufilter::io
