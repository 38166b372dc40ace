#pragma once
// How an op joins the registry: its own file registers its factory,
//   GPUFILTER_REGISTER_OPERATION(make_median_operation);
// at namespace scope, and operations() (registry.cpp) calls every registered factory
// once, on its first call. No list names the ops, so adding one touches no shared file.
#include <cstddef>
#include <string>
#include <vector>

#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

using OperationFactory = Operation (*)();
using OperationFamilyFactory = std::vector<Operation> (*)();

// Constructed before main() (or as the library loads) by GPUFILTER_REGISTER_OPERATION;
// registers a factory of one op, or of a family of ops that share one.
struct OperationRegistration {
  explicit OperationRegistration(OperationFactory make);
  explicit OperationRegistration(OperationFamilyFactory make);
};

#define GPUFILTER_REGISTER_OPERATION_JOIN2(a, b) a##b
#define GPUFILTER_REGISTER_OPERATION_JOIN(a, b) GPUFILTER_REGISTER_OPERATION_JOIN2(a, b)
// Names made with __COUNTER__, not __LINE__: the unity build compiles several of these
// files as one, where two registrations may sit on the same line of their files.
#define GPUFILTER_REGISTER_OPERATION(factory)                                                    \
  static const ::gpufilter::ops::OperationRegistration GPUFILTER_REGISTER_OPERATION_JOIN( \
      gpufilter_registration_, __COUNTER__)(factory)

// An op's GPU side, bound apart from the op: the file that launches its kernels sets
// the op's run_gpu, run_gpu_data and applied_variant, for one op by name or for each op
// of a family it recognises,
//   GPUFILTER_BIND_GPU("median", bind_median);   // bind_median(Operation&)
//   GPUFILTER_BIND_GPU_FAMILY(bind_filters);     // called for every op
// so that the op files themselves (parameters, reference, CPU path) and the registry
// hold no device code: gpufilter_host_core, which the CPU tests link, is them alone.
// libgpufilter has both sides; operations() binds each op's GPU side once.
using GpuBinder = void (*)(Operation& op);

struct GpuBinding {
  GpuBinding(const char* op, GpuBinder bind);
  explicit GpuBinding(GpuBinder bind_family);
};

#define GPUFILTER_BIND_GPU(op, binder)                                                                   \
  static const ::gpufilter::ops::GpuBinding GPUFILTER_REGISTER_OPERATION_JOIN(gpufilter_gpu_binding_, \
                                                                              __COUNTER__)(op, binder)
#define GPUFILTER_BIND_GPU_FAMILY(binder)                                                                \
  static const ::gpufilter::ops::GpuBinding GPUFILTER_REGISTER_OPERATION_JOIN(gpufilter_gpu_binding_, \
                                                                              __COUNTER__)(binder)

// A family's GPU runs by op name (the point ops', the conversions'): the op of a row takes
// its run, with the variant its name names.
template <class Variant>
struct FamilyRun {
  const char* op;
  void (*run)(const ImageView&, const ImageView&, const ParamValues&, Variant, const ExecContext&);
};

template <class Variant, std::size_t N>
void bind_family_run(Operation& op, const FamilyRun<Variant> (&runs)[N],
                     Variant (*variant_from_name)(const std::string&)) {
  for (const FamilyRun<Variant>& entry : runs) {
    if (op.name != entry.op) continue;
    op.run_gpu = [run = entry.run, variant_from_name](const ImageView& src, const ImageView& dst,
                                                      const ParamValues& values, const Border&,
                                                      const std::string& variant, const ExecContext& ctx) {
      run(src, dst, values, variant_from_name(variant), ctx);
    };
  }
}

// "c0", "c1", ...: the data ops' names for channels.
std::vector<std::string> channel_labels(int channels);

}  // namespace gpufilter::ops
