// The rule that decides whether a command leaves a server for later ones
// (cli/server_rule.hpp), case by case.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "server_peer.hpp"
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

// The confinement a server compares with its caller's: exactly the lines that say how
// a process is confined, whatever else its status holds.
TEST(ServerPeer, ConfinementLinesAreTheStatusLinesThatConfine) {
  const std::string status =
      "Name:\tgpufilter\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t42\nCapInh:\t0000000000000000\n"
      "CapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
      "CapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\nVmRSS:\t1000 kB\n";
  EXPECT_EQ(confinement_lines(status),
            "CapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n"
            "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n"
            "Seccomp_filters:\t0\n");
  std::string dropped = status;
  dropped.replace(dropped.find("CapBnd:\t000001ffffffffff"), 25, "CapBnd:\t000001fffffffffd");
  EXPECT_NE(confinement_lines(dropped), confinement_lines(status)) << "a dropped bounding capability";
  std::string no_new_privs = status;
  no_new_privs.replace(no_new_privs.find("NoNewPrivs:\t0"), 14, "NoNewPrivs:\t1");
  EXPECT_NE(confinement_lines(no_new_privs), confinement_lines(status));
  EXPECT_EQ(confinement_lines(status + "Mems_allowed:\t1\n"), confinement_lines(status)) << "other lines do not count";
}

}  // namespace
}  // namespace gpufilter::cli
