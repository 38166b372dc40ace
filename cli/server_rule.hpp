#pragma once
// Whether a command leaves a server starting for later ones (server_auto.hpp acts on it).
// The rule, in order:
// - GPUFILTER_SERVER=off (or 0, no) never starts one, and no command is sent to one;
// - only after a command that ran on a GPU in its own process;
// - never where the command named its GPUs (--devices): the server would hold GPUs the
//   user meant to share out; CUDA_VISIBLE_DEVICES is inherited, so a server holds only
//   what the command could see (and commands with other values run on their own);
// - with GPUFILTER_SERVER=auto (the default), only in an interactive session (stderr is a
//   terminal) outside batch schedulers and CI (SLURM_JOB_ID, PBS_JOBID, LSB_JOBID,
//   JOB_ID, FLUX_JOB_ID, COBALT_JOBID, CI set): a job's GPUs are not kept after it by
//   surprise;
// - GPUFILTER_SERVER=on starts one wherever the rest holds.
#include <functional>
#include <string>

namespace gpufilter::cli {

enum class ServerMode { Off, Auto, On };

// GPUFILTER_SERVER: off/0/no, on/1/yes, else auto.
ServerMode server_mode();

// The facts the rule reads; `variable` looks up the environment.
struct AutoServerFacts {
  ServerMode mode = ServerMode::Auto;
  bool ran_on_gpu = false;
  bool named_devices = false;
  bool interactive = false;
  std::function<const char*(const char*)> variable;
};

// Why the rule keeps this command from starting a server; empty where it starts one.
std::string why_no_auto_server(const AutoServerFacts& facts);

}  // namespace gpufilter::cli
