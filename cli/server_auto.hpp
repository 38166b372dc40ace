#pragma once
// The server without asking (GPUFILTER_SERVER=auto, the default): a command that ran on a
// GPU in its own process leaves a server starting in the background, so that later
// commands find the GPU, nvJPEG and the codecs warm (server.hpp), where server_rule.hpp's
// rule allows and no server runs or starts already. An auto-started server stops after
// kAutoIdleSeconds without a command. The first one a user gets is announced on stderr
// once (a mark in the user's cache folder).
#include "server_rule.hpp"

namespace gpufilter::cli {

constexpr double kAutoIdleSeconds = 300.0;

// First thing in main(): the environment the auto-started server is given (the user's,
// before the run sets variables of its own).
void remember_initial_environment();

// The process-wide record that a command ran on a GPU here (set where the run resolves
// its device).
void note_ran_on_gpu();
bool ran_on_gpu();

// After a command in its own process: starts a server in the background where the rule
// says so (`server start` detached, its output to its log, the initial environment).
// Never fails the command.
void leave_a_server_for_later(bool named_devices);

}  // namespace gpufilter::cli
