// End-to-end tests of what users of other command-line tools expect of this one: names
// suggested for a mistyped op or option, `help OP`, a short op help, the man page and the
// shell completions generated from the registry, `--size P%`, `- -` in IN's format and
// `--format` for an OUT without a suffix.
// Ops, parameters and choices come from the registry, so a new op is covered as it is.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "gpufilter/registry.hpp"

// A namespace of its own: the test sources build in unity batches.
namespace gpufilter::cli_test::habits {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2;

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

class CliHabitsTest : public ::testing::Test {
 protected:
  CliHabitsTest() {
    ::setenv("GPUFILTER_SERVER", "off", 1);
    ::setenv("XDG_CACHE_HOME", (capture_.path() / "cache").c_str(), 1);
  }
  ProcessResult gpufilter(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path(), options);
  }
  // A run with `file` as its standard input.
  ProcessResult gpufilter_reading(const std::string& file, const std::vector<std::string>& args) {
    ProcessOptions from_file;
    from_file.before_exec = [file] {
      const int fd = ::open(file.c_str(), O_RDONLY);
      if (fd >= 0) ::dup2(fd, STDIN_FILENO);
    };
    return gpufilter(args, from_file);
  }
  // A usage error: exit 2 and one "gpufilter: error:" line, returned.
  std::string usage_error_of(const std::vector<std::string>& args) {
    const ProcessResult run = gpufilter(args);
    EXPECT_EQ(run.exit_code, kUsage) << run.err;
    const auto lines = run.err_lines();
    EXPECT_EQ(lines.size(), 1u) << run.err;
    EXPECT_EQ(run.out, "");
    return lines.empty() ? "" : lines.front();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // What bash's completion offers for the words of a command line (the last one being
  // completed), through the script `gpufilter completion bash` prints.
  std::vector<std::string> bash_completes(const std::vector<std::string>& words) {
    const std::string script = path("gpufilter.bash");
    if (!fs::exists(script)) {
      const ProcessResult run = gpufilter({"completion", "bash"});
      EXPECT_EQ(run.exit_code, 0) << run.err;
      write_bytes(script, run.out);
    }
    std::string command = "source '" + script + "'; COMP_WORDS=(";
    for (const std::string& word : words) command += "'" + word + "' ";
    command += "); COMP_CWORD=" + std::to_string(words.size() - 1) +
               "; _gpufilter; printf '%s\\n' \"${COMPREPLY[@]}\"";
    const ProcessResult run = run_process("/bin/bash", {"--norc", "-c", command}, capture_.path());
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::vector<std::string> offered;
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) offered.push_back(line);
    std::sort(offered.begin(), offered.end());
    return offered;
  }

  ScratchDir capture_;
  ScratchDir dir_;
};

// ---- did you mean ----------------------------------------------------------------------

TEST_F(CliHabitsTest, AMistypedOpIsAnsweredWithTheNearestOps) {
  const std::string line = usage_error_of({"blurr", "in.png", "out.png"});
  EXPECT_TRUE(contains(line, "unknown op 'blurr'; did you mean 'blur'?")) << line;
  EXPECT_FALSE(contains(line, "histogram")) << "the whole list again: " << line;
  EXPECT_TRUE(contains(usage_error_of({"medain"}), "did you mean 'median'?"));
  EXPECT_TRUE(contains(usage_error_of({"help", "sharpn"}), "did you mean 'sharpen'?"));
  EXPECT_TRUE(contains(usage_error_of({"blur", "a.png", "b.png", ":", "grey"}), "did you mean 'gray'?"));
  // Nothing near: where to look instead.
  const std::string far = usage_error_of({"qqqqqqqq"});
  EXPECT_TRUE(contains(far, "'gpufilter list' shows the ops")) << far;
  EXPECT_FALSE(contains(far, "did you mean")) << far;
}

TEST_F(CliHabitsTest, AMistypedOptionIsAnsweredWithTheNearestOptions) {
  const std::string line = usage_error_of({"blur", "in.png", "out.png", "--sigmma", "2"});
  EXPECT_TRUE(contains(line, "unknown option '--sigmma' for blur; did you mean '--sigma'?")) << line;
  EXPECT_TRUE(contains(line, "'gpufilter blur --help'")) << line;
  // The common options are candidates too, and an option after '=' is found as well.
  EXPECT_TRUE(contains(usage_error_of({"blur", "in.png", "out.png", "--devcie=cpu"}), "did you mean '--device'"));
  EXPECT_TRUE(contains(usage_error_of({"blur", "in.png", "out.png", ":", "median", "--radus", "2"}),
                       "unknown option '--radus' for median; did you mean '--radius'?"));
  // Every parameter of every op is found back from a one-letter slip.
  for (const Operation& op : operations()) {
    for (const ParamSpec& spec : op.params) {
      if (spec.name.size() < 4) continue;
      std::string typo = spec.name;
      std::swap(typo[1], typo[2]);
      if (typo == spec.name || op.find_param(typo) != nullptr) continue;
      const std::string message = usage_error_of({op.name, "in.png", "--" + typo, "1"});
      EXPECT_TRUE(contains(message, "'--" + spec.name + "'")) << op.name << ": " << message;
    }
  }
}

// ---- help ------------------------------------------------------------------------------

TEST_F(CliHabitsTest, HelpOpIsTheOpsHelp) {
  for (const Operation& op : operations()) {
    const ProcessResult help = gpufilter({"help", op.name});
    const ProcessResult flag = gpufilter({op.name, "--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    EXPECT_EQ(help.out, flag.out) << op.name;
  }
  const ProcessResult general = gpufilter({"help"});
  EXPECT_EQ(general.out, gpufilter({"--help"}).out);
  EXPECT_TRUE(contains(general.out, "gpufilter help OP"));
  EXPECT_TRUE(contains(usage_error_of({"help", "blur", "box"}), "'help' takes one op"));
}

// An op's --help shows its parameters (and border) first and names the common options in
// one line; --help-all describes them too.
TEST_F(CliHabitsTest, OpHelpIsShortAndHelpAllHasEveryOption) {
  const std::string jpeg_quality = "JPEG quality of OUT";  // one common option's description
  for (const Operation& op : operations()) {
    const ProcessResult brief = gpufilter({op.name, "--help"});
    const ProcessResult all = gpufilter({op.name, "--help-all"});
    ASSERT_EQ(brief.exit_code, 0) << brief.err;
    ASSERT_EQ(all.exit_code, 0) << all.err;
    for (const ParamSpec& spec : op.params) {
      EXPECT_TRUE(contains(brief.out, "--" + spec.name)) << op.name << " --" << spec.name;
      // Parameters first: before the first common option's line.
      EXPECT_LT(brief.out.find("--" + spec.name), brief.out.find("Common options")) << op.name;
    }
    for (const char* common : {"--device", "--variant", "--max-pixels", "--help-all"}) {
      EXPECT_TRUE(contains(brief.out, common)) << op.name << " " << common;
      EXPECT_TRUE(contains(all.out, common)) << op.name << " " << common;
    }
    EXPECT_FALSE(contains(brief.out, "the GPU when one is usable")) << op.name;  // --device's description
    EXPECT_TRUE(contains(all.out, "the GPU when one is usable")) << op.name;
    if (op.produces_image()) {
      EXPECT_TRUE(contains(all.out, jpeg_quality)) << op.name;
    }
    EXPECT_EQ(contains(brief.out, "--border"), op.uses_border) << op.name;
    // A line a parameter, a few for the heading, the border and the common names.
    EXPECT_LE(line_count(brief.out), 24 + 3 * op.params.size()) << op.name << ":\n" << brief.out;
    EXPECT_LT(line_count(brief.out), line_count(all.out)) << op.name;
  }
}

// ---- man page and completions ------------------------------------------------------------

TEST_F(CliHabitsTest, TheManPageHasEveryOpAndOptionAndReadsCleanly) {
  const ProcessResult run = gpufilter({"man"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.starts_with(".TH GPUFILTER 1 ")) << run.out.substr(0, 80);
  for (const Operation& op : operations()) {
    EXPECT_TRUE(contains(run.out, "\n.SS " + op.name + "\n")) << op.name;
    for (const ParamSpec& spec : op.params) {
      std::string flag = "\\-\\-";
      for (char c : spec.name) flag += c == '-' ? std::string("\\-") : std::string(1, c);
      EXPECT_TRUE(contains(run.out, "\\fB" + flag + "\\fR")) << op.name << " --" << spec.name;
    }
  }
  for (const char* section : {".SH COMMON OPTIONS", ".SH BORDER OPTIONS", ".SH EXIT STATUS"})
    EXPECT_TRUE(contains(run.out, section)) << section;
  // groff reads it without a warning, where groff is installed.
  if (std::system("command -v groff >/dev/null 2>&1") == 0) {
    write_bytes(path("gpufilter.1"), run.out);
    const ProcessResult groff = run_process("/bin/sh", {"-c", "groff -man -Tutf8 -ww -z '" + path("gpufilter.1") + "'"},
                                            capture_.path());
    EXPECT_EQ(groff.exit_code, 0) << groff.err;
    EXPECT_EQ(groff.err, "");
  }
}

TEST_F(CliHabitsTest, BashCompletesOpsOptionsAndChoicesFromTheRegistry) {
  EXPECT_EQ(bash_completes({"gpufilter", "medi"}), std::vector<std::string>{"median"});
  EXPECT_EQ(bash_completes({"gpufilter", "help", "sharp"}), std::vector<std::string>{"sharpen"});
  EXPECT_EQ(bash_completes({"gpufilter", "blur", "a.png", "b.png", "--sigma"}),
            (std::vector<std::string>{"--sigma", "--sigma-y"}));
  // After ':', the next op's names and then its own options.
  EXPECT_EQ(bash_completes({"gpufilter", "blur", "a.png", "b.png", ":", "medi"}), std::vector<std::string>{"median"});
  EXPECT_EQ(bash_completes({"gpufilter", "blur", "a.png", "b.png", ":", "median", "--rad"}),
            std::vector<std::string>{"--radius"});
  EXPECT_EQ(bash_completes({"gpufilter", "blur", "a.png", "b.png", "--device", ""}),
            (std::vector<std::string>{"auto", "cpu", "gpu"}));
  // Every choice of every op's parameters.
  for (const Operation& op : operations()) {
    for (const ParamSpec& spec : op.params) {
      if (spec.kind != ParamKind::Choice) continue;
      std::vector<std::string> choices = spec.choices;
      std::sort(choices.begin(), choices.end());
      EXPECT_EQ(bash_completes({"gpufilter", op.name, "in.png", "--" + spec.name, ""}), choices)
          << op.name << " --" << spec.name;
    }
  }
  // Elsewhere, file names.
  write_bytes(path("photo.png"), "");
  EXPECT_EQ(bash_completes({"gpufilter", "blur", path("pho")}), std::vector<std::string>{path("photo.png")});
}

TEST_F(CliHabitsTest, ZshCompletionNamesEveryOpAndOption) {
  const ProcessResult run = gpufilter({"completion", "zsh"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.starts_with("#compdef gpufilter\n"));
  for (const Operation& op : operations()) {
    EXPECT_TRUE(contains(run.out, "\n    " + op.name + ")\n")) << op.name;
    for (const ParamSpec& spec : op.params) EXPECT_TRUE(contains(run.out, "'--" + spec.name + "[")) << spec.name;
  }
  // zsh parses it, where zsh is installed.
  if (std::system("command -v zsh >/dev/null 2>&1") == 0) {
    write_bytes(path("_gpufilter"), run.out);
    const ProcessResult zsh = run_process("/bin/sh", {"-c", "zsh -n '" + path("_gpufilter") + "'"}, capture_.path());
    EXPECT_EQ(zsh.exit_code, 0) << zsh.err;
  }
  EXPECT_TRUE(contains(usage_error_of({"completion", "fish"}), "bash or zsh"));
}

// ---- --size P% and - - ---------------------------------------------------------------------

TEST_F(CliHabitsTest, ResizeSizeInPercentIsScale) {
  ASSERT_TRUE(cv::imwrite(path("in.png"), random_image(37, 50, CV_8UC3, 7)));
  const ProcessResult percent = gpufilter({"resize", path("in.png"), path("percent.png"), "--size", "50%", "--device", "cpu"});
  ASSERT_EQ(percent.exit_code, 0) << percent.err;
  const ProcessResult scale = gpufilter({"resize", path("in.png"), path("scale.png"), "--scale", "0.5", "--device", "cpu"});
  ASSERT_EQ(scale.exit_code, 0) << scale.err;
  const cv::Mat by_percent = read_unchanged(path("percent.png"));
  EXPECT_EQ(by_percent.cols, 25);
  EXPECT_EQ(by_percent.rows, 19);
  EXPECT_EQ(max_difference(by_percent, read_unchanged(path("scale.png"))), 0.0);
  EXPECT_TRUE(contains(usage_error_of({"resize", path("in.png"), path("o.png"), "--size", "50%", "--scale", "2"}),
                       "give one of them"));
  EXPECT_TRUE(contains(usage_error_of({"resize", path("in.png"), path("o.png"), "--size", "abc%"}), "percentage"));
  EXPECT_FALSE(fs::exists(path("o.png")));
}

TEST_F(CliHabitsTest, DashToDashKeepsTheInputsFormat) {
  const cv::Mat image = random_image(21, 17, CV_8UC3, 84);
  ASSERT_TRUE(cv::imwrite(path("in.png"), image));
  ASSERT_TRUE(cv::imwrite(path("in.jpg"), image));
  for (const char* name : {"in.png", "in.jpg"}) {
    const std::string in = path(name);
    const ProcessResult piped = gpufilter_reading(in, {"blur", "-", "-", "--device", "cpu"});
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    const ProcessResult named = gpufilter({"blur", in, "-", "--device", "cpu"});
    ASSERT_EQ(named.exit_code, 0) << named.err;
    const bool png = fs::path(name).extension() == ".png";
    EXPECT_TRUE(piped.out.starts_with(png ? "\x89PNG" : "\xff\xd8\xff")) << name;
    EXPECT_EQ(piped.out, named.out) << name;
    // --format still names another.
    const ProcessResult converted = gpufilter_reading(in, {"blur", "-", "-", "--format", png ? "jpg" : "png", "--device", "cpu"});
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_TRUE(converted.out.starts_with(png ? "\xff\xd8\xff" : "\x89PNG")) << name;
  }
  // An image of a format the tool reads but does not write (DICOM's signature): --format
  // is asked for, before anything is decoded.
  write_bytes(path("scan"), std::string(128, '\0') + "DICM" + std::string(64, '\1'));
  const ProcessResult unknown = gpufilter_reading(path("scan"), {"blur", "-", "-", "--device", "cpu"});
  EXPECT_EQ(unknown.exit_code, kUsage) << unknown.err;
  EXPECT_TRUE(contains(unknown.err, "--format")) << unknown.err;
  EXPECT_EQ(unknown.out, "");
  // Bytes that are no image at all are refused as input, from their first bytes.
  write_bytes(path("noise"), "not an image at all");
  const ProcessResult noise = gpufilter_reading(path("noise"), {"blur", "-", "-", "--device", "cpu"});
  EXPECT_EQ(noise.exit_code, 3) << noise.err;
  EXPECT_TRUE(contains(noise.err, "does not start like an image")) << noise.err;
  EXPECT_EQ(noise.out, "");
}

TEST_F(CliHabitsTest, FormatNamesTheFormatOfASuffixlessOut) {
  const cv::Mat image = random_image(23, 19, CV_8UC3, 85);
  ASSERT_TRUE(cv::imwrite(path("in.png"), image));
  const ProcessResult named = gpufilter({"blur", path("in.png"), path("out"), "--format", "jpg", "--device", "cpu"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const ProcessResult suffixed = gpufilter({"blur", path("in.png"), path("out.jpg"), "--device", "cpu"});
  ASSERT_EQ(suffixed.exit_code, 0) << suffixed.err;
  EXPECT_TRUE(read_bytes(path("out")).starts_with("\xff\xd8\xff"));
  EXPECT_EQ(read_bytes(path("out")), read_bytes(path("out.jpg")));
  // Without --format, the missing suffix is named; with a suffix, --format is refused.
  EXPECT_TRUE(contains(usage_error_of({"blur", path("in.png"), path("plain"), "--device", "cpu"}), "--format"));
  EXPECT_TRUE(contains(usage_error_of({"blur", path("in.png"), path("o.png"), "--format", "jpg"}),
                       "names its format by its suffix"));
  EXPECT_FALSE(fs::exists(path("plain")));
  EXPECT_FALSE(fs::exists(path("o.png")));
}

}  // namespace
}  // namespace gpufilter::cli_test::habits
