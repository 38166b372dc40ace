// The rule that decides whether a command leaves a server for later ones
// (cli/server_rule.hpp), case by case.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "server_rule.hpp"

namespace gpufilter::cli {
namespace {

AutoServerFacts facts(ServerMode mode, std::map<std::string, std::string> variables = {}) {
  AutoServerFacts f;
  f.mode = mode;
  f.ran_on_gpu = true;
  f.named_devices = false;
  f.interactive = true;
  f.variable = [variables = std::move(variables)](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
  return f;
}

TEST(ServerRule, AnInteractiveGpuRunStartsOne) { EXPECT_EQ(why_no_auto_server(facts(ServerMode::Auto)), ""); }

TEST(ServerRule, OffNeverStartsOne) {
  EXPECT_EQ(why_no_auto_server(facts(ServerMode::Off)), "GPUFILTER_SERVER=off");
}

TEST(ServerRule, OnlyAfterAGpuRun) {
  AutoServerFacts f = facts(ServerMode::On);
  f.ran_on_gpu = false;
  EXPECT_EQ(why_no_auto_server(f), "the command did not run on a GPU");
}

TEST(ServerRule, NeverWhereTheCommandNamedItsGpus) {
  for (ServerMode mode : {ServerMode::Auto, ServerMode::On}) {
    AutoServerFacts f = facts(mode);
    f.named_devices = true;
    EXPECT_EQ(why_no_auto_server(f), "the command named its GPUs (--devices)");
  }
}

TEST(ServerRule, AutoNeedsATerminal) {
  AutoServerFacts f = facts(ServerMode::Auto);
  f.interactive = false;
  EXPECT_EQ(why_no_auto_server(f), "stderr is not a terminal");
  f.mode = ServerMode::On;
  EXPECT_EQ(why_no_auto_server(f), "") << "on: wherever the rest holds";
}

TEST(ServerRule, AutoStaysOutOfSchedulersAndCi) {
  for (const char* name : {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID", "FLUX_JOB_ID", "COBALT_JOBID", "CI"}) {
    EXPECT_NE(why_no_auto_server(facts(ServerMode::Auto, {{name, "42"}})), "") << name;
    EXPECT_EQ(why_no_auto_server(facts(ServerMode::On, {{name, "42"}})), "") << name;
  }
  // Set but empty is not set.
  EXPECT_EQ(why_no_auto_server(facts(ServerMode::Auto, {{"SLURM_JOB_ID", ""}})), "");
}

TEST(ServerRule, ModeFromTheEnvironment) {
  const struct {
    const char* value;
    ServerMode mode;
  } cases[] = {{"off", ServerMode::Off}, {"0", ServerMode::Off}, {"no", ServerMode::Off}, {"on", ServerMode::On},
               {"1", ServerMode::On},    {"yes", ServerMode::On}, {"auto", ServerMode::Auto}, {"", ServerMode::Auto}};
  for (const auto& c : cases) {
    ::setenv("GPUFILTER_SERVER", c.value, 1);
    EXPECT_EQ(server_mode(), c.mode) << c.value;
  }
  ::unsetenv("GPUFILTER_SERVER");
  EXPECT_EQ(server_mode(), ServerMode::Auto);
}

}  // namespace
}  // namespace gpufilter::cli
