#pragma once
// The bench's own command-line flags. They are taken out of argv before Google
// Benchmark parses the rest, so both sets can be mixed on one command line.
#include <string>
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

  bool wants_op(const std::string& name) const;
};

// Consumes --quick, --ops, --border, --sizes, --iterations and --warmup from argv
// (both "--flag=value" and "--flag value"), leaving every other argument in place.
// Throws std::invalid_argument with a readable message on a bad value.
BenchOptions parse_bench_options(int& argc, char** argv);

// Printed by --help before Google Benchmark's own flags.
void print_bench_help();

}  // namespace bench
