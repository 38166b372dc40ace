// End-to-end tests of the gpufilter tool: the built binary runs on real files in a scratch
// directory (--device cpu, so they pass on machines without a GPU) and its output is
// compared with the CPU reference. Op names, parameters and variants come from the
// registry, so a new op is covered by the listing and help tests without edits here.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "gpufilter/gpufilter.hpp"

#ifndef GPUFILTER_CLI_PATH
#error "GPUFILTER_CLI_PATH must name the built gpufilter binary"
#endif

namespace gpufilter::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2;
constexpr int kInput = 3;
constexpr int kOutput = 4;
constexpr int kRuntime = 5;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const Operation& blur_op() {
  const Operation* op = find_operation("blur");
  if (op == nullptr) throw std::runtime_error("the registry has no 'blur'");
  return *op;
}

GaussianParams blur_params(const ParamValues& given) {
  const ParamValues resolved = blur_op().resolve(given);
  GaussianParams params;
  params.sigma = resolved.at("sigma");
  const auto radius = resolved.find("radius");
  params.radius = radius == resolved.end() ? 0 : static_cast<int>(radius->second);
  return params;
}

cv::Mat expected_blur(const cv::Mat& input, const ParamValues& given = {}, const Border& border = {}) {
  cv::Mat output(input.rows, input.cols, input.type());
  reference::gaussian_blur(view_of(input), view_of(output), blur_params(given), border);
  return output;
}

class CliTest : public ::testing::Test {
 protected:
  ProcessResult gpufilter(const std::vector<std::string>& args) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path());
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_input(const std::string& name, const cv::Mat& image) {
    const std::string file = path(name);
    EXPECT_TRUE(cv::imwrite(file, image)) << file;
    return file;
  }
  // Runs blur on `input` into `output` (--device cpu) and checks the output is exactly the
  // reference's, with the input's depth and channel count.
  void expect_blur_matches(const cv::Mat& image, const std::string& in_name, const std::string& out_name,
                           const std::vector<std::string>& flags, const ParamValues& params, const Border& border) {
    const std::string in = write_input(in_name, image);
    const cv::Mat stored_input = read_unchanged(in);  // what the codec kept, e.g. after LogLuv
    ASSERT_FALSE(stored_input.empty());
    std::vector<std::string> args{"blur", in, path(out_name), "--device", "cpu"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult run = gpufilter(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const cv::Mat output = read_unchanged(path(out_name));
    ASSERT_FALSE(output.empty());
    EXPECT_EQ(output.type(), image.type());
    EXPECT_EQ(max_difference(output, expected_blur(stored_input, params, border)), 0.0);
  }
  // A failure: the exit code, one "gpufilter: error:" line naming `word`, no OUT left.
  void expect_failure(const ProcessResult& run, int exit_code, const std::string& word, const std::string& out) {
    EXPECT_EQ(run.exit_code, exit_code) << run.err;
    const auto lines = run.err_lines();
    ASSERT_EQ(lines.size(), 1u) << run.err;
    EXPECT_TRUE(lines[0].starts_with("gpufilter: error: ")) << lines[0];
    EXPECT_TRUE(contains(lines[0], word)) << "'" << word << "' not in: " << lines[0];
    EXPECT_FALSE(fs::exists(out)) << out;
    EXPECT_EQ(run.out, "");
    for (const std::string& entry : dir_.entries()) EXPECT_FALSE(contains(entry, ".tmp-")) << entry;
  }

  ScratchDir dir_;
  ScratchDir capture_;
};

// ---- results equal the reference -------------------------------------------------------

TEST_F(CliTest, BlurU8RgbPngWithDefaults) {
  expect_blur_matches(random_image(37, 53, CV_8UC3, 1), "in.png", "out.png", {}, {}, Border{});
}

TEST_F(CliTest, Blur16BitPngKeepsDepth) {
  Border border;
  border.mode = BorderMode::Replicate;
  expect_blur_matches(random_image(29, 41, CV_16UC3, 2), "in16.png", "out16.png",
                      {"--sigma", "1.5", "--radius", "4", "--border", "replicate"},
                      {{"sigma", 1.5}, {"radius", 4}}, border);
}

TEST_F(CliTest, BlurRgbaPngKeepsAlpha) {
  expect_blur_matches(random_image(31, 23, CV_8UC4, 3), "rgba.png", "rgba_out.png", {"--sigma", "1"},
                      {{"sigma", 1.0}}, Border{});
}

TEST_F(CliTest, BlurGrayPng) {
  expect_blur_matches(random_image(17, 13, CV_8UC1, 4), "gray.png", "gray_out.png", {"--radius", "2"},
                      {{"radius", 2}}, Border{});
}

TEST_F(CliTest, BlurTiff) {
  Border border;
  border.mode = BorderMode::Wrap;
  expect_blur_matches(random_image(33, 27, CV_8UC3, 5), "in.tif", "out.tif", {"--border", "wrap"}, {}, border);
}

TEST_F(CliTest, BlurFloatTiffExactly) {
  expect_blur_matches(random_image(25, 35, CV_32FC3, 6), "in.tiff", "out.tiff", {"--sigma", "3"},
                      {{"sigma", 3.0}}, Border{});
}

TEST_F(CliTest, BlurConstantBorderValue) {
  Border border;
  border.mode = BorderMode::Constant;
  border.value = {200.0, 200.0, 200.0, 200.0};
  expect_blur_matches(random_image(19, 21, CV_8UC3, 7), "in.png", "out.png",
                      {"--sigma", "2.5", "--radius", "6", "--border", "constant", "--border-value", "200"},
                      {{"sigma", 2.5}, {"radius", 6}}, border);
}

// Every container the tool promises, in and out. Lossless ones must equal the
// reference exactly; JPEG and WebP must come back the same shape, close to it.
TEST_F(CliTest, EveryPromisedFileFormat) {
  struct Format {
    std::string suffix;
    int cv_type;
    bool lossless;
  };
  const Format formats[] = {{".png", CV_8UC3, true},  {".tif", CV_8UC3, true},  {".bmp", CV_8UC3, true},
                            {".ppm", CV_8UC3, true},  {".pgm", CV_8UC1, true},  {".jpg", CV_8UC3, false},
                            {".webp", CV_8UC3, false}};
  for (const Format& f : formats) {
    SCOPED_TRACE(f.suffix);
    const std::string in = write_input("in" + f.suffix, random_image(21, 16, f.cv_type, 11));
    const cv::Mat stored_input = read_unchanged(in);
    ASSERT_FALSE(stored_input.empty());
    const std::string out = path("out" + f.suffix);
    const ProcessResult run = gpufilter({"blur", in, out, "--device", "cpu", "--sigma", "1"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const cv::Mat output = read_unchanged(out);
    ASSERT_EQ(output.type(), f.cv_type);
    const double difference = max_difference(output, expected_blur(stored_input, {{"sigma", 1.0}}));
    if (f.lossless)
      EXPECT_EQ(difference, 0.0);
    else
      EXPECT_LT(difference, 64.0) << "a lossy codec, but not this far off";
  }
}

TEST_F(CliTest, SigmaRadiusAndBorderChangeTheResult) {
  const std::string in = write_input("in.png", random_image(21, 17, CV_8UC3, 8));
  const auto blurred = [&](const std::string& name, std::vector<std::string> flags) {
    std::vector<std::string> args{"blur", in, path(name), "--device", "cpu"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult run = gpufilter(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return read_unchanged(path(name));
  };
  const cv::Mat base = blurred("base.png", {"--sigma", "1", "--radius", "3", "--border", "reflect101"});
  const cv::Mat sigma = blurred("sigma.png", {"--sigma", "3", "--radius", "3", "--border", "reflect101"});
  const cv::Mat radius = blurred("radius.png", {"--sigma", "1", "--radius", "1", "--border", "reflect101"});
  const cv::Mat border = blurred("border.png", {"--sigma", "1", "--radius", "3", "--border", "constant"});
  ASSERT_FALSE(base.empty());
  EXPECT_GT(max_difference(base, sigma), 0.0);
  EXPECT_GT(max_difference(base, radius), 0.0);
  EXPECT_GT(max_difference(base, border), 0.0);
}

TEST_F(CliTest, CopyReproducesTheInput) {
  ASSERT_NE(find_operation("copy"), nullptr);
  const cv::Mat image = random_image(23, 45, CV_16UC4, 9);
  const std::string in = write_input("in.png", image);
  const ProcessResult run = gpufilter({"copy", in, path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), image), 0.0);
}

TEST_F(CliTest, EveryOpAndVariantRunsOnTheCpu) {
  const cv::Mat image = random_image(15, 11, CV_8UC3, 10);
  const std::string in = write_input("in.png", image);
  for (const Operation& op : operations()) {
    if (!op.supports(format_of(image))) continue;
    for (const std::string& variant : op.variants) {
      const std::string out = path(op.name + "-" + variant + ".png");
      const ProcessResult run = gpufilter({op.name, in, out, "--variant", variant, "--device", "cpu"});
      EXPECT_EQ(run.exit_code, 0) << op.name << " " << variant << ": " << run.err;
      EXPECT_TRUE(fs::exists(out)) << out;
    }
  }
}

TEST_F(CliTest, ReplacesAnotherExistingOutput) {
  const cv::Mat image = random_image(12, 14, CV_8UC3, 11);
  const std::string in = write_input("in.png", image);
  write_bytes(path("out.png"), "old contents");
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.png", "out.png"}));
}

TEST_F(CliTest, WritesThroughASymbolicLink) {
  const cv::Mat image = random_image(12, 14, CV_8UC3, 25);
  const std::string in = write_input("in.png", image);
  write_bytes(path("target.png"), "old contents");
  fs::create_symlink("target.png", path("link.png"));
  const ProcessResult run = gpufilter({"blur", in, path("link.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(path("link.png")));
  EXPECT_EQ(max_difference(read_unchanged(path("target.png")), expected_blur(image)), 0.0);
}

TEST_F(CliTest, OverwriteReplacesTheInput) {
  const cv::Mat image = random_image(16, 18, CV_8UC3, 12);
  const std::string in = write_input("in.png", image);
  const ProcessResult run = gpufilter({"blur", in, in, "--overwrite", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(in), expected_blur(image)), 0.0);
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
}

// ---- device selection and timing -------------------------------------------------------

TEST_F(CliTest, AutoDeviceFallsBackToTheCpuReference) {
  const cv::Mat image = random_image(14, 10, CV_8UC3, 13);
  const std::string in = write_input("in.png", image);
  const ProcessResult run = gpufilter({"blur", in, path("out.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::exists(path("out.png")));
  if (has_device()) GTEST_SKIP() << "a GPU is usable here, so there is no fallback to see";
  const auto lines = run.err_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_TRUE(lines[0].starts_with("gpufilter: no usable GPU (")) << lines[0];
  EXPECT_TRUE(lines[0].ends_with("); running on the CPU reference")) << lines[0];
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
}

TEST_F(CliTest, GpuDeviceWithoutGpuFails) {
  if (has_device()) GTEST_SKIP() << "a GPU is usable here";
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 14));
  expect_failure(gpufilter({"blur", in, path("out.png"), "--device", "gpu"}), kRuntime, "GPU", path("out.png"));
}

// On a GPU machine: every op and variant, through the GPU path, agrees with the reference
// within the op's tolerance, and --device auto picks the GPU without a word.
TEST_F(CliTest, GpuMatchesTheReference) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  const std::vector<std::pair<cv::Mat, std::string>> inputs{
      {random_image(67, 45, CV_8UC3, 30), "u8x3.png"},
      {random_image(33, 71, CV_16UC4, 31), "u16x4.png"},
      {random_image(40, 29, CV_32FC1, 32), "f32x1.tiff"},
  };
  for (const auto& [image, name] : inputs) {
    const std::string in = write_input(name, image);
    const cv::Mat stored = read_unchanged(in);
    for (const Operation& op : operations()) {
      if (!op.supports(format_of(stored))) continue;
      cv::Mat expected(stored.rows, stored.cols, stored.type());
      op.run_reference(view_of(stored), view_of(expected), op.resolve({}), Border{});
      for (const std::string& variant : op.variants) {
        const std::string out = path(op.name + "-" + variant + "-" + name);
        const ProcessResult run = gpufilter({op.name, in, out, "--variant", variant, "--timing"});
        ASSERT_EQ(run.exit_code, 0) << run.err;
        for (const char* stage : {"upload", "kernel", "download"}) EXPECT_TRUE(contains(run.err, stage)) << run.err;
        EXPECT_EQ(run.err_lines().size(), 1u) << run.err;
        const double difference = max_difference(read_unchanged(out), expected);
        EXPECT_GE(difference, 0.0) << out;
        EXPECT_LE(difference, op.tolerance(format_of(stored))) << op.name << " " << variant << " " << name;
      }
    }
  }
}

TEST_F(CliTest, TimingNamesEachStage) {
  const std::string in = write_input("in.png", random_image(8, 9, CV_8UC3, 15));
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu", "--timing"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* stage : {"decode", "compute", "encode", "ms"}) EXPECT_TRUE(contains(run.err, stage)) << run.err;
}

// ---- texts generated from the registry -------------------------------------------------

TEST_F(CliTest, ListShowsEveryRegisteredOp) {
  const ProcessResult run = gpufilter({"list"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  for (const Operation& op : operations()) {
    EXPECT_TRUE(contains(run.out, op.name)) << op.name;
    EXPECT_TRUE(contains(run.out, op.summary)) << op.summary;
    for (const std::string& variant : op.variants) EXPECT_TRUE(contains(run.out, variant)) << variant;
  }
}

TEST_F(CliTest, OpHelpShowsEveryParameter) {
  for (const Operation& op : operations()) {
    const ProcessResult run = gpufilter({op.name, "--help"});
    ASSERT_EQ(run.exit_code, 0) << op.name << ": " << run.err;
    EXPECT_TRUE(contains(run.out, op.summary)) << run.out;
    for (const ParamSpec& spec : op.params) {
      EXPECT_TRUE(contains(run.out, "--" + spec.name)) << op.name << " --" << spec.name;
      if (!spec.default_text.empty()) {
        EXPECT_TRUE(contains(run.out, spec.default_text)) << spec.default_text;
      }
    }
    for (const std::string& variant : op.variants) EXPECT_TRUE(contains(run.out, variant)) << variant;
    EXPECT_EQ(contains(run.out, "--border"), op.uses_border) << op.name;
  }
}

TEST_F(CliTest, GeneralHelpListsOpsAndExitCodes) {
  const ProcessResult run = gpufilter({"--help"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const Operation& op : operations()) EXPECT_TRUE(contains(run.out, op.name)) << op.name;
  for (const char* word : {"Exit codes", "--device", "--timing", "--overwrite"}) {
    EXPECT_TRUE(contains(run.out, word)) << word;
  }
}

TEST_F(CliTest, VersionIsTheLibraryVersion) {
  const ProcessResult run = gpufilter({"--version"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, kVersion)) << run.out;
}

// ---- failures ------------------------------------------------------------------------

TEST_F(CliTest, MissingInputFile) {
  expect_failure(gpufilter({"blur", path("missing.png"), path("out.png"), "--device", "cpu"}), kInput,
                 "no such file", path("out.png"));
}

TEST_F(CliTest, TextFileNamedPng) {
  write_bytes(path("notes.png"), "these are not pixels\n");
  expect_failure(gpufilter({"blur", path("notes.png"), path("out.png"), "--device", "cpu"}), kInput, "decode",
                 path("out.png"));
}

TEST_F(CliTest, TruncatedPng) {
  write_input("whole.png", random_image(64, 64, CV_8UC3, 16));
  const std::string bytes = read_bytes(path("whole.png"));
  write_bytes(path("cut.png"), bytes.substr(0, bytes.size() / 2));
  expect_failure(gpufilter({"blur", path("cut.png"), path("out.png"), "--device", "cpu"}), kInput, "decode",
                 path("out.png"));
}

TEST_F(CliTest, UnsupportedPixelFormat) {
  cv::Mat image(9, 7, CV_16SC1, cv::Scalar(-5));
  ASSERT_TRUE(cv::imwrite(path("signed.tiff"), image));
  expect_failure(gpufilter({"blur", path("signed.tiff"), path("out.tiff"), "--device", "cpu"}), kInput,
                 "unsupported pixel format", path("out.tiff"));
}

TEST_F(CliTest, UnknownOp) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 17));
  expect_failure(gpufilter({"no-such-op", in, path("out.png")}), kUsage, "no-such-op", path("out.png"));
}

TEST_F(CliTest, BadParameterValues) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 18));
  const std::string out = path("out.png");
  expect_failure(gpufilter({"blur", in, out, "--sigma", "-1", "--device", "cpu"}), kUsage, "sigma", out);
  expect_failure(gpufilter({"blur", in, out, "--sigma", "abc", "--device", "cpu"}), kUsage, "sigma", out);
  expect_failure(gpufilter({"blur", in, out, "--radius", "1000", "--device", "cpu"}), kUsage, "radius", out);
  expect_failure(gpufilter({"blur", in, out, "--radius", "2.5", "--device", "cpu"}), kUsage, "radius", out);
  expect_failure(gpufilter({"blur", in, out, "--sigma", "--device", "cpu"}), kUsage, "sigma", out);
}

TEST_F(CliTest, UnknownOptionsAndChoices) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 19));
  const std::string out = path("out.png");
  expect_failure(gpufilter({"blur", in, out, "--border", "mirror", "--device", "cpu"}), kUsage, "mirror", out);
  expect_failure(gpufilter({"blur", in, out, "--variant", "fastest", "--device", "cpu"}), kUsage, "fastest", out);
  expect_failure(gpufilter({"blur", in, out, "--device", "tpu"}), kUsage, "tpu", out);
  expect_failure(gpufilter({"blur", in, out, "--frobnicate", "1", "--device", "cpu"}), kUsage, "frobnicate", out);
  expect_failure(gpufilter({"blur", in, "--device", "cpu"}), kUsage, "OUT", out);
  expect_failure(gpufilter({"blur", in, out, "extra.png", "--device", "cpu"}), kUsage, "extra.png", out);
  expect_failure(gpufilter({"blur", in, out, "--border-value", "9", "--device", "cpu"}), kUsage, "constant", out);
}

TEST_F(CliTest, BorderIsRefusedByOpsWithoutOne) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 20));
  for (const Operation& op : operations()) {
    if (op.uses_border) continue;
    expect_failure(gpufilter({op.name, in, path("out.png"), "--border", "wrap", "--device", "cpu"}), kUsage,
                   "border", path("out.png"));
  }
}

TEST_F(CliTest, MissingOutputDirectory) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 21));
  const std::string out = path("no-such-dir/out.png");
  expect_failure(gpufilter({"blur", in, out, "--device", "cpu"}), kOutput, "directory", out);
}

TEST_F(CliTest, UnsupportedOutputSuffix) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 22));
  expect_failure(gpufilter({"blur", in, path("out.xyz"), "--device", "cpu"}), kUsage, ".xyz", path("out.xyz"));
}

TEST_F(CliTest, SixteenBitToJpegIsRefused) {
  const std::string in = write_input("in16.png", random_image(8, 8, CV_16UC3, 23));
  expect_failure(gpufilter({"blur", in, path("out.jpg"), "--device", "cpu"}), kOutput, "u16x3", path("out.jpg"));
}

TEST_F(CliTest, OutputSameAsInputNeedsOverwrite) {
  const std::string in = write_input("in.png", random_image(10, 10, CV_8UC3, 24));
  const std::string before = read_bytes(in);
  const ProcessResult run = gpufilter({"blur", in, in, "--device", "cpu"});
  EXPECT_EQ(run.exit_code, kUsage);
  const auto lines = run.err_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_TRUE(contains(lines[0], "--overwrite")) << lines[0];
  EXPECT_EQ(read_bytes(in), before);
  // The same file under another name is caught too.
  const ProcessResult dotted = gpufilter({"blur", in, (dir_.path() / "." / "in.png").string(), "--device", "cpu"});
  EXPECT_EQ(dotted.exit_code, kUsage);
  EXPECT_EQ(read_bytes(in), before);
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
}

}  // namespace
}  // namespace gpufilter::cli_test
