#pragma once
// The operation registry: each op is declared once, here described, and the CLI's
// subcommands and help, the conformance tests and the bench cases are generated
// from it. Adding an op means adding one make_*_operation() to registry.cpp.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/tolerance.hpp"

namespace gpufilter {

struct ParamSpec {
  std::string name;                      // "sigma"; the CLI flag is --sigma
  std::string help;
  bool integer = false;
  double min = 0.0;                      // inclusive range
  double max = 0.0;
  std::optional<double> default_value;   // absent: derived by the op (see default_text)
  std::string default_text;              // how the default is shown in --help
};

using ParamValues = std::map<std::string, double>;

struct Operation {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::vector<PixelFormat> formats;
  std::vector<std::string> variants;   // every kernel of the family, by name
  std::string default_variant;         // the one the library picks
  bool uses_border = false;

  // Run on the GPU: device views, asynchronous on ctx.stream.
  std::function<void(const ImageView& src, const ImageView& dst, const ParamValues&,
                     const Border&, const std::string& variant, const ExecContext&)>
      run_gpu;
  // Run the CPU reference: host views.
  std::function<void(const ImageView& src, const ImageView& dst, const ParamValues&,
                     const Border&)>
      run_reference;
  // How far the GPU may stray from the reference for this format.
  std::function<Tolerance(PixelFormat)> tolerance;
  // Bytes a perfect kernel moves through DRAM: each input read once, output written once.
  std::function<std::size_t(int width, int height, PixelFormat, const ParamValues&)> bytes_moved;

  ParamValues bench_params;  // the parameters the bench times (defaults fill the rest)
  ParamValues test_params;   // the parameters the conformance tests use

  bool supports(PixelFormat format) const;
  bool has_variant(const std::string& variant) const;
  // Checks names and ranges and fills defaults; throws Error(InvalidArgument) with a
  // message naming the op, the parameter, the range and the value given.
  ParamValues resolve(const ParamValues& given) const;
};

const std::vector<Operation>& operations();
// nullptr when no op has this name.
const Operation* find_operation(const std::string& name);

}  // namespace gpufilter
