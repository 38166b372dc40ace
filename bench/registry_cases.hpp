#pragma once
// Bench cases generated from the operation registry: every op x variant x supported
// format x size (x border, for ops that use one), the lab's variants of the op beside
// them (lab/lab.hpp), followed by the op's peers.
#include "bench_case.hpp"
#include "gpufilter/registry.hpp"
#include "options.hpp"

namespace bench {

// "blur/tiled/u8x4/8K/reflect101": the border only for ops that use one, the data
// pattern only when not "random". `params` are resolved (the op's bench parameters, with
// any --param replacements).
CaseSpec make_variant_case(const gpufilter::Operation& op, const std::string& variant, gpufilter::PixelFormat format,
                           const ImageSize& size, gpufilter::BorderMode border, const gpufilter::ParamValues& params,
                           const std::string& data = "random");

// Registers every case the options select; returns how many.
int register_registry_cases(const BenchOptions& options);

}  // namespace bench
