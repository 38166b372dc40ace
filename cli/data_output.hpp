#pragma once
// Printing a data op's result (stats, histogram) from its DataLayout alone: an aligned
// table for people, CSV and JSON for scripts, and a line chart for tables whose rows
// form an axis.
#include <filesystem>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/io/process_file.hpp"

namespace gpufilter::cli {

// The text for stdout, ending in a newline.
std::string format_data(const io::DataSource& source, const DataLayout& layout, const std::vector<double>& values,
                        DataFormat format);

// Draws one line per column over the rows and writes it atomically to `path` (PNG).
// Throws CliError(Usage) when the layout's rows form no axis, CliError(Output) when the
// file cannot be written.
void write_chart(const std::filesystem::path& path, const io::DataSource& source, const DataLayout& layout,
                 const std::vector<double>& values, const io::EncodeOptions& options);

}  // namespace gpufilter::cli
