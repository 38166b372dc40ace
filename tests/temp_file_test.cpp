// The atomic writer's file mode, on the CPU.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "gpufilter/io/temp_file.hpp"

namespace gpufilter::io::temp_file_test {
namespace {

// Batch workers commit side by side: each asks what a new file gets while the others
// do the same. Reading the umask by setting it to 0 and back (as the writer once did)
// let one thread see another's 0 and give its output 0666; reading it must not change it.
TEST(TemporaryFileMode, NewFileModeIsStableAcrossThreads) {
  const mode_t saved = ::umask(027);
  std::atomic<bool> stop{false};
  std::atomic<long> wrong{0};
  const auto ask = [&] {
    while (!stop.load())
      if (default_new_file_mode() != 0640) wrong.fetch_add(1);
  };
  std::thread first(ask);
  std::thread second(ask);
  for (int i = 0; i < 20000; ++i)
    if (default_new_file_mode() != 0640) wrong.fetch_add(1);
  stop = true;
  first.join();
  second.join();
  ::umask(saved);
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace gpufilter::io::temp_file_test
