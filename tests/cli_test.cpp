// End-to-end tests of the gpufilter tool: the built binary runs on real files in a scratch
// directory (--device cpu, so they pass on machines without a GPU) and its output is
// compared with the CPU reference. Op names, parameters and variants come from the
// registry, so a new op is covered by the listing and help tests without edits here.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <sstream>

#include "cli_test_util.hpp"
#include "gpufilter/gpufilter.hpp"

namespace gpufilter::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2;
constexpr int kInput = 3;
constexpr int kOutput = 4;
constexpr int kRuntime = 5;

// One entry of the --timing line: "decode 1.234 ms", or "cuda start 120.500 ms (beside
// decode)" for one that ran on another thread.
struct TimedStage {
  std::string name;
  double ms = 0.0;
  bool beside = false;
};

// The entries of the line "gpufilter: timing (DEVICE): ..." in `err`, in order; empty
// when there is no such line or an entry does not parse.
std::vector<TimedStage> timing_stages(const std::string& err, const std::string& device) {
  const std::string prefix = "gpufilter: timing (" + device + "): ";
  const std::regex entry(R"(([a-z][a-z ]*) ([0-9]+\.[0-9]+) ms( \(beside [a-z ]+\))?)");
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(prefix)) continue;
    std::vector<TimedStage> stages;
    std::istringstream entries(line.substr(prefix.size()));
    for (std::string text; std::getline(entries, text, ',');) {
      if (text.starts_with(" ")) text.erase(0, 1);
      std::smatch match;
      if (!std::regex_match(text, match, entry)) return {};
      stages.push_back({match[1].str(), std::stod(match[2].str()), match[3].matched});
    }
    return stages;
  }
  return {};
}

const Operation& blur_op() {
  const Operation* op = find_operation("blur");
  if (op == nullptr) throw std::runtime_error("the registry has no 'blur'");
  return *op;
}

// The command-line flags that give `values` to `op` (the registry's test parameters).
// Whether the op's test parameters take this image (interleaved --channels 3 needs a
// height that 3 divides), as the conformance tests leave such cases out.
bool fits(const Operation& op, const cv::Mat& image) {
  if (!op.produces_image()) return true;
  try {
    op.output_shape_for(ImageShape{image.cols, image.rows, format_of(image)}, op.resolve(op.test_params));
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::vector<std::string> param_flags(const Operation& op, const ParamValues& values) {
  std::vector<std::string> flags;
  for (const auto& [name, value] : values) {
    const ParamSpec* spec = op.find_param(name);
    if (spec == nullptr) throw std::runtime_error(op.name + " has no parameter " + name);
    if (spec->kind == ParamKind::Flag) {
      if (std::get<double>(value) != 0.0) flags.push_back("--" + name);
      continue;
    }
    flags.push_back("--" + name);
    if (const auto* number = std::get_if<double>(&value)) {
      std::ostringstream text;
      text.precision(17);
      text << *number;
      flags.push_back(text.str());
    } else if (const auto* text = std::get_if<std::string>(&value)) {
      flags.push_back(*text);
    } else {
      // Every digit, so fractional lists (levels --in 0.1,0.85) survive the round trip.
      std::ostringstream list;
      list.precision(17);
      for (double item : std::get<std::vector<double>>(value)) list << (list.tellp() > 0 ? "x" : "") << item;
      flags.push_back(list.str());
    }
  }
  return flags;
}

// The tool hands the library R, G, B(, A) and OpenCV's codecs use B, G, R(, A): an image
// as the library sees it, from one as OpenCV reads it (and back: the swap is its own
// inverse).
cv::Mat library_order(const cv::Mat& image) {
  cv::Mat swapped = image.clone();
  if (image.channels() == 3) cv::cvtColor(image, swapped, cv::COLOR_BGR2RGB);
  if (image.channels() == 4) cv::cvtColor(image, swapped, cv::COLOR_BGRA2RGBA);
  return swapped;
}

// The blur the tool writes for `input` (as OpenCV reads it) on the CPU, in OpenCV's
// channel order: the library's CPU path, which the CpuFastPath tests hold to the reference.
cv::Mat expected_blur(const cv::Mat& input, const ParamValues& given = {}, const Border& border = {}) {
  const cv::Mat rgb = library_order(input);
  cv::Mat output(input.rows, input.cols, input.type());
  blur_op().run_on_cpu(view_of(rgb), view_of(output), blur_op().resolve(given), border);
  return library_order(output);
}

int cv_type_for(PixelFormat format) {
  const int depth = format.type == ChannelType::U8 ? CV_8U : format.type == ChannelType::U16 ? CV_16U : CV_32F;
  return CV_MAKETYPE(depth, format.channels);
}

// The numbers of a data op's --csv output, row by row after the header, labels dropped.
std::vector<double> csv_values(const std::string& csv) {
  std::vector<double> values;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');  // the row's label
    while (std::getline(fields, field, ',')) values.push_back(std::stod(field));
  }
  return values;
}

// The tool's test hook: hold the finished temporary file this long before the rename.
constexpr const char* kPauseHook = "GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=";

class CliTest : public ::testing::Test {
 protected:
  // The tool runs in its own process, and remembers what it told (the no-GPU notice) in
  // this test's own folder.
  CliTest() {
    ::setenv("GPUFILTER_SERVER", "off", 1);
    ::setenv("XDG_CACHE_HOME", (capture_.path() / "cache").c_str(), 1);
  }

  ProcessResult gpufilter(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path(), options);
  }
  // The tool's temporary files are the hidden entries of the output directory.
  std::string pending_temporary() const {
    for (const std::string& entry : dir_.entries())
      if (entry.starts_with(".")) return entry;
    return "";
  }
  // Starts a run that holds its finished temporary file `pause_ms` before renaming it,
  // and returns once that file is there; nullptr (and a failure) when it never appears.
  std::unique_ptr<ChildProcess> start_paused(const std::vector<std::string>& args, int pause_ms,
                                             ProcessOptions options = {}) {
    options.env.push_back(kPauseHook + std::to_string(pause_ms));
    auto child = std::make_unique<ChildProcess>(GPUFILTER_CLI_PATH, args, capture_.path(), options);
    wait_until([&] { return !pending_temporary().empty() || !child->running(); }, std::chrono::seconds(60));
    if (pending_temporary().empty()) {
      const ProcessResult run = child->wait();
      ADD_FAILURE() << "no temporary file appeared while the run was held before its rename (exit "
                    << run.exit_code << ", signal " << run.signal << "): " << run.err;
      return nullptr;
    }
    return child;
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
  // A failure: the exit code, one "gpufilter: error:" line naming every word, no OUT
  // and no temporary file left.
  void expect_failure(const ProcessResult& run, int exit_code, const std::vector<std::string>& words,
                      const std::string& out) {
    EXPECT_EQ(run.exit_code, exit_code) << run.err;
    const auto lines = run.err_lines();
    ASSERT_EQ(lines.size(), 1u) << run.err;
    EXPECT_TRUE(lines[0].starts_with("gpufilter: error: ")) << lines[0];
    for (const std::string& word : words) EXPECT_TRUE(contains(lines[0], word)) << "'" << word << "' not in: " << lines[0];
    EXPECT_FALSE(fs::exists(out)) << out;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(pending_temporary(), "");
  }
  void expect_failure(const ProcessResult& run, int exit_code, const char* word, const std::string& out) {
    expect_failure(run, exit_code, std::vector<std::string>{word}, out);
  }

  // Runs `op` on the file `in` (whose decoded pixels are `stored`) and compares what it
  // wrote (image ops) or printed with --csv (data ops): exactly with the library's CPU
  // path on the CPU, within the op's tolerance of the reference on the GPU.
  void check_op_run(const Operation& op, const std::string& variant, const std::string& in, const cv::Mat& stored,
                    const std::vector<std::string>& flags, bool on_gpu) {
    SCOPED_TRACE(op.name + " " + variant + " " + in);
    const cv::Mat rgb = library_order(stored);  // what the library is given
    const ParamValues params = op.resolve(op.test_params);
    const ImageShape input{stored.cols, stored.rows, format_of(stored)};
    const std::string out = path(op.name + "-" + variant + "-" + fs::path(in).filename().string());
    std::vector<std::string> args{op.name, in};
    if (op.produces_image()) args.push_back(out);
    args.insert(args.end(), {"--variant", variant});
    args.insert(args.end(), flags.begin(), flags.end());
    if (!op.produces_image()) args.push_back("--csv");
    for (const std::string& flag : param_flags(op, op.test_params)) args.push_back(flag);
    const ProcessResult run = gpufilter(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    if (op.produces_image()) {
      const ImageShape shape = op.output_shape_for(input, params);
      cv::Mat expected(shape.height, shape.width, cv_type_for(shape.format));
      if (on_gpu)
        op.run_reference(view_of(rgb), view_of(expected), params, Border{});
      else
        op.run_on_cpu(view_of(rgb), view_of(expected), params, Border{});
      const double difference = max_difference(library_order(read_unchanged(out)), expected);
      EXPECT_GE(difference, 0.0) << out;
      EXPECT_LE(difference, on_gpu ? op.tolerance_for(input.format, variant).max_abs : 0.0);
      return;
    }
    const DataLayout layout = op.data_layout(input, params);
    std::vector<double> expected(layout.size());
    op.run_reference_data(view_of(rgb), expected.data(), params);
    const std::vector<double> printed = csv_values(run.out);
    ASSERT_EQ(printed.size(), expected.size()) << run.out;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const DataTolerance tolerance =
          on_gpu ? op.data_tolerance(input.format, layout.columns[i % layout.columns.size()]) : DataTolerance{};
      // The CSV holds ten significant digits.
      EXPECT_NEAR(printed[i], expected[i], tolerance.max_abs + (tolerance.max_rel + 1e-9) * std::fabs(expected[i]))
          << "value " << i << " (" << layout.columns[i % layout.columns.size()] << ")";
    }
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

// PNG files the tool's own reader declines go to OpenCV: a 1-bit file decodes as OpenCV
// decodes it, and a damaged one fails with OpenCV's verdict, naming the file.
TEST_F(CliTest, PngFilesTheFastReaderDeclinesGoToOpenCv) {
  cv::Mat bilevel(9, 21, CV_8UC1);
  for (int y = 0; y < bilevel.rows; ++y)
    for (int x = 0; x < bilevel.cols; ++x) bilevel.at<std::uint8_t>(y, x) = (x + y) % 3 ? 255 : 0;
  const std::string one_bit = path("bilevel.png");
  ASSERT_TRUE(cv::imwrite(one_bit, bilevel, {cv::IMWRITE_PNG_BILEVEL, 1}));
  ProcessResult run = gpufilter({"copy", one_bit, path("copied.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("copied.png")), read_unchanged(one_bit)), 0.0);

  const std::string whole = read_bytes(write_input("whole.png", random_image(40, 60, CV_8UC3, 77)));
  for (const std::size_t length : {whole.size() / 2, whole.size() - 13}) {
    const std::string cut = path("cut" + std::to_string(length) + ".png");
    write_bytes(cut, whole.substr(0, length));
    const std::string out = path("cut_out.png");
    expect_failure(gpufilter({"copy", cut, out, "--device", "cpu"}), kInput, {"cannot decode", cut}, out);
  }
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
  int runs = 0;
  for (const Operation& op : operations()) {
    if (!op.supports(format_of(image))) continue;
    for (const std::string& variant : op.variants) {
      check_op_run(op, variant, in, image, {"--device", "cpu"}, /*on_gpu=*/false);
      ++runs;
    }
  }
  EXPECT_GT(runs, 0) << "no registered op takes u8x3 pixels";
}

// ---- chains ------------------------------------------------------------------------------

// blur, then invert, then gray, as the library's CPU path computes them one after another.
cv::Mat expected_chain(const cv::Mat& input) {
  const cv::Mat rgb = library_order(input);
  cv::Mat blurred(input.rows, input.cols, input.type());
  blur_op().run_on_cpu(view_of(rgb), view_of(blurred), blur_op().resolve({{"sigma", 1.5}}), Border{});
  cv::Mat inverted(blurred.rows, blurred.cols, blurred.type());
  const Operation& invert = *find_operation("invert");
  invert.run_on_cpu(view_of(blurred), view_of(inverted), invert.resolve({}), Border{});
  const Operation& gray = *find_operation("gray");
  cv::Mat grayed(blurred.rows, blurred.cols, CV_8UC1);
  gray.run_on_cpu(view_of(inverted), view_of(grayed), gray.resolve({}), Border{});
  return grayed;
}

TEST_F(CliTest, ChainRunsEachOpOnThePreviousResult) {
  const cv::Mat image = random_image(31, 27, CV_8UC3, 95);
  const std::string in = write_input("in.png", image);
  // The run's options may stand after any op; they belong to the whole run.
  const ProcessResult run =
      gpufilter({"blur", in, path("out.png"), "--sigma", "1.5", ":", "invert", ":", "gray", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const cv::Mat output = read_unchanged(path("out.png"));
  EXPECT_EQ(output.type(), CV_8UC1) << "the last op (gray) decides the output's format";
  EXPECT_EQ(max_difference(output, expected_chain(image)), 0.0);
}

TEST_F(CliTest, GpuChainMatchesTheReference) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  const cv::Mat image = random_image(61, 47, CV_8UC3, 96);
  const std::string in = write_input("in.png", image);
  const ProcessResult run =
      gpufilter({"blur", in, path("out.png"), "--sigma", "1.5", ":", "invert", ":", "gray", "--device", "gpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const double difference = max_difference(read_unchanged(path("out.png")), expected_chain(image));
  EXPECT_GE(difference, 0.0);
  EXPECT_LE(difference, 1.0) << "blur within one level, then exact ops (gray may round a level either way)";
}

TEST_F(CliTest, ChainMistakesAreUsageOrInputErrors) {
  const std::string in = write_input("in.png", random_image(9, 8, CV_8UC3, 97));
  const std::string out = path("out.png");
  expect_failure(gpufilter({"blur", in, out, ":"}), kUsage, "must follow ':'", out);
  expect_failure(gpufilter({"blur", in, out, ":", "stats"}), kUsage, "cannot follow ':'", out);
  expect_failure(gpufilter({"stats", in, ":", "blur"}), kUsage, "cannot start a chain", out);
  expect_failure(gpufilter({"blur", in, out, ":", "sharpen", path("more.png")}), kUsage, "files belong", out);
  expect_failure(gpufilter({"blur", in, out, ":", "no-such-op"}), kUsage, "unknown op", out);
  // gray gives one channel, which gray does not take.
  expect_failure(gpufilter({"gray", in, out, ":", "gray", "--device", "cpu"}), kInput, {"gray", "u8x1"}, out);
}

// ---- batches -----------------------------------------------------------------------------

TEST_F(CliTest, BatchWritesEveryGoodFileAndNamesTheBadOnes) {
  std::vector<std::string> args{"blur"};
  std::vector<cv::Mat> images;
  for (int i = 0; i < 5; ++i) {
    images.push_back(random_image(20 + i, 17, CV_8UC3, 40u + static_cast<unsigned>(i)));
    args.push_back(write_input("in" + std::to_string(i) + ".png", images.back()));
  }
  write_bytes(path("corrupt.png"), "not an image at all");
  args.push_back(path("corrupt.png"));
  args.push_back(path("missing.png"));
  fs::create_directory(path("out"));
  for (const std::string& flag : std::vector<std::string>{"--out-dir", path("out"), "--suffix", "_blur", "--device",
                                                          "cpu", "--jobs", "3"})
    args.push_back(flag);
  const ProcessResult run = gpufilter(args);
  EXPECT_EQ(run.exit_code, kInput) << run.err;
  EXPECT_TRUE(contains(run.err, "corrupt.png")) << run.err;
  EXPECT_TRUE(contains(run.err, "missing.png")) << run.err;
  EXPECT_TRUE(contains(run.err, "5 of 7 files written")) << run.err;
  EXPECT_TRUE(contains(run.err, "2 failed")) << run.err;
  for (int i = 0; i < 5; ++i) {
    const cv::Mat output = read_unchanged(path("out/in" + std::to_string(i) + "_blur.png"));
    EXPECT_EQ(max_difference(output, expected_blur(images[static_cast<std::size_t>(i)])), 0.0) << i;
  }
  std::vector<std::string> written;
  for (const auto& entry : fs::directory_iterator(path("out"))) written.push_back(entry.path().filename().string());
  EXPECT_EQ(written.size(), 5u) << "only the good files' outputs, no temporary files left";
}

TEST_F(CliTest, BatchTimingShowsTheMeanStagesPerFile) {
  std::vector<std::string> args{"blur"};
  for (int i = 0; i < 4; ++i) args.push_back(write_input("t" + std::to_string(i) + ".png", random_image(30, 20, CV_8UC3, 60u + static_cast<unsigned>(i))));
  fs::create_directory(path("timed"));
  for (const char* flag : {"--out-dir", "", "--device", "cpu", "--jobs", "2", "--timing"}) args.emplace_back(flag);
  args[6] = path("timed");
  const ProcessResult run = gpufilter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.err, "timing (batch of 4 files, 2 threads")) << run.err;
  for (const char* stage : {"decode", "compute", "encode"}) EXPECT_TRUE(contains(run.err, stage)) << stage << run.err;
}

TEST_F(CliTest, BatchShardsSplitTheListWithoutOverlap) {
  std::string list;
  for (int i = 0; i < 7; ++i) list += write_input("s" + std::to_string(i) + ".png", random_image(9, 8, CV_8UC1, 60u + static_cast<unsigned>(i))) + "\n";
  write_bytes(path("list.txt"), list + "\n");  // a blank line is skipped
  std::set<std::string> seen;
  for (int shard = 0; shard < 3; ++shard) {
    const std::string out = path("shard" + std::to_string(shard));
    fs::create_directory(out);
    const ProcessResult run = gpufilter({"blur", "--from-file", path("list.txt"), "--out-dir", out, "--shard",
                                         std::to_string(shard) + "/3", "--device", "cpu", "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "") << "--quiet";
    for (const auto& entry : fs::directory_iterator(out))
      EXPECT_TRUE(seen.insert(entry.path().filename().string()).second) << entry.path() << " in two shards";
  }
  EXPECT_EQ(seen.size(), 7u);
}

TEST_F(CliTest, BatchRefusesTwoInputsWritingOneOutput) {
  fs::create_directory(path("a"));
  fs::create_directory(path("b"));
  fs::create_directory(path("out"));
  const cv::Mat image = random_image(9, 8, CV_8UC1, 70);
  const std::string first = write_input("a/same.png", image);
  const std::string second = write_input("b/same.png", image);
  const ProcessResult run = gpufilter({"blur", first, second, "--out-dir", path("out"), "--device", "cpu"});
  EXPECT_EQ(run.exit_code, kUsage) << run.err;
  EXPECT_TRUE(contains(run.err, "would both be written")) << run.err;
  EXPECT_TRUE(fs::is_empty(path("out")));
}

TEST_F(CliTest, BatchOptionsNeedABatch) {
  const std::string in = write_input("in.png", random_image(9, 8, CV_8UC1, 71));
  expect_failure(gpufilter({"blur", in, path("out.png"), "--suffix", "_x"}), kUsage, "--out-dir", path("out.png"));
}

TEST_F(CliTest, BatchMakesItsOutputDirectoryAndTakesAFormat) {
  const cv::Mat image = random_image(9, 8, CV_8UC3, 72);
  const std::string in = write_input("in.png", image);
  const ProcessResult run =
      gpufilter({"copy", in, "--out-dir", path("new/deeper"), "--format", "TIF", "--device", "cpu", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("new/deeper/in.tif")), image), 0.0);
  expect_failure(gpufilter({"copy", in, "--out-dir", path("x"), "--format", "p/ng"}), kUsage, "--format", path("x"));
  write_bytes(path("file"), "a file, not a folder");
  expect_failure(gpufilter({"copy", in, "--out-dir", path("file/sub"), "--device", "cpu"}), kOutput,
                 "output directory", "");
}

TEST_F(CliTest, ReplacesAnotherExistingOutputOnlyWithYes) {
  const cv::Mat image = random_image(12, 14, CV_8UC3, 11);
  const std::string in = write_input("in.png", image);
  write_bytes(path("out.png"), "old contents");
  expect_failure(gpufilter({"blur", in, path("out.png"), "--device", "cpu"}), kUsage, {"exists", "-y"}, "");
  EXPECT_EQ(read_bytes(path("out.png")), "old contents");
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu", "-y"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.png", "out.png"}));
}

// What a shell glob of two files expands to: the second is an existing OUT, kept.
TEST_F(CliTest, AGlobOfTwoInputsLeavesTheSecondAlone) {
  const std::string first = write_input("a1.png", random_image(9, 7, CV_8UC3, 61));
  const std::string second = write_input("a2.png", random_image(9, 7, CV_8UC3, 62));
  const std::string before = read_bytes(second);
  const ProcessResult run = gpufilter({"blur", first, second, "--device", "cpu"});
  EXPECT_EQ(run.exit_code, kUsage) << run.err;
  EXPECT_TRUE(contains(run.err, "-y")) << run.err;
  EXPECT_EQ(read_bytes(second), before);
}

// A batch into a folder that holds some of its outputs does nothing without -y.
TEST_F(CliTest, BatchRefusesExistingOutputsWithoutYes) {
  const std::string a = write_input("a.png", random_image(9, 7, CV_8UC3, 63));
  const std::string b = write_input("b.png", random_image(9, 7, CV_8UC3, 64));
  fs::create_directory(path("out"));
  write_bytes(path("out/b.png"), "old contents");
  const ProcessResult refused = gpufilter({"copy", a, b, "--out-dir", path("out"), "--device", "cpu", "--quiet"});
  EXPECT_EQ(refused.exit_code, kUsage) << refused.err;
  EXPECT_TRUE(contains(refused.err, "1 of the 2 outputs exist")) << refused.err;
  EXPECT_FALSE(fs::exists(path("out/a.png")));
  EXPECT_EQ(read_bytes(path("out/b.png")), "old contents");
  const ProcessResult replaced = gpufilter({"copy", a, b, "--out-dir", path("out"), "--device", "cpu", "--quiet", "-y"});
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(max_difference(read_unchanged(path("out/b.png")), read_unchanged(b)), 0.0);
}

// A link planted at OUT must not make the run write where the link points (a root run
// would replace a file the planter cannot write): the link itself is replaced.
TEST_F(CliTest, ReplacesASymbolicLinkAtOutInsteadOfItsTarget) {
  const cv::Mat image = random_image(12, 14, CV_8UC3, 25);
  const std::string in = write_input("in.png", image);
  write_bytes(path("target.png"), "precious");
  fs::create_symlink("target.png", path("link.png"));
  expect_failure(gpufilter({"blur", in, path("link.png"), "--device", "cpu"}), kUsage, "exists", "");
  const ProcessResult run = gpufilter({"blur", in, path("link.png"), "--device", "cpu", "-y"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::is_symlink(path("link.png")));
  EXPECT_EQ(read_bytes(path("target.png")), "precious");
  EXPECT_EQ(max_difference(read_unchanged(path("link.png")), expected_blur(image)), 0.0);
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
  EXPECT_TRUE(lines[0].starts_with("gpufilter: no usable GPU (" + no_device_reason() + ")")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "running on the CPU (said once")) << lines[0];
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
  // Said once: the next command on this machine says nothing, a batch neither.
  const ProcessResult again = gpufilter({"blur", in, path("again.png")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err, "");
  const ProcessResult batch = gpufilter({"blur", in, "--out-dir", path("out"), "--quiet"});
  ASSERT_EQ(batch.exit_code, 0) << batch.err;
  EXPECT_EQ(batch.err, "");
}

// The notice names the real cause: a machine without NVIDIA's driver is told so, not that
// its driver is "insufficient".
TEST_F(CliTest, TheNoGpuReasonNamesTheCause) {
  if (has_device()) GTEST_SKIP() << "a GPU is usable here";
  const std::string reason = no_device_reason();
  EXPECT_FALSE(contains(reason, "insufficient")) << reason;
  if (!fs::exists("/proc/driver/nvidia")) {
    EXPECT_EQ(reason, "no NVIDIA driver is installed") << "no /proc/driver/nvidia here";
  }
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
  int compared = 0;
  for (const auto& [image, name] : inputs) {
    const std::string in = write_input(name, image);
    const cv::Mat stored = read_unchanged(in);
    for (const Operation& op : operations()) {
      if (!op.supports(format_of(stored)) || !fits(op, stored)) continue;
      for (const std::string& variant : op.variants) {
        check_op_run(op, variant, in, stored, {"--device", "gpu"}, /*on_gpu=*/true);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0) << "no op takes any of the test images";
}

TEST_F(CliTest, GpuBatchOnEveryDeviceMatchesTheReference) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  std::vector<std::string> args{"blur"};
  std::vector<cv::Mat> images;
  for (int i = 0; i < 12; ++i) {
    images.push_back(random_image(31 + i, 45, CV_8UC4, 80u + static_cast<unsigned>(i)));
    args.push_back(write_input("g" + std::to_string(i) + ".png", images.back()));
  }
  fs::create_directory(path("out"));
  args.insert(args.end(), {"--out-dir", path("out"), "--devices", "all", "--device", "gpu"});
  const ProcessResult run = gpufilter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.err, "12 of 12 files written")) << run.err;
  const double tolerance = find_operation("blur")->tolerance(PixelFormat{ChannelType::U8, 4}).max_abs;
  for (int i = 0; i < 12; ++i) {
    const double difference =
        max_difference(read_unchanged(path("out/g" + std::to_string(i) + ".png")), expected_blur(images[static_cast<std::size_t>(i)]));
    EXPECT_GE(difference, 0.0) << i;
    EXPECT_LE(difference, tolerance) << i;
  }
}

TEST_F(CliTest, TimingNamesEachStage) {
  const std::string in = write_input("in.png", random_image(8, 9, CV_8UC3, 15));
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu", "--timing"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* stage : {"decode", "compute", "encode", "ms"}) EXPECT_TRUE(contains(run.err, stage)) << run.err;
}

// The --timing line accounts for the whole run: its main-thread stages (with "other", the
// time between them) add up to "total", which fits inside the wall time of the process.
void expect_timing_adds_up(const std::vector<TimedStage>& stages, const std::vector<std::string>& expected,
                           double wall_ms, const std::string& err) {
  ASSERT_FALSE(stages.empty()) << "no timing line in: " << err;
  std::vector<std::string> names;
  for (const TimedStage& stage : stages) names.push_back(stage.name);
  EXPECT_EQ(names, expected) << err;
  ASSERT_EQ(stages.back().name, "total") << err;
  const double total = stages.back().ms;
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < stages.size(); ++i) {
    if (!stages[i].beside) sum += stages[i].ms;
  }
  const double rounding = 0.001 * static_cast<double>(stages.size());  // three decimals each
  EXPECT_GE(total + rounding, sum) << err;
  EXPECT_LE(total, sum + rounding) << "time left out of every stage: " << err;
  EXPECT_LE(total, wall_ms) << err;
}

TEST_F(CliTest, CpuTimingAccountsForTheWholeRun) {
  const std::string in = write_input("in.png", random_image(64, 48, CV_8UC3, 17));
  const auto before = std::chrono::steady_clock::now();
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu", "--timing"});
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err_lines().size(), 1u) << run.err;
  expect_timing_adds_up(timing_stages(run.err, "cpu"), {"start", "decode", "compute", "encode", "other", "total"},
                        wall_ms, run.err);
}

// On a GPU machine: the context is made beside decoding ("cuda start", left out of the
// sum) and the main thread only waits for what is left of it.
TEST_F(CliTest, GpuTimingAccountsForTheWholeRun) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  const std::string in = write_input("in.png", random_image(640, 480, CV_8UC3, 18));
  const auto before = std::chrono::steady_clock::now();
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "gpu", "--timing"});
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err_lines().size(), 1u) << run.err;
  const std::vector<TimedStage> stages = timing_stages(run.err, "gpu");
  expect_timing_adds_up(stages,
                        {"start", "decode", "cuda start", "wait", "setup", "upload", "kernel", "download", "encode",
                         "other", "total"},
                        wall_ms, run.err);
  ASSERT_GE(stages.size(), 3u);
  EXPECT_TRUE(stages[2].beside) << run.err;
  EXPECT_TRUE(fs::exists(path("out.png")));
}

// ---- texts generated from the registry -------------------------------------------------

// The text's words, each followed by one space: texts compared whatever their line breaks.
std::string words(const std::string& text) {
  std::istringstream in(text);
  std::string joined;
  for (std::string word; in >> word;) joined += word + ' ';
  return joined;
}

// Every line of `text` fits a 100-column terminal.
void expect_100_columns(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
}

TEST_F(CliTest, ListShowsEveryRegisteredOp) {
  ASSERT_FALSE(operations().empty());
  const ProcessResult run = gpufilter({"list"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  // Wrapped to a 100-column terminal: compare the words, whatever the line breaks.
  const std::string listed = words(run.out);
  for (const Operation& op : operations()) {
    EXPECT_TRUE(contains(listed, op.name + " ")) << op.name;
    EXPECT_TRUE(contains(listed, words(op.summary))) << op.summary;
    for (const std::string& variant : op.variants) EXPECT_TRUE(contains(run.out, variant)) << variant;
  }
  expect_100_columns(run.out);
}

TEST_F(CliTest, OpHelpShowsEveryParameter) {
  ASSERT_FALSE(operations().empty());
  for (const Operation& op : operations()) {
    const ProcessResult run = gpufilter({op.name, "--help"});
    ASSERT_EQ(run.exit_code, 0) << op.name << ": " << run.err;
    EXPECT_TRUE(contains(words(run.out), words(op.summary))) << run.out;
    expect_100_columns(run.out);
    for (const ParamSpec& spec : op.params) {
      EXPECT_TRUE(contains(run.out, "--" + spec.name)) << op.name << " --" << spec.name;
      if (!spec.default_text.empty()) {
        // Whatever the line breaks: the words, without words()'s trailing space.
        const std::string shown = words(spec.default_text);
        EXPECT_TRUE(contains(words(run.out), shown.substr(0, shown.size() - 1))) << spec.default_text;
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
  expect_100_columns(run.out);  // as `gpufilter list`
}

TEST_F(CliTest, VersionIsTheLibraryVersion) {
  const ProcessResult run = gpufilter({"--version"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, kVersion)) << run.out;
  // A build that only checks its device code compiles (GPUFILTER_DEVICE_OPTIMIZATION=OFF)
  // says so, and only such a build.
#if defined(GPUFILTER_DEVICE_CODE_UNOPTIMIZED)
  EXPECT_TRUE(contains(run.out, "device code: not optimized")) << run.out;
#else
  EXPECT_FALSE(contains(run.out, "device code")) << run.out;
#endif
}

// The program is a small front that loads the tool's library beside it (or in the
// installed lib/gpufilter) when no server takes the command: a program copied away from
// its library says what is missing instead of failing to start.
TEST_F(CliTest, AProgramWithoutItsToolLibrarySaysSo) {
  const fs::path alone = dir_ / "alone" / "gpufilter";
  fs::create_directories(alone.parent_path());
  fs::copy_file(GPUFILTER_CLI_PATH, alone);
  ProcessOptions no_server;
  no_server.env.push_back("GPUFILTER_SERVER=off");
  const ProcessResult run = run_process(alone.string(), {"--version"}, capture_.path(), no_server);
  EXPECT_EQ(run.exit_code, kRuntime);
  EXPECT_TRUE(contains(run.err, "cannot load the tool's library")) << run.err;
  EXPECT_EQ(run.out, "");
}

// ---- failures ------------------------------------------------------------------------

TEST_F(CliTest, MissingInputFile) {
  expect_failure(gpufilter({"blur", path("missing.png"), path("out.png"), "--device", "cpu"}), kInput,
                 "no such file", path("out.png"));
}

// With --device auto on a GPU machine the CUDA context is being made on a second thread
// when reading IN fails: the run still ends promptly, with the input error and message of
// a CPU run. Without a GPU this checks the fallback says nothing before the error.
TEST_F(CliTest, InputErrorsWithAutoDeviceMatchTheCpuRun) {
  cv::Mat signed_pixels(9, 7, CV_16SC1, cv::Scalar(-5));
  ASSERT_TRUE(cv::imwrite(path("signed.tiff"), signed_pixels));
  const std::vector<std::pair<std::string, std::string>> cases{{"missing.png", "no such file"},
                                                               {"signed.tiff", "unsupported pixel format"}};
  for (const auto& [name, word] : cases) {
    const std::string out = path("out" + fs::path(name).extension().string());
    const ProcessResult cpu = gpufilter({"blur", path(name), out, "--device", "cpu"});
    ChildProcess child(GPUFILTER_CLI_PATH, {"blur", path(name), out, "--device", "auto", "--timing"}, capture_.path());
    if (!wait_until([&] { return !child.running(); }, std::chrono::seconds(30))) {
      ADD_FAILURE() << name << ": still running after 30 s";
      child.send(SIGKILL);
    }
    const ProcessResult automatic = child.wait();
    expect_failure(automatic, kInput, std::vector<std::string>{word}, out);
    EXPECT_EQ(automatic.err, cpu.err) << name;
  }
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

TEST_F(CliTest, FilterParameterMistakesAreUsageErrors) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 21));
  const std::string out = path("out.png");
  expect_failure(gpufilter({"convolve", in, out, "--device", "cpu"}), kUsage, "--kernel", out);
  expect_failure(gpufilter({"convolve", in, out, "--kernel", "1 2; 3 4", "--device", "cpu"}), kUsage, "odd", out);
  expect_failure(gpufilter({"convolve", in, out, "--kernel-file", path("missing.txt"), "--device", "cpu"}), kUsage,
                 "missing.txt", out);
  expect_failure(gpufilter({"edge", in, out, "--operator", "canny", "--device", "cpu"}), kUsage,
                 std::vector<std::string>{"canny", "sobel"}, out);
  expect_failure(gpufilter({"edge", in, out, "--operator", "laplacian", "--direction", "x", "--device", "cpu"}),
                 kUsage, "direction", out);
  expect_failure(gpufilter({"blur", in, out, "--geometry", "0x2", "--sigma", "1", "--device", "cpu"}), kUsage,
                 "geometry", out);
  expect_failure(gpufilter({"box", in, out, "--size", "4", "--device", "cpu"}), kUsage, "odd", out);
  expect_failure(gpufilter({"box", in, out, "--size", "5x", "--device", "cpu"}), kUsage, "size", out);
  expect_failure(gpufilter({"blur", in, out, "--alpha", "multiply", "--device", "cpu"}), kUsage, "multiply", out);
}

// The same filter written two ways gives the same file: a mask file and the inline
// mask, ImageMagick's RxS geometry and --sigma.
TEST_F(CliTest, FilterParameterFormsAgree) {
  const std::string in = write_input("in.png", random_image(21, 17, CV_8UC4, 22));
  write_bytes(path("mask.txt"), "# emboss-like\n-1 -1 0\n-1 1 1\n0 1 1\n");
  const auto run_to = [&](const std::string& name, std::vector<std::string> args) {
    args.insert(args.begin() + 1, {in, path(name)});
    args.insert(args.end(), {"--device", "cpu"});
    const ProcessResult run = gpufilter(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return read_unchanged(path(name));
  };
  const cv::Mat from_file = run_to("file.png", {"convolve", "--kernel-file", path("mask.txt"), "--normalize"});
  const cv::Mat inline_mask = run_to("inline.png", {"convolve", "--kernel", "-1 -1 0; -1 1 1; 0 1 1", "--normalize"});
  EXPECT_EQ(max_difference(from_file, inline_mask), 0.0);
  const cv::Mat geometry = run_to("geometry.png", {"blur", "--geometry", "0x1.5"});
  const cv::Mat sigma = run_to("sigma.png", {"blur", "--sigma", "1.5"});
  EXPECT_EQ(max_difference(geometry, sigma), 0.0);
  const cv::Mat other = run_to("other.png", {"blur", "--sigma", "1.6"});
  EXPECT_GT(max_difference(geometry, other), 0.0) << "the comparison can tell blurs apart";
}

// A JPEG as a phone stores it: pixels sideways and an EXIF orientation tag saying how to
// turn them. `orientation` 6 means "rotate 90 degrees clockwise to view".
std::string jpeg_with_orientation(const cv::Mat& image, std::uint16_t orientation) {
  std::vector<uchar> jpeg;
  if (!cv::imencode(".jpg", image, jpeg, {cv::IMWRITE_JPEG_QUALITY, 100})) throw std::runtime_error("imencode");
  // APP1: "Exif\0\0", a big-endian TIFF header, one IFD with the Orientation (0x0112) SHORT.
  const std::vector<uchar> app1{0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0,
                                'M', 'M', 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,              // TIFF header
                                0x00, 0x01,                                                // one entry
                                0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,            // tag, SHORT, 1
                                static_cast<uchar>(orientation >> 8), static_cast<uchar>(orientation & 0xFF), 0, 0,
                                0x00, 0x00, 0x00, 0x00};                                   // no next IFD
  // After SOI and the JFIF APP0 segment (its length is big-endian after its marker).
  const std::size_t app0_end = 4 + ((static_cast<std::size_t>(jpeg[4]) << 8) | jpeg[5]);
  jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(app0_end), app1.begin(), app1.end());
  return std::string(jpeg.begin(), jpeg.end());
}

TEST_F(CliTest, JpegExifOrientationIsApplied) {
  const cv::Mat stored = random_image(10, 20, CV_8UC3, 23);  // 20 wide, 10 tall, as stored
  write_bytes(path("phone.jpg"), jpeg_with_orientation(stored, 6));
  const cv::Mat as_stored = cv::imread(path("phone.jpg"), cv::IMREAD_UNCHANGED);
  ASSERT_EQ(as_stored.cols, 20);
  cv::Mat upright;
  cv::rotate(as_stored, upright, cv::ROTATE_90_CLOCKWISE);

  ProcessResult run = gpufilter({"copy", path("phone.jpg"), path("upright.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const cv::Mat turned = read_unchanged(path("upright.png"));
  ASSERT_EQ(turned.cols, 10) << "the photo is turned upright";
  ASSERT_EQ(turned.rows, 20);
  EXPECT_EQ(max_difference(turned, upright), 0.0);

  run = gpufilter({"copy", path("phone.jpg"), path("stored.png"), "--no-autorotate", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const cv::Mat kept = read_unchanged(path("stored.png"));
  ASSERT_EQ(kept.cols, 20) << "--no-autorotate keeps the stored order";
  EXPECT_EQ(max_difference(kept, as_stored), 0.0);
}

// The bytes of the segment that follows `id` in `jpeg` (from its marker on), or empty.
std::string segment_with(const std::string& jpeg, const std::string& id) {
  const std::size_t at = jpeg.find(id);
  if (at == std::string::npos || at < 4) return {};
  const std::size_t start = at - 4;
  const std::size_t length = (static_cast<unsigned char>(jpeg[start + 2]) << 8) | static_cast<unsigned char>(jpeg[start + 3]);
  return jpeg.substr(start, 2 + length);
}

TEST_F(CliTest, JpegToJpegKeepsExifAndIccProfile) {
  const cv::Mat stored = random_image(12, 16, CV_8UC3, 29);
  std::string jpeg = jpeg_with_orientation(stored, 8);
  // A little-endian EXIF block goes through the same parser in tests below; here an ICC
  // profile segment joins the big-endian one, after it.
  // (a profile's first four bytes are its size, which Exiv2 checks).
  const std::string icc_body =
      std::string("ICC_PROFILE\0", 12) + std::string("\x01\x01", 2) + std::string("\0\0\0\x16", 4) + "fake profile bytes";
  std::string icc = "\xFF\xE2";
  icc += static_cast<char>((icc_body.size() + 2) >> 8);
  icc += static_cast<char>((icc_body.size() + 2) & 0xFF);
  icc += icc_body;
  const std::string exif_in = segment_with(jpeg, std::string("Exif\0\0", 6));
  ASSERT_FALSE(exif_in.empty());
  jpeg.insert(jpeg.find(exif_in) + exif_in.size(), icc);
  write_bytes(path("in.jpg"), jpeg);

  ProcessResult run = gpufilter({"blur", path("in.jpg"), path("upright.jpg"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string upright = read_bytes(path("upright.jpg"));
  const std::string exif_out = segment_with(upright, std::string("Exif\0\0", 6));
  ASSERT_EQ(exif_out.size(), exif_in.size()) << "EXIF is carried into OUT";
  // Orientation 8's value sits at byte 28 of the segment built by jpeg_with_orientation.
  EXPECT_EQ(exif_in[29], 8);
  EXPECT_EQ(exif_out[29], 1) << "the pixels were turned upright, so the tag says upright";
  EXPECT_EQ(exif_out.substr(0, 28), exif_in.substr(0, 28));
  EXPECT_EQ(segment_with(upright, std::string("ICC_PROFILE\0", 12)), icc) << "the ICC profile is carried";
  EXPECT_LT(upright.find(std::string("Exif\0\0", 6)), upright.find(std::string("ICC_PROFILE\0", 12)));
  EXPECT_FALSE(cv::imread(path("upright.jpg"), cv::IMREAD_UNCHANGED).empty()) << "OUT is still a JPEG readers open";
  EXPECT_EQ(cv::imread(path("upright.jpg"), cv::IMREAD_UNCHANGED).rows, 16);

  run = gpufilter({"blur", path("in.jpg"), path("stored.jpg"), "--no-autorotate", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(segment_with(read_bytes(path("stored.jpg")), std::string("Exif\0\0", 6)), exif_in)
      << "pixels kept in stored order keep the tag that turns them";

  run = gpufilter({"blur", path("in.jpg"), path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(CliTest, LittleEndianExifOrientationIsReadAndReset) {
  const cv::Mat stored = random_image(10, 20, CV_8UC3, 31);
  std::vector<uchar> bytes;
  ASSERT_TRUE(cv::imencode(".jpg", stored, bytes, {cv::IMWRITE_JPEG_QUALITY, 100}));
  const std::vector<uchar> app1{0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0,
                                'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // TIFF header, IFD0 at 8
                                0x01, 0x00,                                    // one entry
                                0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,  // orientation, SHORT, 1
                                0x06, 0x00, 0, 0,                              // 6: rotate 90 clockwise
                                0x00, 0x00, 0x00, 0x00};
  bytes.insert(bytes.begin() + 2, app1.begin(), app1.end());
  write_bytes(path("le.jpg"), std::string(bytes.begin(), bytes.end()));
  const ProcessResult run = gpufilter({"copy", path("le.jpg"), path("le-out.jpg"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const cv::Mat out = cv::imread(path("le-out.jpg"), cv::IMREAD_UNCHANGED);
  EXPECT_EQ(out.cols, 10) << "orientation 6 turned the pixels upright";
  const std::string exif = segment_with(read_bytes(path("le-out.jpg")), std::string("Exif\0\0", 6));
  ASSERT_EQ(exif.size(), app1.size());
  EXPECT_EQ(exif[28], 1);
  EXPECT_EQ(exif[29], 0);
}

// ---- JPEG on the GPU (nvJPEG) ----------------------------------------------------------
// These need a GPU and a build with nvJPEG (--codec gpu says when the build has none).

// A photo-like test image: smooth gradients with some texture, where decoders differ by
// their IDCT rounding and chroma upsampling only (pure noise would magnify the latter).
cv::Mat photo_like(int rows, int cols, int channels, unsigned seed) {
  cv::Mat image(rows, cols, CV_8UC3);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      image.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>((x * 255) / cols), static_cast<uchar>((y * 255) / rows),
                                            static_cast<uchar>(128 + 100 * std::sin((x + y) / 9.0)));
  cv::Mat noise(rows, cols, CV_8UC3);
  cv::RNG rng(seed);
  rng.fill(noise, cv::RNG::UNIFORM, 0, 24);
  image += noise;
  if (channels == 1) cv::cvtColor(image, image, cv::COLOR_BGR2GRAY);
  return image;
}

// How far nvJPEG's decode may be from OpenCV's (libjpeg-turbo) decode of one file. Decoded
// alone, only the inverse DCT's rounding: nvJPEG stops at the planes and libjpeg's own
// upsampling and colour step follow (gpufilter/jpeg_color.hpp). Decoded, filtered and
// encoded by both libraries, the encoders differ too. The measured values are printed;
// docs/gpu-results.md ("JPEG decoding") has them.
struct JpegTolerance {
  double mean;  // mean absolute difference per channel value
  double max;   // largest single difference
};
constexpr JpegTolerance kDecodedJpeg{0.1, 4.0};
constexpr JpegTolerance kEncodedJpeg{3.0, 40.0};

double mean_difference(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat difference;
  cv::absdiff(a, b, difference);
  const cv::Scalar mean = cv::mean(difference);
  double sum = 0.0;
  for (int c = 0; c < a.channels(); ++c) sum += mean[c];
  return sum / a.channels();
}

void expect_jpeg_close(const cv::Mat& gpu, const cv::Mat& cpu, const std::string& what,
                       JpegTolerance tolerance = kEncodedJpeg) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  ASSERT_EQ(gpu.type(), cpu.type()) << what;
  const double mean = mean_difference(gpu, cpu);
  const double max = max_difference(gpu, cpu);
  std::cout << "[ nvJPEG vs OpenCV ] " << what << ": mean " << mean << ", max " << max << '\n';
  EXPECT_LE(mean, tolerance.mean) << what;
  EXPECT_LE(max, tolerance.max) << what;
}

// The CPU decoders (GPUFILTER_JPEG_CPU_DECODERS, off by default) forced on a batch on the CPU: files decoded ahead by OpenCV on threads of
// their own, taken from the same queue as the batch's threads, give the same bytes as the
// batch without them; EXIF orientation applied and metadata kept; a corrupt and a
// missing file named and skipped, with the input exit code.
TEST_F(CliTest, BatchCpuDecodersMatchThePlainBatch) {
  std::vector<std::string> args{"blur", "--sigma", "1.5"};
  std::vector<std::string> names;
  for (int i = 0; i < 14; ++i) {
    const std::string name = "d" + std::to_string(i);
    args.push_back(write_input(name + ".jpg", photo_like(40 + 3 * i, 57 + 2 * i, i % 5 == 4 ? 1 : 3,
                                                         70u + static_cast<unsigned>(i))));
    names.push_back(name);
  }
  write_bytes(path("turned.jpg"), jpeg_with_orientation(photo_like(30, 50, 3, 90), 6));
  args.push_back(path("turned.jpg"));
  names.push_back("turned");
  args.push_back(write_input("plain.png", random_image(21, 19, CV_8UC3, 91)));
  names.push_back("plain");
  write_bytes(path("corrupt.jpg"), read_bytes(path("d0.jpg")).substr(0, 150));
  args.push_back(path("corrupt.jpg"));
  args.push_back(path("missing.jpg"));
  const std::size_t total = names.size() + 2;
  const auto run_into = [&](const std::string& dir, const std::vector<std::string>& env) {
    fs::create_directory(path(dir));
    std::vector<std::string> command = args;
    command.insert(command.end(), {"--out-dir", path(dir), "--suffix", "_b", "--device", "cpu", "--jobs", "2",
                                   "--timing"});
    ProcessOptions options;
    options.env = env;
    const ProcessResult run = gpufilter(command, options);
    EXPECT_EQ(run.exit_code, kInput) << run.err;
    EXPECT_TRUE(contains(run.err, "corrupt.jpg")) << run.err;
    EXPECT_TRUE(contains(run.err, "missing.jpg")) << run.err;
    EXPECT_TRUE(contains(run.err, std::to_string(names.size()) + " of " + std::to_string(total) + " files written"))
        << run.err;
    EXPECT_TRUE(contains(run.err, "gpufilter: throughput: ")) << run.err;
    return run.err;
  };
  const std::string ahead = run_into("ahead", {"GPUFILTER_JPEG_CPU_DECODERS=2"});
  // A budget below one image: one file at a time is still decoded.
  const std::string tight = run_into("tight", {"GPUFILTER_JPEG_CPU_DECODERS=3", "GPUFILTER_JPEG_CPU_DECODERS_STARTUP=5",
                                               "GPUFILTER_JPEG_CPU_DECODE_MB=64"});
  const std::string plain = run_into("plain", {"GPUFILTER_JPEG_CPU_DECODERS=0"});
  std::cout << "[ CPU decoders ] " << ahead;
  EXPECT_FALSE(contains(ahead, "no CPU decoders")) << ahead;
  EXPECT_TRUE(contains(ahead, "(OpenCV, 2 threads")) << ahead;
  EXPECT_TRUE(contains(tight, "(OpenCV, 3 threads, 5 while the engine started, 64 MiB")) << tight;
  EXPECT_TRUE(contains(plain, "CPU 0 files (no CPU decoders)")) << plain;
  for (const std::string& name : names) {
    const std::string file = name + "_b." + (name == "plain" ? "png" : "jpg");
    EXPECT_EQ(read_bytes(path("ahead/" + file)), read_bytes(path("plain/" + file))) << file;
    EXPECT_EQ(read_bytes(path("tight/" + file)), read_bytes(path("plain/" + file))) << file;
  }
  EXPECT_EQ(read_unchanged(path("ahead/turned_b.jpg")).rows, 50) << "turned upright";
}

class CliGpuJpegTest : public CliTest {
 protected:
  void SetUp() override {
    if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
    const std::string in = write_input("probe.jpg", photo_like(16, 16, 3, 1));
    const ProcessResult run = gpufilter({"copy", in, path("probe.png"), "--device", "gpu", "--codec", "gpu"});
    if (run.exit_code != 0 && contains(run.err, "without nvJPEG")) GTEST_SKIP() << run.err;
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  // IN through `args` on the GPU with --codec gpu and again with --codec cpu; both outputs.
  std::pair<cv::Mat, cv::Mat> both_codecs(const std::string& in, const std::string& out_suffix,
                                          const std::vector<std::string>& args) {
    std::pair<cv::Mat, cv::Mat> outputs;
    for (const char* codec : {"gpu", "cpu"}) {
      const std::string out = path(std::string("out-") + codec + out_suffix);
      std::vector<std::string> command{args.front(), in, out};
      command.insert(command.end(), args.begin() + 1, args.end());
      command.insert(command.end(), {"--device", "gpu", "--codec", codec, "--timing"});
      const ProcessResult run = gpufilter(command);
      EXPECT_EQ(run.exit_code, 0) << run.err;
      EXPECT_EQ(contains(run.err, "gpu decode"), std::string(codec) == "gpu") << run.err;
      (std::string(codec) == "gpu" ? outputs.first : outputs.second) = read_unchanged(out);
    }
    return outputs;
  }
};

TEST_F(CliGpuJpegTest, DecodeMatchesOpenCv) {
  const std::vector<std::pair<std::string, std::vector<int>>> kinds{
      {"colour 4:2:0 q95", {cv::IMWRITE_JPEG_QUALITY, 95}},
      {"colour 4:2:0 q50", {cv::IMWRITE_JPEG_QUALITY, 50}},
      {"colour 4:2:0 q100", {cv::IMWRITE_JPEG_QUALITY, 100}},
      {"progressive", {cv::IMWRITE_JPEG_PROGRESSIVE, 1}},
  };
  int index = 0;
  for (const auto& [what, params] : kinds) {
    const std::string in = path("in" + std::to_string(index++) + ".jpg");
    ASSERT_TRUE(cv::imwrite(in, photo_like(203, 317, 3, 5), params));  // odd sizes: partial MCUs
    const auto [gpu, cpu] = both_codecs(in, std::to_string(index) + ".png", {"copy"});
    expect_jpeg_close(gpu, cpu, what, kDecodedJpeg);
    expect_jpeg_close(gpu, cv::imread(in, cv::IMREAD_UNCHANGED), what + " (OpenCV in the test)", kDecodedJpeg);
  }
  const std::string gray = write_input("gray.jpg", photo_like(99, 141, 1, 6));
  const auto [gpu, cpu] = both_codecs(gray, "-gray.png", {"copy"});
  EXPECT_EQ(gpu.channels(), 1) << "a gray JPEG stays one channel, as OpenCV reads it";
  expect_jpeg_close(gpu, cpu, "gray", kDecodedJpeg);
}

// A JPEG gives the same pixels in a GPU batch (the hardware engine, or nvJPEG one by one)
// as alone through the CPU decoder: nvJPEG stops at the planes and libjpeg's upsampling
// and colour step follow (gpufilter/jpeg_color.hpp). What is left is the inverse DCT's
// rounding; the figures are printed for the docs.
TEST_F(CliGpuJpegTest, ABatchDecodesEachFileAsTheCpuDecoderDoes) {
  std::vector<std::string> args{"copy"};
  std::vector<std::string> names;
  for (int i = 0; i < 8; ++i) {
    const std::string name = "b" + std::to_string(i);
    const std::string in = path(name + ".jpg");
    // The gray one photo-sized: the engine's gray output of such a file was wrong, so gray
    // files leave the engine to the per-file decoders.
    const cv::Mat image =
        i == 7 ? photo_like(3000, 4000, 1, 47u) : photo_like(201 + 14 * i, 313 + 6 * i, 3, 40u + static_cast<unsigned>(i));
    ASSERT_TRUE(cv::imwrite(in, image, {cv::IMWRITE_JPEG_QUALITY, 80 + 2 * i}));
    args.push_back(in);
    names.push_back(name);
  }
  fs::create_directory(path("batch"));
  args.insert(args.end(), {"--out-dir", path("batch"), "--format", "png", "--device", "gpu", "--timing"});
  const ProcessResult batch = gpufilter(args);
  ASSERT_EQ(batch.exit_code, 0) << batch.err;
  std::cout << "[ batch decode ] " << batch.err;
  double worst_max = 0.0;
  double worst_mean = 0.0;
  for (const std::string& name : names) {
    const ProcessResult alone =
        gpufilter({"copy", path(name + ".jpg"), path(name + "-alone.png"), "--codec", "cpu", "--device", "cpu"});
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    const cv::Mat in_batch = read_unchanged(path("batch/" + name + ".png"));
    const cv::Mat by_itself = read_unchanged(path(name + "-alone.png"));
    ASSERT_EQ(in_batch.size(), by_itself.size()) << name;
    worst_max = std::max(worst_max, max_difference(in_batch, by_itself));
    worst_mean = std::max(worst_mean, mean_difference(in_batch, by_itself));
  }
  std::cout << "[ batch vs alone ] largest difference " << worst_max << ", largest mean " << worst_mean << '\n';
  EXPECT_LE(worst_max, kDecodedJpeg.max);
  EXPECT_LE(worst_mean, kDecodedJpeg.mean);
}

TEST_F(CliGpuJpegTest, OrientationIsAppliedOnTheGpu) {
  const cv::Mat stored = photo_like(48, 80, 3, 7);
  for (int orientation = 1; orientation <= 8; ++orientation) {
    SCOPED_TRACE(orientation);
    const std::string in = path("o" + std::to_string(orientation) + ".jpg");
    write_bytes(in, jpeg_with_orientation(stored, static_cast<std::uint16_t>(orientation)));
    const auto [gpu, cpu] = both_codecs(in, std::to_string(orientation) + ".png", {"copy"});
    ASSERT_EQ(gpu.cols, orientation >= 5 ? 48 : 80);
    expect_jpeg_close(gpu, cpu, "orientation " + std::to_string(orientation), kDecodedJpeg);
    // Kept as stored with --no-autorotate.
    const std::string kept = path("kept" + std::to_string(orientation) + ".png");
    const ProcessResult run = gpufilter({"copy", in, kept, "--no-autorotate", "--device", "gpu", "--codec", "gpu"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_unchanged(kept).cols, 80);
  }
}

TEST_F(CliGpuJpegTest, EncodeRoundTripAndQuality) {
  const std::string in = write_input("in.jpg", photo_like(240, 320, 3, 8));
  const cv::Mat original = cv::imread(in, cv::IMREAD_UNCHANGED);
  const auto [gpu, cpu] = both_codecs(in, ".jpg", {"blur", "--sigma", "1.5"});
  expect_jpeg_close(gpu, cpu, "blur, encoded by nvJPEG vs OpenCV, q95");
  EXPECT_LE(mean_difference(gpu, original), mean_difference(cpu, original) + 0.5)
      << "nvJPEG's encode keeps the blurred image as well as OpenCV's";
  const auto size_of = [&](const std::string& name, const std::string& quality) {
    const ProcessResult run =
        gpufilter({"copy", in, path(name), "--quality", quality, "--device", "gpu", "--codec", "gpu"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return fs::file_size(path(name));
  };
  EXPECT_LT(size_of("q20.jpg", "20"), size_of("q95.jpg", "95"));
  const std::string gray = write_input("gray.jpg", photo_like(64, 48, 1, 9));
  const auto [gpu_gray, cpu_gray] = both_codecs(gray, "-gray.jpg", {"copy"});
  EXPECT_EQ(gpu_gray.channels(), 1) << "gray is written as a one-component JPEG";
  expect_jpeg_close(gpu_gray, cpu_gray, "gray, encoded by nvJPEG vs OpenCV");
}

TEST_F(CliGpuJpegTest, BatchWithCorruptAndProgressiveFiles) {
  std::vector<std::string> args{"copy"};
  for (int i = 0; i < 6; ++i) args.push_back(write_input("b" + std::to_string(i) + ".jpg", photo_like(64 + i, 96, 3, 20u + static_cast<unsigned>(i))));
  const std::string progressive = path("progressive.jpg");
  ASSERT_TRUE(cv::imwrite(progressive, photo_like(70, 50, 3, 30), {cv::IMWRITE_JPEG_PROGRESSIVE, 1}));
  args.push_back(progressive);
  args.push_back(write_input("gray.jpg", photo_like(33, 44, 1, 31)));
  const std::string whole = read_bytes(args[1]);
  write_bytes(path("corrupt.jpg"), whole.substr(0, 200));  // cut off inside its headers
  args.push_back(path("corrupt.jpg"));
  fs::create_directory(path("gpu"));
  fs::create_directory(path("cpu"));
  for (const char* codec : {"gpu", "cpu"}) {
    std::vector<std::string> command = args;
    command.insert(command.end(), {"--out-dir", path(codec), "--suffix", "_x", "--device", "gpu", "--codec", codec});
    const ProcessResult run = gpufilter(command);
    EXPECT_EQ(run.exit_code, kInput) << run.err;
    EXPECT_TRUE(contains(run.err, "corrupt.jpg")) << run.err;
    EXPECT_TRUE(contains(run.err, "8 of 9 files written")) << run.err;
  }
  for (const std::string name : {"b0", "b3", "b5", "progressive", "gray"}) {
    expect_jpeg_close(read_unchanged(path("gpu/" + name + "_x.jpg")), read_unchanged(path("cpu/" + name + "_x.jpg")),
                      "batch " + name);
  }
}

// A batch through the GPU's hardware JPEG engine (files gathered into nvJPEG batched
// calls), through the per-file path (GPUFILTER_JPEG_BATCH=0) and through OpenCV: every
// output within the JPEG tolerance of OpenCV's, orientations and the files the engine
// declines (progressive, gray where it takes none) included. Where the GPU has no engine
// the summary says so and the batch runs file by file.
TEST_F(CliGpuJpegTest, BatchedHardwareDecodeMatchesOpenCv) {
  std::vector<std::string> names;
  std::vector<std::string> args{"copy"};
  for (int i = 0; i < 18; ++i) {
    const std::string name = "c" + std::to_string(i);
    args.push_back(write_input(name + ".jpg", photo_like(120 + 7 * i, 161 + 5 * i, 3, 40u + static_cast<unsigned>(i))));
    names.push_back(name);
  }
  for (const int orientation : {3, 6, 8}) {
    const std::string name = "o" + std::to_string(orientation);
    write_bytes(path(name + ".jpg"), jpeg_with_orientation(photo_like(64, 96, 3, 50u + static_cast<unsigned>(orientation)),
                                                           static_cast<std::uint16_t>(orientation)));
    args.push_back(path(name + ".jpg"));
    names.push_back(name);
  }
  ASSERT_TRUE(cv::imwrite(path("progressive.jpg"), photo_like(90, 70, 3, 60), {cv::IMWRITE_JPEG_PROGRESSIVE, 1}));
  args.push_back(path("progressive.jpg"));
  names.push_back("progressive");
  args.push_back(write_input("gray.jpg", photo_like(77, 55, 1, 61)));
  names.push_back("gray");
  const auto run_into = [&](const std::string& dir, const std::string& codec, const std::vector<std::string>& env,
                            const std::vector<std::string>& more = {}) {
    fs::create_directory(path(dir));
    std::vector<std::string> command = args;
    command.insert(command.end(), {"--out-dir", path(dir), "--device", "gpu", "--codec", codec, "--timing"});
    command.insert(command.end(), more.begin(), more.end());
    ProcessOptions options;
    options.env = env;
    const ProcessResult run = gpufilter(command, options);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(contains(run.err, std::to_string(names.size()) + " of " + std::to_string(names.size()) + " files written"))
        << run.err;
    return run.err;
  };
  const std::string batched = run_into("batched", "gpu", {});
  const std::string per_file = run_into("per_file", "gpu", {"GPUFILTER_JPEG_BATCH=0"});
  run_into("cpu", "cpu", {});
  // Every GPU with its own engine: the same outputs (the GPUs of a machine are alike).
  const std::string all_devices = run_into("all", "gpu", {}, {"--devices", "all"});
  // --codec auto: the CPU decoders beside the engine (on by default there; two threads
  // here), each file decoded by one or the other.
  const std::string mixed = run_into("mixed", "auto", {"GPUFILTER_JPEG_CPU_DECODERS=2"});
  // Start-up decoding alone: the CPU decodes only while the engine starts.
  const std::string startup = run_into("startup", "auto", {"GPUFILTER_JPEG_STARTUP_DECODE=1"});
  std::cout << "[ batched run ] " << batched << "[ --devices all ] " << all_devices << "[ CPU decoders ] " << mixed
            << "[ start-up decoding ] " << startup;
  EXPECT_TRUE(contains(startup, "(OpenCV, 0 threads, ")) << startup;
  EXPECT_TRUE(contains(startup, "nice 10")) << startup;
  EXPECT_TRUE(contains(batched, "CPU 0 files (no CPU decoders)")) << "--codec gpu: nvJPEG decodes " << batched;
  EXPECT_TRUE(contains(mixed, "(OpenCV, 2 threads")) << mixed;
  EXPECT_TRUE(contains(batched, "hardware JPEG decoding (GPU 0)")) << batched;
  EXPECT_FALSE(contains(per_file, "hardware JPEG decoding")) << per_file;
  if (!contains(batched, "no hardware JPEG engine")) {
    // "N of M files in C calls": the engine took the 21 baseline colour files, or most,
    // and files that arrived while it started share calls.
    const std::size_t at = batched.find("hardware JPEG decoding (GPU 0): ");
    ASSERT_NE(at, std::string::npos);
    long decoded = 0, files = 0, calls = 0;
    ASSERT_EQ(std::sscanf(batched.c_str() + at, "hardware JPEG decoding (GPU 0): %ld of %ld files in %ld calls",
                          &decoded, &files, &calls), 3)
        << batched;
    EXPECT_EQ(files, static_cast<long>(names.size()));
    EXPECT_GE(decoded, 18) << "the baseline colour files go to the hardware engine";
    EXPECT_LT(calls, decoded) << "files are gathered into calls";
  }
  for (const std::string& name : names) {
    const cv::Mat cpu = read_unchanged(path("cpu/" + name + ".jpg"));
    expect_jpeg_close(read_unchanged(path("batched/" + name + ".jpg")), cpu, "batched " + name);
    expect_jpeg_close(read_unchanged(path("per_file/" + name + ".jpg")), cpu, "per-file " + name);
    expect_jpeg_close(read_unchanged(path("mixed/" + name + ".jpg")), cpu, "CPU decoders beside the engine " + name);
    expect_jpeg_close(read_unchanged(path("startup/" + name + ".jpg")), cpu, "start-up decoding " + name);
    EXPECT_EQ(read_bytes(path("all/" + name + ".jpg")), read_bytes(path("batched/" + name + ".jpg")))
        << name << ": --devices all and one GPU differ";
  }
}

// A server (cli/server.hpp) runs on the GPU as a process of its own does: a PNG gives the
// same bytes, a JPEG goes to nvJPEG (a process of its own keeps OpenCV's codecs for one
// file) and stays within the codecs' tolerance; the warm-up is not part of the run.
TEST_F(CliGpuJpegTest, ServerRunsOnTheGpuAsItsOwnProcessDoes) {
  ProcessOptions served;
  served.env = {"GPUFILTER_SERVER=on", "GPUFILTER_SERVER_SOCKET=" + (capture_ / "server.sock").string()};
  const ProcessResult started = gpufilter({"server", "start", "--idle-timeout", "120"}, served);
  ASSERT_EQ(started.exit_code, 0) << started.out << started.err;
  struct Stop {
    std::string capture;
    ProcessOptions options;
    ~Stop() { run_process(GPUFILTER_CLI_PATH, {"server", "stop"}, capture, options); }
  } stop{capture_.path().string(), served};

  const std::string png = write_input("in.png", photo_like(203, 317, 3, 8));
  const ProcessResult alone = gpufilter({"blur", png, path("alone.png"), "--device", "gpu"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const ProcessResult on_server = gpufilter({"blur", png, path("served.png"), "--device", "gpu", "--timing"}, served);
  ASSERT_EQ(on_server.exit_code, 0) << on_server.err;
  EXPECT_TRUE(contains(on_server.err, "timing (gpu)")) << on_server.err;
  EXPECT_FALSE(contains(on_server.err, "cuda start")) << on_server.err;
  EXPECT_EQ(read_bytes(path("served.png")), read_bytes(path("alone.png")));

  const std::string jpeg = path("in.jpg");
  ASSERT_TRUE(cv::imwrite(jpeg, photo_like(203, 317, 3, 9), {cv::IMWRITE_JPEG_QUALITY, 95}));
  const ProcessResult jpeg_alone = gpufilter({"blur", jpeg, path("jpeg-alone.png"), "--device", "gpu"});
  ASSERT_EQ(jpeg_alone.exit_code, 0) << jpeg_alone.err;
  const ProcessResult jpeg_served =
      gpufilter({"blur", jpeg, path("jpeg-served.png"), "--device", "gpu", "--timing"}, served);
  ASSERT_EQ(jpeg_served.exit_code, 0) << jpeg_served.err;
  EXPECT_TRUE(contains(jpeg_served.err, "gpu decode")) << jpeg_served.err;
  expect_jpeg_close(read_unchanged(path("jpeg-served.png")), read_unchanged(path("jpeg-alone.png")), "served",
                    kDecodedJpeg);

  const ProcessResult status = gpufilter({"server", "status"}, served);
  EXPECT_TRUE(contains(status.out, "2 commands run")) << status.out;
}

TEST_F(CliTest, EncodeOptionsReachTheEncoder) {
  // A smooth image, so that JPEG quality shows in the size and PNG levels in the ratio.
  cv::Mat image(120, 160, CV_8UC3);
  for (int y = 0; y < image.rows; ++y)
    for (int x = 0; x < image.cols; ++x) image.at<cv::Vec3b>(y, x) = cv::Vec3b(x, y, (x + y) / 2);
  const std::string in = write_input("in.png", image);
  const auto size_of = [&](const std::string& name, std::vector<std::string> flags) {
    std::vector<std::string> args{"copy", in, path(name), "--device", "cpu"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult run = gpufilter(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return fs::file_size(path(name));
  };
  EXPECT_LT(size_of("q20.jpg", {"--quality", "20"}), size_of("q95.jpg", {}));
  EXPECT_EQ(size_of("default.jpg", {}), size_of("q95b.jpg", {"--quality", "95"})) << "95 is the default";
  EXPECT_LT(size_of("z9.png", {"--png-compression", "9"}), size_of("z0.png", {"--png-compression", "0"}));
  EXPECT_EQ(max_difference(read_unchanged(path("z9.png")), image), 0.0) << "PNG levels are lossless";
  EXPECT_EQ(max_difference(read_unchanged(path("z0.png")), image), 0.0);
  const std::string out = path("bad.jpg");
  expect_failure(gpufilter({"copy", in, out, "--quality", "0", "--device", "cpu"}), kUsage, "quality", out);
  expect_failure(gpufilter({"copy", in, out, "--quality", "95.5", "--device", "cpu"}), kUsage, "quality", out);
  expect_failure(gpufilter({"copy", in, path("bad.png"), "--png-compression", "10", "--device", "cpu"}), kUsage,
                 "png-compression", path("bad.png"));
}

// An image with alpha into a format without it is composited onto --background, with one
// line saying so, instead of refused.
TEST_F(CliTest, AlphaIntoAFormatWithoutItIsFlattened) {
  const cv::Mat rgba = random_image(13, 17, CV_8UC4, 24);
  const std::string in = write_input("in.png", rgba);
  const cv::Mat stored = read_unchanged(in);
  ProcessResult run = gpufilter({"copy", in, path("flat.ppm"), "--background", "#204060", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.err_lines().size(), 1u) << run.err;
  EXPECT_TRUE(contains(run.err, "flattened onto #204060")) << run.err;
  const cv::Mat flat = read_unchanged(path("flat.ppm"));
  ASSERT_EQ(flat.type(), CV_8UC3);
  const double under[3] = {0x60, 0x40, 0x20};  // B, G, R
  double largest = 0.0;
  for (int y = 0; y < stored.rows; ++y)
    for (int x = 0; x < stored.cols; ++x) {
      const cv::Vec4b p = stored.at<cv::Vec4b>(y, x);
      const double a = p[3] / 255.0;
      for (int c = 0; c < 3; ++c) {
        const double expected = std::nearbyint(p[c] * a + under[c] * (1.0 - a));
        largest = std::max(largest, std::abs(flat.at<cv::Vec3b>(y, x)[c] - expected));
      }
    }
  EXPECT_EQ(largest, 0.0);

  run = gpufilter({"copy", in, path("flat.jpg"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.err, "onto white")) << run.err;
  EXPECT_EQ(read_unchanged(path("flat.jpg")).channels(), 3);

  expect_failure(gpufilter({"copy", in, path("bad.jpg"), "--background", "#12345", "--device", "cpu"}), kUsage,
                 "--background", path("bad.jpg"));
  expect_failure(gpufilter({"copy", in, path("bad.jpg"), "--background", "1,2,300", "--device", "cpu"}), kUsage,
                 "--background", path("bad.jpg"));
}

TEST_F(CliTest, BorderIsRefusedByOpsWithoutOne) {
  const std::string in = write_input("in.png", random_image(8, 8, CV_8UC3, 20));
  int borderless = 0;
  for (const Operation& op : operations()) {
    if (op.uses_border) continue;
    expect_failure(gpufilter({op.name, in, path("out.png"), "--border", "wrap", "--device", "cpu"}), kUsage,
                   "border", path("out.png"));
    ++borderless;
  }
  if (borderless == 0) GTEST_SKIP() << "every registered op takes a border";
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

// ---- the output file cannot be redirected; an interrupted run leaves nothing -------------

// Earlier versions wrote to ".<OUT>.tmp-<pid><suffix>" through whatever was there, so
// anyone able to write to OUT's directory could make the run write any file of the user.
TEST_F(CliTest, LinkPlantedAtThePidTemporaryNameIsNotFollowed) {
  const cv::Mat image = random_image(20, 30, CV_8UC3, 40);
  const std::string in = write_input("in.png", image);
  ScratchDir elsewhere;
  const fs::path victim = elsewhere / "victim.txt";
  write_bytes(victim, "precious");
  const fs::path directory = dir_.path();
  ProcessOptions options;
  options.before_exec = [&] {  // in the child, which keeps its pid through exec
    const fs::path link = directory / (".out.png.tmp-" + std::to_string(::getpid()) + ".png");
    if (::symlink(victim.c_str(), link.c_str()) != 0) ::_exit(126);
  };
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu"}, options);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(read_bytes(victim) == "precious") << "the run wrote through the planted link";
  EXPECT_FALSE(fs::is_symlink(path("out.png")));
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
  const std::string planted = pending_temporary();
  ASSERT_TRUE(planted.starts_with(".out.png.tmp-")) << "the planted link is gone: '" << planted << "'";
  EXPECT_TRUE(fs::is_symlink(dir_ / planted)) << "the planted link was replaced";
}

TEST_F(CliTest, TemporaryFileIsPrivateAndItsNameUnpredictable) {
  const std::string in = write_input("in.png", random_image(20, 30, CV_8UC3, 41));
  const std::unique_ptr<ChildProcess> child =
      start_paused({"blur", in, path("out.png"), "--device", "cpu"}, /*pause_ms=*/500);
  ASSERT_NE(child, nullptr);
  const std::string pending = pending_temporary();
  EXPECT_TRUE(pending.starts_with(".out.png.tmp-")) << pending;
  EXPECT_FALSE(contains(pending, std::to_string(child->pid()))) << "a name made of the pid can be guessed: "
                                                                 << pending;
  const fs::file_status status = fs::symlink_status(dir_ / pending);
  EXPECT_TRUE(fs::is_regular_file(status)) << pending;
  EXPECT_EQ(status.permissions(), fs::perms::owner_read | fs::perms::owner_write) << pending;
  const ProcessResult run = child->wait();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.png", "out.png"}));
  // Once in place, OUT has what any new file gets: 0666 less the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(static_cast<unsigned>(fs::status(path("out.png")).permissions()), 0666u & ~static_cast<unsigned>(mask));
}

TEST_F(CliTest, ReplacedOutputKeepsItsPermissions) {
  const cv::Mat image = random_image(12, 14, CV_8UC3, 42);
  const std::string in = write_input("in.png", image);
  write_bytes(path("out.png"), "old contents");
  fs::permissions(path("out.png"), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const ProcessResult run = gpufilter({"blur", in, path("out.png"), "--device", "cpu", "-y"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(fs::status(path("out.png")).permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
}

// Ctrl-C, kill, a closed terminal or a closed pipe while OUT is being written: the run
// ends by that signal, as it would without the cleanup, and leaves no file behind.
class CliSignalTest : public CliTest, public ::testing::WithParamInterface<int> {};

TEST_P(CliSignalTest, SignalDuringTheWriteLeavesNothingBehind) {
  const std::string in = write_input("in.png", random_image(20, 30, CV_8UC3, 43));
  const std::unique_ptr<ChildProcess> child =
      start_paused({"blur", in, path("out.png"), "--device", "cpu"}, /*pause_ms=*/30000);
  ASSERT_NE(child, nullptr);
  child->send(GetParam());
  const ProcessResult run = child->wait();
  EXPECT_EQ(run.signal, GetParam()) << "exit " << run.exit_code << ": " << run.err;
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
}

INSTANTIATE_TEST_SUITE_P(CleanupSignals, CliSignalTest, ::testing::Values(SIGINT, SIGTERM, SIGHUP, SIGPIPE),
                         [](const ::testing::TestParamInfo<int>& signal_info) {
                           return std::string("SIG") + sigabbrev_np(signal_info.param);
                         });

TEST_F(CliTest, SignalRemovesOnlyTheFileTheRunCreated) {
  const std::string in = write_input("in.png", random_image(20, 30, CV_8UC3, 44));
  const std::unique_ptr<ChildProcess> child =
      start_paused({"blur", in, path("out.png"), "--device", "cpu"}, /*pause_ms=*/30000);
  ASSERT_NE(child, nullptr);
  // Another file takes the temporary file's name while the run holds it.
  const fs::path pending = dir_ / pending_temporary();
  fs::remove(pending);
  write_bytes(pending, "someone else's");
  child->send(SIGTERM);
  const ProcessResult run = child->wait();
  EXPECT_EQ(run.signal, SIGTERM) << "exit " << run.exit_code << ": " << run.err;
  ASSERT_TRUE(fs::exists(pending)) << "the run removed a file it did not create";
  EXPECT_EQ(read_bytes(pending), "someone else's");
}

// nohup ignores SIGHUP so that a closed terminal does not end the run: the cleanup must
// not undo that.
TEST_F(CliTest, IgnoredHangupStaysIgnored) {
  const cv::Mat image = random_image(20, 30, CV_8UC3, 45);
  const std::string in = write_input("in.png", image);
  ProcessOptions options;
  options.ignored_signals = {SIGHUP};
  const std::unique_ptr<ChildProcess> child =
      start_paused({"blur", in, path("out.png"), "--device", "cpu"}, /*pause_ms=*/500, options);
  ASSERT_NE(child, nullptr);
  child->send(SIGHUP);
  const ProcessResult run = child->wait();
  EXPECT_EQ(run.signal, 0);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(image)), 0.0);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.png", "out.png"}));
}

// ---- --border-value must fit the pixels ------------------------------------------------

TEST_F(CliTest, BorderValueOutsideTheChannelRangeIsRefused) {
  const std::string in8 = write_input("in8.png", random_image(8, 8, CV_8UC3, 46));
  const std::string in16 = write_input("in16.png", random_image(8, 8, CV_16UC1, 47));
  const std::string out = path("out.png");
  const auto blur = [&](const std::string& in, const std::string& value) {
    return gpufilter({"blur", in, out, "--device", "cpu", "--border", "constant", "--border-value", value});
  };
  expect_failure(blur(in8, "300"), kUsage, {"300", "0..255"}, out);
  expect_failure(blur(in8, "-1"), kUsage, {"-1", "0..255"}, out);
  expect_failure(blur(in8, "0,0,256"), kUsage, {"256", "0..255"}, out);
  expect_failure(blur(in16, "65536"), kUsage, {"65536", "0..65535"}, out);
}

TEST_F(CliTest, FractionalBorderValueForIntegerPixelsIsRefused) {
  const std::string in8 = write_input("in8.png", random_image(8, 8, CV_8UC3, 48));
  const std::string in16 = write_input("in16.png", random_image(8, 8, CV_16UC3, 49));
  const std::string out = path("out.png");
  const auto blur = [&](const std::string& in, const std::string& value) {
    return gpufilter({"blur", in, out, "--device", "cpu", "--border", "constant", "--border-value", value});
  };
  expect_failure(blur(in8, "12.5"), kUsage, {"12.5", "whole number"}, out);
  expect_failure(blur(in16, "100,0.25"), kUsage, {"0.25", "whole number"}, out);
}

TEST_F(CliTest, BorderValuesAtTheChannelLimitsAreUsedAsGiven) {
  Border border;
  border.mode = BorderMode::Constant;
  border.value = {255.0, 0.0, 255.0, 0.0};
  expect_blur_matches(random_image(9, 11, CV_8UC3, 50), "in8.png", "out8.png",
                      {"--border", "constant", "--border-value", "255,0,255"}, {}, border);
  border.value = {65535.0, 65535.0, 65535.0, 65535.0};
  expect_blur_matches(random_image(9, 11, CV_16UC1, 51), "in16.png", "out16.png",
                      {"--border", "constant", "--border-value", "65535"}, {}, border);
  border.value = {-2.5, 1000.25, 0.0, 0.0};
  expect_blur_matches(random_image(9, 11, CV_32FC3, 52), "in32.tiff", "out32.tiff",
                      {"--border", "constant", "--border-value", "-2.5,1000.25"}, {}, border);
}

// ---- memory ------------------------------------------------------------------------------

// A PNG of about a hundred KB that decodes to 75 MB (5000x5000 u8x3), and its size in
// MiB once decoded.
double write_big_compressible_png(const std::string& file) {
  constexpr int kSide = 5000;
  cv::Mat image(kSide, kSide, CV_8UC3);
  for (int y = 0; y < kSide; ++y) image.row(y).setTo(cv::Scalar(y % 251, y / 7 % 253, 128));
  EXPECT_TRUE(cv::imwrite(file, image)) << file;
  return static_cast<double>(image.total() * image.elemSize()) / (1024.0 * 1024.0);
}

// The CPU path must hold no more than its input, its output and a little more (it once
// held eight more bytes per channel, a whole image of doubles).
TEST_F(CliTest, CpuRunPeakMemoryIsNearOneInputAndOneOutput) {
  const double image_mib = write_big_compressible_png(path("big.png"));
  const ProcessResult run =
      gpufilter({"blur", path("big.png"), path("out.png"), "--device", "cpu", "--sigma", "0.5", "--radius", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const double peak_mib = static_cast<double>(run.max_rss_kib) / 1024.0;
  EXPECT_GT(peak_mib, 2.0 * image_mib) << "the run cannot have held its input and output";
  EXPECT_LT(peak_mib, 2.6 * image_mib + 100.0) << "one image is " << image_mib << " MiB";
  const cv::Mat output = read_unchanged(path("out.png"));
  EXPECT_EQ(output.size(), cv::Size(5000, 5000));
  EXPECT_EQ(output.type(), CV_8UC3);
}

// The GPU path uploads from the decoded image and downloads into the result (it once
// held two more host copies in pinned staging buffers). The CUDA context's own host
// memory is measured on a tiny image first.
TEST_F(CliTest, GpuRunPeakMemoryIsNearOneInputAndOneOutput) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  const std::string tiny = write_input("tiny.png", random_image(8, 8, CV_8UC3, 56));
  const ProcessResult baseline = gpufilter({"blur", tiny, path("tiny_out.png"), "--device", "gpu"});
  ASSERT_EQ(baseline.exit_code, 0) << baseline.err;
  const double image_mib = write_big_compressible_png(path("big.png"));
  const ProcessResult run =
      gpufilter({"blur", path("big.png"), path("out.png"), "--device", "gpu", "--sigma", "0.5", "--radius", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const double baseline_mib = static_cast<double>(baseline.max_rss_kib) / 1024.0;
  const double peak_mib = static_cast<double>(run.max_rss_kib) / 1024.0;
  EXPECT_LT(peak_mib, baseline_mib + 2.6 * image_mib + 50.0)
      << "one image is " << image_mib << " MiB, a tiny run peaks at " << baseline_mib << " MiB";
  EXPECT_EQ(read_unchanged(path("out.png")).size(), cv::Size(5000, 5000));
}

TEST_F(CliTest, ImageTooLargeForHostMemoryIsRefusedBeforeDecoding) {
  // 16 TB once decoded, input and output: no machine this runs on has that much.
  write_bytes(path("huge.png"), png_header_only(1000000, 1000000, 16, /*colour_type RGBA=*/6));
  expect_failure(gpufilter({"blur", path("huge.png"), path("out.png"), "--device", "cpu", "--max-pixels", "0"}),
                 kRuntime, {"1000000x1000000", "host memory", "needed"}, path("out.png"));
  // The largest size a PNG header can state: its byte count does not fit in 64 bits.
  write_bytes(path("huge.png"), png_header_only(0x7fffffff, 0x7fffffff, 16, 6));
  expect_failure(gpufilter({"blur", path("huge.png"), path("out.png"), "--device", "cpu", "--max-pixels", "0"}),
                 kRuntime, {"2147483647x2147483647", "host memory"}, path("out.png"));
}

// A JPEG whose frame header claims `width` x `height` (and no image data after it).
std::string jpeg_header_only(int width, int height) {
  std::string bytes = "\xFF\xD8";
  bytes += std::string("\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 18);  // APP0, skipped
  const unsigned char frame[] = {0xFF, 0xC0, 0x00, 0x11, 0x08,
                                 static_cast<unsigned char>(height >> 8), static_cast<unsigned char>(height & 0xFF),
                                 static_cast<unsigned char>(width >> 8), static_cast<unsigned char>(width & 0xFF),
                                 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01};
  bytes.append(reinterpret_cast<const char*>(frame), sizeof frame);
  return bytes + "\xFF\xD9";
}

TEST_F(CliTest, DecompressionBombsAreRefusedByNameAndSize) {
  write_bytes(path("bomb.png"), png_header_only(50000, 50000, 8, /*colour_type RGB=*/2));
  expect_failure(gpufilter({"blur", path("bomb.png"), path("out.png"), "--device", "cpu"}), kInput,
                 {"bomb.png", "50000x50000", "2500.0 megapixels", "1073.7 megapixels", "--max-pixels"},
                 path("out.png"));
  write_bytes(path("bomb.jpg"), jpeg_header_only(65000, 40000));
  expect_failure(gpufilter({"blur", path("bomb.jpg"), path("out.png"), "--device", "cpu"}), kInput,
                 {"bomb.jpg", "65000x40000", "--max-pixels"}, path("out.png"));
  // A lower limit refuses an ordinary image; a higher one lets the bomb through to the
  // next check (here: it holds no pixels).
  const std::string small = write_input("small.png", random_image(30, 40, CV_8UC3, 90));
  expect_failure(gpufilter({"blur", small, path("out.png"), "--device", "cpu", "--max-pixels", "1000"}), kInput,
                 {"40x30", "0.0 megapixels"}, path("out.png"));
  const ProcessResult raised =
      gpufilter({"blur", path("bomb.jpg"), path("out.png"), "--device", "cpu", "--max-pixels", "3000000000"});
  EXPECT_NE(raised.exit_code, 0);
  EXPECT_FALSE(contains(raised.err, "--max-pixels")) << raised.err;
  expect_failure(gpufilter({"blur", small, path("out.png"), "--max-pixels", "-1"}), kUsage, "--max-pixels",
                 path("out.png"));
}

// ---- gray+alpha PNG ----------------------------------------------------------------------

// The tool sees the image as OpenCV decodes it: BGRA with the gray in B, G and R.
cv::Mat decoded_gray_alpha(const fs::path& file, const cv::Mat& gray_alpha) {
  const cv::Mat decoded = read_unchanged(file);
  EXPECT_EQ(decoded.type(), CV_MAKETYPE(gray_alpha.depth(), 4));
  cv::Mat expected;
  cv::Mat gray_and_alpha[2];
  cv::split(gray_alpha, gray_and_alpha);
  cv::merge(std::vector<cv::Mat>{gray_and_alpha[0], gray_and_alpha[0], gray_and_alpha[0], gray_and_alpha[1]},
            expected);
  EXPECT_EQ(max_difference(decoded, expected), 0.0) << "the test's gray+alpha file does not decode as expected";
  return decoded;
}

TEST_F(CliTest, GrayAlphaPngStaysGrayAlpha) {
  const cv::Mat gray_alpha = random_image(23, 31, CV_8UC2, 53);
  write_gray_alpha_png(path("ga.png"), gray_alpha);
  const cv::Mat decoded = decoded_gray_alpha(path("ga.png"), gray_alpha);
  const ProcessResult run = gpufilter({"blur", path("ga.png"), path("out.png"), "--device", "cpu", "--sigma", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const PngIhdr ihdr = read_png_ihdr(path("out.png"));
  EXPECT_EQ(ihdr.colour_type, 4);
  EXPECT_EQ(ihdr.bit_depth, 8);
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(decoded, {{"sigma", 1.0}})), 0.0);
}

TEST_F(CliTest, SixteenBitGrayAlphaPngCopiesExactly) {
  const cv::Mat gray_alpha = random_image(17, 29, CV_16UC2, 54);
  write_gray_alpha_png(path("ga16.png"), gray_alpha);
  const cv::Mat decoded = decoded_gray_alpha(path("ga16.png"), gray_alpha);
  const ProcessResult run = gpufilter({"copy", path("ga16.png"), path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const PngIhdr ihdr = read_png_ihdr(path("out.png"));
  EXPECT_EQ(ihdr.colour_type, 4);
  EXPECT_EQ(ihdr.bit_depth, 16);
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), decoded), 0.0);
}

TEST_F(CliTest, GrayAlphaBorderValueIsGrayThenAlpha) {
  const cv::Mat gray_alpha = random_image(19, 21, CV_8UC2, 55);
  write_gray_alpha_png(path("ga.png"), gray_alpha);
  const cv::Mat decoded = decoded_gray_alpha(path("ga.png"), gray_alpha);
  const ProcessResult run = gpufilter({"blur", path("ga.png"), path("out.png"), "--device", "cpu", "--border",
                                       "constant", "--border-value", "40,200"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  Border border;
  border.mode = BorderMode::Constant;
  border.value = {40.0, 40.0, 40.0, 200.0};
  EXPECT_EQ(read_png_ihdr(path("out.png")).colour_type, 4);
  EXPECT_EQ(max_difference(read_unchanged(path("out.png")), expected_blur(decoded, {}, border)), 0.0);
  fs::remove(path("out.png"));
  expect_failure(gpufilter({"blur", path("ga.png"), path("out.png"), "--device", "cpu", "--border", "constant",
                            "--border-value", "40,40,200"}),
                 kUsage, "gray+alpha", path("out.png"));
}

// ---- damaged inputs, standard streams and leftovers ---------------------------------------

// A JPEG cut short: libjpeg warns and fills the rest grey; the tool must fail the file.
std::string truncated_jpeg(const cv::Mat& image) {
  std::vector<uchar> bytes;
  if (!cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, 95})) throw std::runtime_error("imencode");
  return std::string(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 3));
}

TEST_F(CliTest, ATruncatedJpegFailsNamingTheFile) {
  write_bytes(path("cut.jpg"), truncated_jpeg(random_image(120, 160, CV_8UC3, 81)));
  expect_failure(gpufilter({"blur", path("cut.jpg"), path("out.png"), "--device", "cpu"}), kInput,
                 {"cut.jpg", "Premature end of JPEG file"}, path("out.png"));
  // In a batch the file is named and skipped; the others are written.
  const std::string good = write_input("good.png", random_image(20, 30, CV_8UC3, 82));
  const ProcessResult batch =
      gpufilter({"copy", path("cut.jpg"), good, "--out-dir", path("out"), "--device", "cpu", "--quiet"});
  EXPECT_EQ(batch.exit_code, kInput) << batch.err;
  EXPECT_TRUE(contains(batch.err, "cut.jpg") && contains(batch.err, "Premature end")) << batch.err;
  EXPECT_TRUE(fs::exists(path("out/good.png")));
  EXPECT_FALSE(fs::exists(path("out/cut.jpg")));
}

// On the GPU, JPEG files go to nvJPEG (a batch's, and one file's with --codec gpu), which
// decodes a cut file without a word: the tool must still fail it, and write the rest.
TEST_F(CliTest, GpuATruncatedJpegFailsNamingTheFile) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  const cv::Mat image = random_image(240, 320, CV_8UC3, 87);
  write_bytes(path("cut.jpg"), truncated_jpeg(image));
  const std::string good = write_input("good.jpg", image);
  const ProcessResult batch = gpufilter({"copy", path("cut.jpg"), good, "--out-dir", path("out"), "--device", "gpu",
                                         "--quiet"});
  EXPECT_EQ(batch.exit_code, kInput) << batch.err;
  EXPECT_TRUE(contains(batch.err, "cut.jpg") && contains(batch.err, "Premature end")) << batch.err;
  EXPECT_TRUE(fs::exists(path("out/good.jpg")));
  EXPECT_FALSE(fs::exists(path("out/cut.jpg")));
  const ProcessResult single =
      gpufilter({"copy", path("cut.jpg"), path("one.jpg"), "--device", "gpu", "--codec", "gpu"});
  EXPECT_EQ(single.exit_code, kInput) << single.err;
  EXPECT_FALSE(fs::exists(path("one.jpg")));
}

TEST_F(CliTest, ANulByteInTheListIsAUsageError) {
  const std::string in = write_input("in.png", random_image(9, 8, CV_8UC3, 83));
  write_bytes(path("list.txt"), in + std::string(1, '\0') + "other.png\n" + in + "\n");
  const ProcessResult run = gpufilter({"copy", "--from-file", path("list.txt"), "--out-dir", path("out"), "--device", "cpu"});
  EXPECT_EQ(run.exit_code, kUsage) << run.err;
  EXPECT_TRUE(contains(run.err, "line 1") && contains(run.err, "NUL")) << run.err;
  EXPECT_FALSE(fs::exists(path("out/in.png")));
}

TEST_F(CliTest, DashReadsStandardInputAndWritesStandardOutput) {
  const cv::Mat image = random_image(21, 17, CV_8UC3, 84);
  const std::string in = write_input("in.png", image);
  ProcessOptions from_file;
  from_file.before_exec = [in] {
    const int fd = ::open(in.c_str(), O_RDONLY);
    if (fd >= 0) ::dup2(fd, STDIN_FILENO);
  };
  const ProcessResult run = gpufilter({"blur", "-", "-", "--format", "png", "--device", "cpu"}, from_file);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const cv::Mat written = cv::imdecode(std::vector<uchar>(run.out.begin(), run.out.end()), cv::IMREAD_UNCHANGED);
  EXPECT_EQ(max_difference(written, expected_blur(image)), 0.0);
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
  expect_failure(gpufilter({"blur", in, path("o.png"), "--format", "jpg"}), kUsage, "--format", path("o.png"));
  // Damage read from standard input is named as such.
  write_bytes(path("cut.jpg"), truncated_jpeg(image));
  ProcessOptions from_cut;
  const std::string cut = path("cut.jpg");
  from_cut.before_exec = [cut] {
    const int fd = ::open(cut.c_str(), O_RDONLY);
    if (fd >= 0) ::dup2(fd, STDIN_FILENO);
  };
  expect_failure(gpufilter({"blur", "-", path("o.png"), "--device", "cpu"}, from_cut), kInput,
                 {"standard input", "Premature end"}, path("o.png"));
}

// ulimit -f: the write fails (EFBIG, not a SIGXFSZ death) and leaves no temporary file.
TEST_F(CliTest, AFileSizeLimitFailsTheWriteAndLeavesNothing) {
  const std::string in = write_input("in.png", random_image(300, 300, CV_8UC3, 85));
  ProcessOptions limited;
  limited.before_exec = [] {
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  };
  const ProcessResult run = gpufilter({"copy", in, path("out.png"), "--device", "cpu"}, limited);
  EXPECT_EQ(run.signal, 0);
  expect_failure(run, kOutput, "out.png", path("out.png"));
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
}

// What a SIGKILL or power cut left: this tool's stale temporary files are swept, fresh
// ones (another run's, writing now) and other files are not.
TEST_F(CliTest, StaleTemporaryFilesAreSwept) {
  const std::string in = write_input("in.png", random_image(9, 8, CV_8UC3, 86));
  write_bytes(path(".old.png.tmp-abcdefABCDEF"), "");
  write_bytes(path(".new.png.tmp-abcdefABCDEF"), "");
  write_bytes(path(".old.png.tmp-notours"), "");
  const timespec hour_ago[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  for (const char* name : {".old.png.tmp-abcdefABCDEF", ".old.png.tmp-notours"})
    ASSERT_EQ(::utimensat(AT_FDCWD, path(name).c_str(), hour_ago, 0), 0);
  const ProcessResult run = gpufilter({"copy", in, path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{".new.png.tmp-abcdefABCDEF", ".old.png.tmp-notours", "in.png",
                                                       "out.png"}));
}

// Batch workers commit side by side: each output gets 0666 less the umask, never 0666
// (the umask was once set to 0 and back around each commit).
TEST_F(CliTest, BatchOutputsKeepTheUmask) {
  std::vector<std::string> args{"copy"};
  for (int i = 0; i < 48; ++i) args.push_back(write_input("in" + std::to_string(i) + ".png", random_image(8, 8, CV_8UC1, 90 + i)));
  args.insert(args.end(), {"--out-dir", path("out"), "--jobs", "8", "--device", "cpu", "--quiet"});
  ProcessOptions masked;
  masked.before_exec = [] { ::umask(027); };
  const ProcessResult run = gpufilter(args, masked);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const auto& entry : fs::directory_iterator(path("out"))) {
    struct stat status {};
    ASSERT_EQ(::stat(entry.path().c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 0777, 0640u) << entry.path();
  }
}

}  // namespace
}  // namespace gpufilter::cli_test
