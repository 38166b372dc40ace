#pragma once
// IN and OUT given as '-': the standard input and output of the command.
//
// IN '-' is read whole into an anonymous in-memory file first (the decoders read by
// path and look at the header before the pixels), and named "standard input" in
// messages. OUT '-' stands for a name of its own, "-" with --format's suffix, so that
// every check that picks a format by OUT's suffix works unchanged; its bytes go to the
// standard output instead of a file, once fully encoded.
#include <filesystem>
#include <string>
#include <vector>

namespace gpufilter::io {

// OUT '-' with --format's suffix (".png").
std::filesystem::path standard_output_path(const std::string& suffix);
bool is_standard_output(const std::filesystem::path& output);

// Writes an encoded image to the standard output, all of it. Throws IoError(Output).
void write_standard_output(const std::vector<unsigned char>& bytes);

// The standard input, read to its end into an in-memory file that lives as long as this
// object. Throws IoError(Input) when it cannot be read or is empty.
class SpooledStandardInput {
 public:
  SpooledStandardInput();
  ~SpooledStandardInput();
  SpooledStandardInput(const SpooledStandardInput&) = delete;
  SpooledStandardInput& operator=(const SpooledStandardInput&) = delete;

  // A path that opens the in-memory file.
  const std::filesystem::path& path() const { return path_; }
  // `message` with the in-memory file's path named as "standard input".
  std::string describe(std::string message) const;

 private:
  int fd_ = -1;
  std::filesystem::path path_;
};

}  // namespace gpufilter::io
