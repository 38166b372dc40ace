#pragma once
// The lab: kernels the library does not ship (launch-shape experiments, superseded
// kernels, the seeds' tutorial steps; docs/lab.md). Each runs as a variant of a
// registered op, under the name the bench's rows and the tests give it, so it is timed
// and checked beside the library's own variants. Linked by the bench and the GPU tests,
// never by the library or the CLI.
#include <functional>
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/tolerance.hpp"

namespace gpufilter::lab {

// An image op's run: src and dst as the op's run_gpu takes them, `params` resolved
// (Operation::resolve); asynchronous on ctx.stream. Throws as the op does.
using ImageRun = std::function<void(const ImageView& src, const ImageView& dst, const ParamValues& params,
                                    const Border& border, const ExecContext& ctx)>;
// A data op's run: `result` device memory for the op's DataLayout, as run_gpu_data.
using DataRun =
    std::function<void(const ImageView& src, double* result, const ParamValues& params, const ExecContext& ctx)>;

struct LabVariant {
  std::string op;       // the registered op whose output it computes: "blur"
  std::string variant;  // its name in bench rows and tests: "separable_fixed"
  std::string help;     // one line: what it tries
  ImageRun run;         // image ops
  DataRun run_data;     // data ops
  // Its tolerance where its contract is looser than the op's (box_stack_two_pass);
  // empty: the op's (Operation::tolerance_for).
  std::function<Tolerance(PixelFormat)> tolerance;
  // Whether it runs its own kernel for this format and these resolved parameters on the
  // current GPU; where it does not, it runs the simpler kernel a library variant would
  // fall back to. Empty: always its own.
  std::function<bool(PixelFormat, const ParamValues&)> runs_itself;
  // Parameters that reach its kernel where the op's test_params do not (the 8-bit
  // kernels' masks up to 9x9); empty: the op's.
  ParamValues test_params;
};

// Every lab variant, grouped by op in the registry's order, built on the first call.
const std::vector<LabVariant>& lab_variants();
// The lab variants of one op, in listing order (none for most ops).
std::vector<const LabVariant*> lab_variants_of(const std::string& op);
// nullptr when the lab has no such variant of `op`.
const LabVariant* find_lab_variant(const std::string& op, const std::string& variant);

// The op's variants, the library's (Operation::variants) then the lab's.
std::vector<std::string> library_and_lab_variants(const Operation& op);

// The tolerance a lab variant is judged by for this format and these resolved parameters.
Tolerance tolerance_for(const LabVariant& variant, const Operation& op, PixelFormat format, const ParamValues& params);
// The library's variant of that name where the op has it, else the lab's: for tools
// that take a variant by name (gpufilter-memory-bench). Throws Error(InvalidArgument)
// for a name neither has.
void run_variant(const Operation& op, const std::string& variant, const ImageView& src, const ImageView& dst,
                 const ParamValues& params, const Border& border, const ExecContext& ctx);
// The same for data ops (Operation::run_gpu_data).
void run_data_variant(const Operation& op, const std::string& variant, const ImageView& src, double* result,
                      const ParamValues& params, const ExecContext& ctx);

}  // namespace gpufilter::lab
