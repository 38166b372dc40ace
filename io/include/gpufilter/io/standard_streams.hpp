#pragma once
/// @file
/// IN and OUT given as '-': the standard input and output of the command.
///
/// IN '-' is read once into memory (spooled_input.hpp), and named "standard input" in
/// messages. OUT '-' stands for a name of its own, "-" with --format's suffix, so that
/// every check that picks a format by OUT's suffix works unchanged; its bytes go to the
/// standard output instead of a file, once fully encoded.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace gpufilter::io {

/// OUT '-' with --format's suffix (".png").
std::filesystem::path standard_output_path(const std::string& suffix);
bool is_standard_output(const std::filesystem::path& output);

/// Writes an encoded image to the standard output, all of it. Throws IoError(Output).
void write_standard_output(const std::vector<unsigned char>& bytes);
/// Writes `size` bytes to the standard output now, all of them, or throws IoError(Output)
/// naming `what` ("the table") and why: a closed standard output, a full disk. Data lost
/// on the way out is never a success.
void write_standard_output(const void* data, std::size_t size, const std::string& what);

}  // namespace gpufilter::io
