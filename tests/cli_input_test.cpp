// End-to-end tests of how the tool takes its input and gives its output (--device cpu):
// inputs that can be read once (standard input, named pipes, `<(...)`), read once and
// bounded; closed and full standard streams; PNG files whose chunk lengths lie; PNG
// files whose ancillary chunks are faulty; a JPEG missing only its end marker.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.hpp"

// A namespace of its own: the tests build in unity batches beside cli_test.cpp.
namespace gpufilter::cli_test::input {
namespace {

namespace fs = std::filesystem;

constexpr int kInput = 3;
constexpr int kOutput = 4;

std::string big_endian_32(std::uint32_t value) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xff);
  return out;
}

std::string zlib_compressed(const std::string& raw) {
  std::string out(::compressBound(static_cast<uLong>(raw.size())), '\0');
  uLongf size = static_cast<uLongf>(out.size());
  if (::compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                 static_cast<uLong>(raw.size())) != Z_OK)
    throw std::runtime_error("zlib could not compress the test image");
  out.resize(size);
  return out;
}

// A 8-bit palette PNG (which the tool's own reader leaves to libpng) of `indices`
// (CV_8UC1, each below 16) with a 16-colour palette, `extra` chunks between PLTE and
// IDAT. `expected`: the BGR image OpenCV's decoder gives of it.
std::string palette_png(const cv::Mat& indices, const std::string& extra, cv::Mat* expected = nullptr) {
  std::string palette;
  for (int i = 0; i < 16; ++i) palette += {static_cast<char>(i * 16), static_cast<char>(255 - i * 9), static_cast<char>(i * 5)};
  std::string raw;
  if (expected != nullptr) expected->create(indices.rows, indices.cols, CV_8UC3);
  for (int y = 0; y < indices.rows; ++y) {
    raw += '\0';
    for (int x = 0; x < indices.cols; ++x) {
      const std::uint8_t index = indices.at<std::uint8_t>(y, x);
      raw += static_cast<char>(index);
      if (expected != nullptr) {
        const auto* rgb = reinterpret_cast<const std::uint8_t*>(palette.data() + 3 * index);
        expected->at<cv::Vec3b>(y, x) = cv::Vec3b(rgb[2], rgb[1], rgb[0]);
      }
    }
  }
  const std::string ihdr = big_endian_32(static_cast<std::uint32_t>(indices.cols)) +
                           big_endian_32(static_cast<std::uint32_t>(indices.rows)) + std::string{8, 3, 0, 0, 0};
  return std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) + png_chunk("PLTE", palette) + extra +
         png_chunk("IDAT", zlib_compressed(raw)) + png_chunk("IEND", "");
}

cv::Mat palette_indices(int rows, int cols) {
  cv::Mat indices(rows, cols, CV_8UC1);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) indices.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>((x * 3 + y * 7) % 16);
  return indices;
}

std::string encoded(const std::string& suffix, const cv::Mat& image) {
  std::vector<uchar> bytes;
  if (!cv::imencode(suffix, image, bytes)) throw std::runtime_error("imencode " + suffix);
  return std::string(bytes.begin(), bytes.end());
}

cv::Mat decoded(const std::string& bytes) {
  return cv::imdecode(std::vector<uchar>(bytes.begin(), bytes.end()), cv::IMREAD_UNCHANGED);
}

// The write end of a pipe whose read end a child takes as its standard input: `total`
// bytes of `head` then zeros are written on a thread until the child stops reading,
// counting what it took.
class StreamIntoChild {
 public:
  StreamIntoChild(std::string head, std::uint64_t total) : head_(std::move(head)), total_(total) {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
  }
  ~StreamIntoChild() {
    if (writer_.joinable()) writer_.join();
    for (int fd : fds_)
      if (fd >= 0) ::close(fd);
  }
  // For ProcessOptions::before_exec: the read end as standard input.
  std::function<void()> as_standard_input() const {
    const int read_end = fds_[0];
    return [read_end] { ::dup2(read_end, STDIN_FILENO); };
  }
  // Once the child started: the parent's read end closed (so the writes fail once the
  // child is gone), and the writing begun.
  void start() {
    ::close(fds_[0]);
    fds_[0] = -1;
    writer_ = std::thread([this] {
      std::string block(1 << 16, '\0');
      std::uint64_t done = 0;
      while (done < total_) {
        std::string piece = done < head_.size() ? head_.substr(done) : block;
        const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), total_ - done));
        const ssize_t wrote = ::write(fds_[1], piece.data(), size);
        if (wrote <= 0) break;  // EPIPE: the child closed its end
        done += static_cast<std::uint64_t>(wrote);
      }
      written_ = done;
      ::close(fds_[1]);
      fds_[1] = -1;
    });
  }
  std::uint64_t written() {
    if (writer_.joinable()) writer_.join();
    return written_;
  }

 private:
  std::string head_;
  std::uint64_t total_;
  int fds_[2] = {-1, -1};
  std::thread writer_;
  std::atomic<std::uint64_t> written_{0};
};

class CliInputTest : public ::testing::Test {
 protected:
  CliInputTest() {
    ::setenv("GPUFILTER_SERVER", "off", 1);
    ::setenv("XDG_CACHE_HOME", (capture_.path() / "cache").c_str(), 1);
    // A write into a pipe whose reader has gone fails with EPIPE here, not with a signal.
    ::signal(SIGPIPE, SIG_IGN);
  }

  ProcessResult gpufilter(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path(), options);
  }
  // Runs the tool with `stream` as its standard input; returns once it ended.
  ProcessResult gpufilter_reading(const std::vector<std::string>& args, StreamIntoChild& stream) {
    ProcessOptions options;
    options.before_exec = stream.as_standard_input();
    ChildProcess child(GPUFILTER_CLI_PATH, args, capture_.path(), options);
    stream.start();
    return child.wait();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_input(const std::string& name, const std::string& bytes) {
    write_bytes(path(name), bytes);
    return path(name);
  }
  static std::string error_line(const ProcessResult& run) {
    for (const std::string& line : run.err_lines())
      if (line.starts_with("gpufilter: error: ")) return line;
    return "";
  }

  ScratchDir dir_;
  ScratchDir capture_;
};

// ---- inputs read once ----------------------------------------------------------------

TEST_F(CliInputTest, StandardInputThatIsNoImageIsRefusedFromItsFirstBytes) {
  // `head -c 64M /dev/zero | gpufilter blur - o.png`: refused after its first bytes, not
  // once all of it has been held in memory.
  constexpr std::uint64_t kStream = std::uint64_t{64} << 20;
  StreamIntoChild zeros("", kStream);
  const ProcessResult run = gpufilter_reading({"blur", "-", path("o.png"), "--device", "cpu"}, zeros);
  EXPECT_EQ(run.exit_code, kInput) << run.err;
  EXPECT_TRUE(contains(error_line(run), "standard input") && contains(error_line(run), "does not start like an image"))
      << run.err;
  // What it took: its first read and what the pipe held, far from the whole stream.
  EXPECT_LT(zeros.written(), std::uint64_t{8} << 20);
  EXPECT_FALSE(fs::exists(path("o.png")));
}

TEST_F(CliInputTest, StandardInputIsHeldUpToALimitThatMaxPixelsRaises) {
  // A PNG's first bytes, then more than any image within --max-pixels 1000 needs (16
  // bytes a pixel and 64 MiB of metadata): refused at the limit, naming the option.
  constexpr std::uint64_t kStream = std::uint64_t{96} << 20;
  StreamIntoChild endless(png_header_only(10, 10, 8, 2).substr(0, 33), kStream);
  const ProcessResult run =
      gpufilter_reading({"blur", "-", path("o.png"), "--device", "cpu", "--max-pixels", "1000"}, endless);
  EXPECT_EQ(run.exit_code, kInput) << run.err;
  EXPECT_TRUE(contains(error_line(run), "standard input holds more than 64.0 MiB") &&
              contains(error_line(run), "--max-pixels"))
      << run.err;
  EXPECT_LT(endless.written(), kStream);
  EXPECT_FALSE(fs::exists(path("o.png")));
}

TEST_F(CliInputTest, ANamedPipeIsReadOnce) {
  // `mkfifo ff; cat a.png > ff & gpufilter copy ff o.png` waited forever for a second
  // writer: the tool opened IN once per look (header, metadata, pixels).
  const cv::Mat image = random_image(21, 17, CV_8UC3, 301);
  const std::string png = encoded(".png", image);
  const std::string fifo = path("ff");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The writer waits for a reader as `cat a.png > ff` does, but gives up once the test
  // is over, so that a tool that never opens the pipe cannot hang the test.
  std::atomic<bool> over{false};
  std::thread writer([&] {
    int fd = -1;
    while (fd < 0 && !over) {
      fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // ENXIO while no reader has it open
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, 0);  // blocking writes from here on
    [[maybe_unused]] const ssize_t wrote = ::write(fd, png.data(), png.size());
    ::close(fd);
  });
  ChildProcess child(GPUFILTER_CLI_PATH, {"copy", fifo, path("o.png"), "--device", "cpu"}, capture_.path());
  // A hang is the failure; any machine finishes this in far less.
  const bool ended = wait_until([&] { return !child.running(); }, std::chrono::seconds(60));
  if (!ended) child.send(SIGKILL);
  over = true;
  writer.join();
  ASSERT_TRUE(ended) << "gpufilter copy from a named pipe did not end";
  const ProcessResult run = child.wait();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("o.png")), image), 0.0);
}

TEST_F(CliInputTest, ABatchRefusesAPipeBeforeReadingAnything) {
  // A batch looks at its files more than once: a named pipe among them is refused up
  // front, naming it, instead of waiting for a second writer.
  const std::string in = write_input("in.png", encoded(".png", random_image(21, 17, CV_8UC3, 306)));
  const std::string fifo = path("ff.png");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ChildProcess child(GPUFILTER_CLI_PATH, {"copy", in, fifo, "--out-dir", path("out"), "--device", "cpu"},
                     capture_.path());
  const bool ended = wait_until([&] { return !child.running(); }, std::chrono::seconds(60));
  if (!ended) child.send(SIGKILL);
  ASSERT_TRUE(ended) << "a batch with a named pipe among its inputs did not end";
  const ProcessResult run = child.wait();
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_TRUE(contains(error_line(run), "ff.png") && contains(error_line(run), "pipe")) << run.err;
  EXPECT_FALSE(fs::exists(path("out/in.png")));
}

// A pipe on descriptor `fd` of the child holding `bytes` (at most a pipe's capacity),
// as a shell's `<(...)` gives /dev/fd/N.
std::function<void()> pipe_on_fd(int fd, std::string bytes) {
  return [fd, bytes = std::move(bytes)] {
    int ends[2];
    if (::pipe(ends) != 0) ::_exit(126);
    if (::write(ends[1], bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) ::_exit(126);
    ::close(ends[1]);
    if (ends[0] != fd) {
      ::dup2(ends[0], fd);
      ::close(ends[0]);
    }
  };
}

TEST_F(CliInputTest, AProcessSubstitutionIsReadOnce) {
  const cv::Mat image = random_image(21, 17, CV_8UC3, 302);
  ProcessOptions in_pipe;
  in_pipe.before_exec = pipe_on_fd(5, encoded(".png", image));
  const ProcessResult copy = gpufilter({"copy", "/dev/fd/5", path("o.png"), "--device", "cpu"}, in_pipe);
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  EXPECT_EQ(max_difference(read_unchanged(path("o.png")), image), 0.0);

  // `--kernel-file <(echo ...)`: the mask was read when the command was checked and
  // found empty when it ran.
  const std::string in = write_input("in.png", encoded(".png", image));
  const std::string mask = "0 -1 0\n-1 5 -1\n0 -1 0\n";
  ProcessOptions mask_pipe;
  mask_pipe.before_exec = pipe_on_fd(5, mask);
  const ProcessResult piped =
      gpufilter({"convolve", in, path("piped.png"), "--kernel-file", "/dev/fd/5", "--device", "cpu"}, mask_pipe);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  const ProcessResult given =
      gpufilter({"convolve", in, path("given.png"), "--kernel", "0 -1 0; -1 5 -1; 0 -1 0", "--device", "cpu"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(read_bytes(path("piped.png")), read_bytes(path("given.png")));
}

// ---- closed and full standard streams ------------------------------------------------

TEST_F(CliInputTest, AClosedStandardOutputFails) {
  // `blur a.png - --format png >&-`: the image went into a file the tool opened, which
  // took descriptor 1, and the run succeeded.
  const std::string in = write_input("in.png", encoded(".png", random_image(21, 17, CV_8UC3, 303)));
  ProcessOptions closed;
  closed.before_exec = [] { ::close(STDOUT_FILENO); };
  const ProcessResult image = gpufilter({"blur", in, "-", "--format", "png", "--device", "cpu"}, closed);
  EXPECT_EQ(image.exit_code, kOutput) << image.err;
  EXPECT_TRUE(contains(error_line(image), "standard output is closed")) << image.err;
  const ProcessResult table = gpufilter({"stats", in, "--json", "--device", "cpu"}, closed);
  EXPECT_EQ(table.exit_code, kOutput) << table.err;
  EXPECT_TRUE(contains(error_line(table), "standard output is closed")) << table.err;
}

TEST_F(CliInputTest, AFullStandardOutputFails) {
  // `stats --json > /dev/full` lost the table and exited 0.
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full here";
  const std::string in = write_input("in.png", encoded(".png", random_image(21, 17, CV_8UC3, 304)));
  ProcessOptions full;
  full.before_exec = [] {
    const int fd = ::open("/dev/full", O_WRONLY);
    if (fd >= 0) ::dup2(fd, STDOUT_FILENO);
  };
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"stats", in, "--json", "--device", "cpu"},
        std::vector<std::string>{"histogram", in, "--csv", "--device", "cpu"},
        std::vector<std::string>{"blur", in, "-", "--format", "png", "--device", "cpu"}}) {
    const ProcessResult run = gpufilter(args, full);
    EXPECT_EQ(run.exit_code, kOutput) << args[0] << ": " << run.err;
    EXPECT_TRUE(contains(error_line(run), "No space left on device")) << run.err;
  }
}

// ---- PNG chunks ----------------------------------------------------------------------

TEST_F(CliInputTest, AChunkLongerThanTheFileIsRefusedBeforeItIsAllocated) {
  // A small file whose tEXt chunk claims 0x7FFFFFF0 bytes: libpng allocated and touched
  // that much before its read failed at the end of the file, with or without --strip.
  const std::string lying = big_endian_32(0x7FFFFFF0) + "tEXt" + std::string("Comment\0", 8) + std::string(3000, 'x');
  const std::string file = palette_png(palette_indices(6, 8), lying);
  const std::string in = write_input("big_text.png", file);
  for (const bool strip : {true, false}) {
    std::vector<std::string> args{"copy", in, path("o.png"), "--device", "cpu"};
    if (strip) args.push_back("--strip");
    const ProcessResult run = gpufilter(args);
    EXPECT_EQ(run.exit_code, kInput) << run.err;
    EXPECT_TRUE(contains(error_line(run), "big_text.png") && contains(error_line(run), "tEXt") &&
                contains(error_line(run), "2147483632 bytes"))
        << run.err;
    // Far below the chunk's 2 GB, whatever the tool's own libraries take.
    EXPECT_LT(run.max_rss_kib, 512 * 1024) << (strip ? "--strip" : "");
    EXPECT_FALSE(fs::exists(path("o.png")));
  }
}

TEST_F(CliInputTest, FaultyAncillaryChunksAreNotesNotDamage) {
  // PngSuite-style: empty ancillary chunks, sPLT among them ("malformed sPLT chunk", a
  // message that does not name its chunk), in a palette PNG libpng decodes.
  const std::string empty_chunks = png_chunk("sPLT", "") + png_chunk("zTXt", "") + png_chunk("iTXt", "") +
                                   png_chunk("pHYs", "") + png_chunk("tIME", "");
  cv::Mat expected;
  const std::string in = write_input("empty_chunks.png", palette_png(palette_indices(6, 8), empty_chunks, &expected));
  const ProcessResult run = gpufilter({"copy", in, path("o.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("o.png")), expected), 0.0);
  EXPECT_TRUE(contains(run.err, "gpufilter: note: ") && contains(run.err, "sPLT")) << run.err;
  EXPECT_EQ(error_line(run), "");

  // A fault in a critical chunk still fails the file: IDAT's CRC.
  std::string damaged = palette_png(palette_indices(6, 8), "");
  damaged[damaged.size() - 12 - 1] ^= 0x01;  // the last byte of IDAT's CRC (IEND's chunk is 12 bytes)
  const std::string bad = write_input("bad_crc.png", damaged);
  const ProcessResult failed = gpufilter({"copy", bad, path("bad.png"), "--device", "cpu"});
  EXPECT_EQ(failed.exit_code, kInput) << failed.err;
  EXPECT_TRUE(contains(error_line(failed), "bad_crc.png") && contains(error_line(failed), "IDAT")) << failed.err;
  EXPECT_FALSE(fs::exists(path("bad.png")));
}

// ---- JPEG ----------------------------------------------------------------------------

TEST_F(CliInputTest, AJpegMissingOnlyItsEndMarkerDecodesWithANote) {
  const cv::Mat image = random_image(48, 64, CV_8UC3, 305);
  const std::string whole = encoded(".jpg", image);
  ASSERT_EQ(whole.substr(whole.size() - 2), "\xff\xd9");
  const std::string in = write_input("no_eoi.jpg", whole.substr(0, whole.size() - 2));
  const ProcessResult run = gpufilter({"copy", in, path("o.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(max_difference(read_unchanged(path("o.png")), decoded(whole)), 0.0);
  EXPECT_TRUE(contains(run.err, "gpufilter: note: ") && contains(run.err, "end-of-image marker")) << run.err;

  // Cut inside its scan, the marker put back or not, it is damage.
  const std::string cut = whole.substr(0, whole.size() / 2);
  for (const std::string& bytes : {cut, cut + "\xff\xd9"}) {
    const std::string damaged = write_input("cut.jpg", bytes);
    const ProcessResult failed = gpufilter({"copy", damaged, path("cut.png"), "--device", "cpu"});
    EXPECT_EQ(failed.exit_code, kInput) << failed.err;
    EXPECT_FALSE(fs::exists(path("cut.png")));
  }
}

}  // namespace
}  // namespace gpufilter::cli_test::input
