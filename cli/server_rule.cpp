#include "server_rule.hpp"

#include <cstdlib>
#include <cstring>

namespace gpufilter::cli {
namespace {

constexpr const char* kSchedulerVariables[] = {"SLURM_JOB_ID", "PBS_JOBID",   "LSB_JOBID",
                                               "JOB_ID",       "FLUX_JOB_ID", "COBALT_JOBID"};

bool set(const AutoServerFacts& facts, const char* name) {
  const char* value = facts.variable(name);
  return value != nullptr && *value != '\0';
}

}  // namespace

ServerMode server_mode() {
  const char* value = std::getenv("GPUFILTER_SERVER");
  if (value == nullptr) return ServerMode::Auto;
  for (const char* off : {"off", "0", "no"})
    if (std::strcmp(value, off) == 0) return ServerMode::Off;
  for (const char* on : {"on", "1", "yes"})
    if (std::strcmp(value, on) == 0) return ServerMode::On;
  return ServerMode::Auto;
}

std::string why_no_auto_server(const AutoServerFacts& facts) {
  if (facts.mode == ServerMode::Off) return "GPUFILTER_SERVER=off";
  if (!facts.ran_on_gpu) return "the command did not run on a GPU";
  if (facts.named_devices) return "the command named its GPUs (--devices)";
  if (facts.mode == ServerMode::On) return "";
  if (!facts.interactive) return "stderr is not a terminal";
  for (const char* name : kSchedulerVariables)
    if (set(facts, name)) return std::string("a batch scheduler's job (") + name + ")";
  if (set(facts, "CI")) return "a CI job (CI)";
  return "";
}

}  // namespace gpufilter::cli
