#pragma once
// The bench's own command-line flags. They are taken out of argv before Google
// Benchmark parses the rest, so both sets can be mixed on one command line.
#include <string>
#include <utility>
#include <vector>

#include "gpufilter/border.hpp"

namespace bench {

struct ImageSize {
  std::string label;  // "8K", or "1921x1079" for a size given as WxH
  int width = 0;
  int height = 0;
};

struct BenchOptions {
  bool quick = false;
  int warmup = 5;        // untimed launches before the timed ones
  int iterations = 30;   // timed launches; the reported figure is their median
  std::vector<std::string> ops;  // empty: every registered op
  std::vector<gpufilter::BorderMode> borders{gpufilter::BorderMode::Reflect101};
  std::vector<ImageSize> sizes{{"4K", 3840, 2160}, {"8K", 7680, 4320}};
  // --param NAME=VALUE: replaces an op's bench parameter (for every selected op that has
  // it), as the CLI would read the value, e.g. --param radius=16 --param sigma=5.3.
  std::vector<std::pair<std::string, std::string>> params;
  // --data=random,constant,gradient: what the source images hold. "random" (uniform over
  // the format's range) is the default; the low-entropy patterns show ops whose speed
  // depends on the data (histogram atomics piling onto one bin, min/max updates).
  std::vector<std::string> data{"random"};

  bool wants_op(const std::string& name) const;
};

// Consumes --quick, --ops, --border, --sizes, --data, --iterations, --warmup and --param from argv
// (both "--flag=value" and "--flag value"), leaving every other argument in place.
// Throws std::invalid_argument with a readable message on a bad value.
BenchOptions parse_bench_options(int& argc, char** argv);

// Printed by --help before Google Benchmark's own flags.
void print_bench_help();

}  // namespace bench
