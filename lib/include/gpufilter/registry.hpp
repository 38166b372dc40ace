#pragma once
/// @file
/// The operation registry: each op is declared once, here described, and the CLI's
/// subcommands and help, the conformance tests and the bench cases are generated
/// from it. An op's own file registers it (lib/src/common/operations.hpp), so adding an
/// op touches no shared list.
/// The descriptions and their member functions run on the host and never synchronize;
/// only the callbacks run_gpu and run_gpu_data enqueue GPU work, as the ops they wrap.
#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/tolerance.hpp"

namespace gpufilter {

/// What a parameter holds, which decides how it is written on the command line.
enum class ParamKind {
  Number,   ///< `--sigma 1.5`: a number in [min, max] (whole if `integer`)
  Choice,   ///< `--operator sobel`: one of `choices`
  Text,     ///< `--kernel "0 -1 0; -1 5 -1; 0 -1 0"`: free text the op parses itself
  Numbers,  ///< `--size 5x3`: min_items..max_items numbers, separated by 'x' or ','
  Flag,     ///< `--normalize`: present or not (1 or 0)
};

/// A number (Number, Flag), a string (Choice, Text) or a list of numbers (Numbers).
/// Whole numbers convert too, so {{"radius", 4}} reads as it should.
struct ParamValue : std::variant<double, std::string, std::vector<double>> {
  using variant::variant;
  /// An int becomes the double alternative.
  ParamValue(int value) : variant(static_cast<double>(value)) {}  // NOLINT: implicit by design
};

/// Parameter values by name, with typed access. Accessors throw Error(InvalidArgument)
/// naming the parameter when it is absent or of another kind.
struct ParamValues : std::map<std::string, ParamValue> {
  /// No values.
  ParamValues() = default;
  /// {{"sigma", 1.5}, {"operator", "sobel"}, ...}
  ParamValues(std::initializer_list<value_type> items) : std::map<std::string, ParamValue>(items) {}

  /// Whether a value named `name` is present, of any kind; does not throw.
  bool has(const std::string& name) const { return count(name) != 0; }
  /// The value of a Number or Flag parameter.
  double number(const std::string& name) const;
  /// `fallback` when absent; throws only when present and not a number.
  double number_or(const std::string& name, double fallback) const;
  /// The value of a Choice or Text parameter.
  const std::string& text(const std::string& name) const;
  /// The value of a Numbers parameter.
  const std::vector<double>& numbers(const std::string& name) const;
};

/// One parameter of an op: its name, help, kind, accepted values and default.
struct ParamSpec {
  std::string name;  ///< "sigma"; the CLI flag is --sigma
  std::string help;  ///< one line on what it does, for --help
  ParamKind kind = ParamKind::Number;  ///< what it holds
  bool integer = false;  ///< Number, Numbers: whole numbers only
  double min = 0.0;      ///< Number, Numbers: inclusive range of each number
  double max = 0.0;      ///< Number, Numbers: inclusive range of each number
  std::vector<std::string> choices;  ///< Choice: the accepted values
  int min_items = 1;                 ///< Numbers: fewest numbers
  int max_items = 1;                 ///< Numbers: most numbers
  std::optional<ParamValue> default_value;  ///< absent: derived by the op (see default_text)
  std::string default_text;                 ///< how the default is shown in --help
  std::string metavar;                      ///< how a value is written in --help ("N", "WxH")
  /// Numbers: the Number parameter a percentage given here sets instead, as a fraction
  /// (resize's --size 50% is --scale 0.5, as ImageMagick's -resize 50%); empty: none.
  std::string percent_sets;

  /// Reads a value of this kind from text ("1.5", "sobel", "5x3"; a Flag from "1"/"0";
  /// "50%" as that text where `percent_sets` names a parameter, for resolve() to map);
  /// throws Error(InvalidArgument) naming the parameter where a number (or an item of
  /// Numbers) is not a finite number. Ranges, item counts and choices are resolve()'s
  /// to judge.
  ParamValue parse(const std::string& text) const;
  /// The accepted values as --help shows them: "[0.1..100]", "sobel|scharr", ...;
  /// "" for Text and Flag.
  std::string accepted() const;
  /// The line `gpufilter OP --help` shows for the parameter (and the Python binding's
  /// help): the help, the accepted values but for a choice's, and the default.
  std::string describe() const;
};

/// @name ParamSpec builders
/// Builders that keep op definitions short; they check nothing and throw no Error.
///@{

/// A Number in [min, max]; metavar "N" when `integer`, else "X".
ParamSpec number_param(std::string name, std::string help, double min, double max, std::optional<double> default_value,
                       bool integer = false, std::string default_text = "");
/// A Choice among `choices`, `default_value` its default (shown as it is).
ParamSpec choice_param(std::string name, std::string help, std::vector<std::string> choices, std::string default_value);
/// Text the op parses, with no default value (`default_text` only shows one).
ParamSpec text_param(std::string name, std::string help, std::string metavar, std::string default_text);
/// min_items..max_items numbers, each in [min, max], with no default value.
ParamSpec numbers_param(std::string name, std::string help, int min_items, int max_items, double min, double max,
                        bool integer, std::string metavar, std::string default_text);
/// A Flag: the whole number 0 or 1, 0 by default.
ParamSpec flag_param(std::string name, std::string help);
///@}

/// An image's size and pixel format: what an op takes, and what an image op gives.
struct ImageShape {
  int width = 0;       ///< pixels
  int height = 0;      ///< rows
  PixelFormat format{};  ///< channel type and count
};
/// Equal width, height and format.
inline bool operator==(const ImageShape& a, const ImageShape& b) {
  return a.width == b.width && a.height == b.height && a.format == b.format;
}
/// Not operator==.
inline bool operator!=(const ImageShape& a, const ImageShape& b) { return !(a == b); }

/// The heading an op is listed under in the CLI's help and `gpufilter list`; the
/// registry keeps the ops in this order, by name within a group.
enum class OperationGroup {
  Filters,     ///< neighbourhood filters: blur, sharpen, edge, median, ...
  Geometry,    ///< transpose, rotate, flip, crop, resize
  Statistics,  ///< stats, histogram and the ops built on them (equalize, threshold, ...)
  Pixels,      ///< point operations on each pixel's values
  Formats,     ///< copies, channel and format conversions
};
/// The group's heading: "Filters", "Geometry", ...
const char* to_string(OperationGroup group);

/// What an op gives back: an image, or data about its input (stats, histogram).
enum class OutputKind { Image, Data };

/// A data op's result: a table of numbers, one row per row label and one column per
/// column name, stored row-major as doubles (whole numbers up to 2^53 are exact, which
/// covers 64-bit sums over 16K x 16K u16 images). Printers (table, CSV, JSON, chart)
/// and the tests' comparison work from this description alone.
struct DataLayout {
  std::string row_title;                ///< what a row is: "channel", "bin"
  std::vector<std::string> row_labels;  ///< "0", "1", ... or a bin's lower edge
  std::vector<std::string> columns;     ///< "min", "max", ... or one per channel
  /// Rows form an x axis (a histogram's bins): a chart draws one series per column.
  bool chartable = false;

  /// The number of doubles in the table: rows times columns.
  std::size_t size() const { return row_labels.size() * columns.size(); }
};

/// How far a data op's GPU value may stray from the reference's: |gpu - ref| must be at
/// most max_abs + max_rel * |ref|.
struct DataTolerance {
  double max_abs = 0.0;  ///< absolute part
  double max_rel = 0.0;  ///< part relative to |ref|
};

/// One op as the CLI, the tests and the bench see it: its parameters, formats, variants,
/// how to run it on the GPU and on the CPU, and how far the two may differ. The
/// callbacks a kind of op does not use (image or data) are empty.
struct Operation {
  std::string name;                    ///< the CLI subcommand: "blur"
  std::string summary;                 ///< one line for the CLI's op list
  OperationGroup group = OperationGroup::Filters;  ///< its heading in the op list
  std::vector<ParamSpec> params;       ///< the parameters, in --help order
  std::vector<PixelFormat> formats;    ///< the input formats it runs
  std::vector<std::string> variants;   ///< every kernel of the family, by name
  std::string default_variant;         ///< the one the library picks
  bool uses_border = false;            ///< whether run_gpu and run_reference read the Border
  OutputKind output = OutputKind::Image;  ///< an image (run_gpu) or a table (run_gpu_data)

  // ---- image ops (output == Image) ----
  /// The output's size and format for an input of `input`; empty: the input's own
  /// (filters). Throws Error(InvalidArgument) when the parameters do not fit the input
  /// (a crop rectangle outside the image). Use output_shape_for(), which applies the default.
  std::function<ImageShape(const ImageShape& input, const ParamValues&)> output_shape;
  /// Run on the GPU: device views, src of the input shape and dst of output_shape_for(),
  /// asynchronous on ctx.stream. Throws as the op it wraps does (see the op's header).
  std::function<void(const ImageView& src, const ImageView& dst, const ParamValues&,
                     const Border&, const std::string& variant, const ExecContext&)>
      run_gpu;
  /// Run the CPU reference: host views; synchronous on the host (see reference.hpp).
  std::function<void(const ImageView& src, const ImageView& dst, const ParamValues&,
                     const Border&)>
      run_reference;
  /// Run on the CPU at the CPU tools' speed (OpenCV's vectorized functions on all cores),
  /// within `tolerance` of the reference: host views, synchronous; throws what
  /// run_reference throws. Empty: the reference is the op's CPU path. Use run_on_cpu().
  std::function<void(const ImageView& src, const ImageView& dst, const ParamValues&, const Border&)> run_cpu;
  /// How far the GPU may stray from the reference for this format.
  std::function<Tolerance(PixelFormat)> tolerance;
  /// Variants that approximate the op within a looser contract than `tolerance` (blur's
  /// box_stack), by name, each with its own tolerance per format. Use tolerance_for().
  std::map<std::string, std::function<Tolerance(PixelFormat)>> variant_tolerance;
  /// Auto's contract where the parameters accept an approximation (an "accuracy" choice
  /// set to "fast": Auto may then pick such a variant). Empty: Auto keeps `tolerance`.
  std::function<Tolerance(PixelFormat)> fast_tolerance;
  /// Whether, for this 4-channel format and these resolved parameters, the op divides its colours
  /// by an alpha it computed with a mask that can cancel: tolerance_for() then compares
  /// colours premultiplied (Tolerance::colours_by_alpha). Empty: never.
  std::function<bool(PixelFormat, const ParamValues&)> colours_divided_by_alpha;

  // ---- data ops (output == Data) ----
  /// The table the op fills for an input of `input`.
  std::function<DataLayout(const ImageShape& input, const ParamValues&)> data_layout;
  /// Run on the GPU: src a device view; `result` device memory for data_layout().size()
  /// doubles, written asynchronously on ctx.stream.
  std::function<void(const ImageView& src, double* result, const ParamValues&, const std::string& variant,
                     const ExecContext&)>
      run_gpu_data;
  /// Run the CPU reference: src a host view, `result` host memory as above; synchronous.
  std::function<void(const ImageView& src, double* result, const ParamValues&)> run_reference_data;
  /// Run on the CPU at the CPU tools' speed (all cores), within data_tolerance of the
  /// reference: as run_reference_data, and throws what it throws. Empty: the reference is
  /// the op's CPU path. Use run_data_on_cpu().
  std::function<void(const ImageView& src, double* result, const ParamValues&)> run_cpu_data;
  /// How far the GPU may stray from the reference in a column, for this input format.
  std::function<DataTolerance(PixelFormat, const std::string& column)> data_tolerance;

  /// Bytes a perfect kernel moves through DRAM: each input read once, output written
  /// once (width, height: the input's).
  std::function<std::size_t(int width, int height, PixelFormat, const ParamValues&)> bytes_moved;

  /// How far from an output pixel, in x and in y, lie the input pixels it depends on, for
  /// these resolved parameters (blur: its radius; a 5x3 box: 2, 1; a point op: 0, 0): a
  /// tile of the result needs only the tile of the input and this much around it, read
  /// with the op's border where it passes the image's edge (the depth of Dask's
  /// map_overlap). Empty: no such bound, as where each output pixel depends on the whole
  /// image (equalize) or the op moves pixels (geometry). Throws what resolve() throws.
  std::function<std::array<int, 2>(const ParamValues&)> reach;

  /// Rules between parameters, or on text the op parses (a mask, a mask file): throws
  /// Error(InvalidArgument) saying what is wrong. resolve() calls it, so a bad
  /// combination is refused before any file is read. May be empty.
  std::function<void(const ParamValues&)> check;

  ParamValues bench_params;  ///< the parameters the bench times (defaults fill the rest)
  ParamValues test_params;   ///< the parameters the conformance tests use
  /// Parameters that reach a variant where test_params do not (blur's box_stack runs
  /// sigma >= 3 only, the 8-bit kernels masks up to 9x9): they replace test_params in that
  /// variant's conformance cases. Use test_params_for().
  std::map<std::string, ParamValues> variant_test_params;

  /// The kernel that `variant` runs for an input of `format` with these resolved
  /// parameters on the current GPU: a variant that cannot run them falls back to a
  /// simpler one (a filter's mask beyond separable_packed's 9x9), and the default variant
  /// names the kernel it picks. Empty: every variant runs itself. Use applied_variant_for().
  /// May query the current device; throws what the op's parameter checks throw.
  std::function<std::string(PixelFormat, const ParamValues&, const std::string& variant)> applied_variant;

  /// The op on the CPU: run_cpu where the op has one, else run_reference.
  void run_on_cpu(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border) const;
  /// The data op on the CPU: run_cpu_data where the op has one, else run_reference_data.
  void run_data_on_cpu(const ImageView& src, double* result, const ParamValues& values) const;
  /// Whether `format` is one of `formats`.
  bool supports(PixelFormat format) const;
  /// Whether the op gives an image (output == Image).
  bool produces_image() const { return output == OutputKind::Image; }
  /// output_shape(input, params), or `input` when the op keeps the shape; throws what
  /// output_shape throws.
  ImageShape output_shape_for(const ImageShape& input, const ParamValues& params) const;
  /// Whether `variant` is one of `variants`.
  bool has_variant(const std::string& variant) const;
  /// How far `variant` may stray from the reference for this format: fast_tolerance
  /// where `variant` is the default variant, the op has fast_tolerance and `values` has
  /// "accuracy" set to "fast"; else its entry in variant_tolerance where it has one; else
  /// tolerance(format). With `values` (the run's parameters, resolved or not; throws what
  /// resolve() throws), colours_by_alpha as colours_divided_by_alpha says for them; without,
  /// the plain comparison.
  Tolerance tolerance_for(PixelFormat format, const std::string& variant, const ParamValues& values = {}) const;
  /// The parameter named `name`; nullptr when absent.
  const ParamSpec* find_param(const std::string& name) const;
  /// variant_test_params' entry for `variant`, else test_params.
  const ParamValues& test_params_for(const std::string& variant) const;
  /// applied_variant(format, values, variant) where the op has the hook, else `variant`.
  std::string applied_variant_for(PixelFormat format, const ParamValues& values, const std::string& variant) const;
  /// Checks names, kinds and ranges, fills defaults (a parameter without one stays
  /// absent) and applies `check`; throws Error(InvalidArgument) with a message naming the
  /// op, the parameter, what it accepts and the value given (or check's own message).
  ParamValues resolve(const ParamValues& given) const;
};

/// Every op, built once on the first call (thread-safe), ordered by group and then by
/// name; host only.
const std::vector<Operation>& operations();
/// The op named `name`; nullptr when no op has this name. Throws no Error of its own.
const Operation* find_operation(const std::string& name);

}  // namespace gpufilter
