#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <sstream>
#include <stdexcept>

namespace bench {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ','))
    if (!item.empty()) items.push_back(item);
  if (items.empty()) throw std::invalid_argument("empty list '" + text + "'");
  return items;
}

int parse_count(const std::string& flag, const std::string& text, int min) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < min)
    throw std::invalid_argument(flag + " wants a whole number >= " + std::to_string(min) + ", got '" + text + "'");
  return value;
}

ImageSize parse_size(const std::string& text) {
  if (text == "1080p") return {"1080p", 1920, 1080};
  if (text == "4K") return {"4K", 3840, 2160};
  if (text == "8K") return {"8K", 7680, 4320};
  const auto x = text.find('x');
  if (x != std::string::npos) {
    const int width = parse_count("--sizes", text.substr(0, x), 1);
    const int height = parse_count("--sizes", text.substr(x + 1), 1);
    return {text, width, height};
  }
  throw std::invalid_argument("--sizes wants 1080p, 4K, 8K or WxH, got '" + text + "'");
}

std::vector<gpufilter::BorderMode> parse_borders(const std::string& text) {
  if (text == "all") return gpufilter::all_border_modes();
  std::vector<gpufilter::BorderMode> modes;
  for (const auto& name : split_list(text)) {
    try {
      modes.push_back(gpufilter::parse_border_mode(name));
    } catch (const std::exception&) {
      throw std::invalid_argument("--border wants constant, replicate, reflect, reflect101, wrap or all, got '" +
                                  name + "'");
    }
  }
  return modes;
}

}  // namespace

bool BenchOptions::wants_op(const std::string& name) const {
  return ops.empty() || std::find(ops.begin(), ops.end(), name) != ops.end();
}

BenchOptions parse_bench_options(int& argc, char** argv) {
  BenchOptions options;
  int explicit_warmup = -1;
  int explicit_iterations = -1;
  bool explicit_sizes = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    // Returns the value of "--name=value" or "--name value"; nullptr when arg is not --name.
    auto value_of = [&](const char* name, std::string& value) {
      const std::string flag = std::string("--") + name;
      if (arg.rfind(flag + "=", 0) == 0) {
        value = arg.substr(flag.size() + 1);
        return true;
      }
      if (arg == flag) {
        if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
        value = argv[++i];
        return true;
      }
      return false;
    };
    std::string value;
    if (arg == "--quick") {
      options.quick = true;
    } else if (value_of("ops", value)) {
      options.ops = split_list(value);
    } else if (value_of("border", value)) {
      options.borders = parse_borders(value);
    } else if (value_of("sizes", value)) {
      options.sizes.clear();
      for (const auto& item : split_list(value)) options.sizes.push_back(parse_size(item));
      explicit_sizes = true;
    } else if (value_of("data", value)) {
      options.data = split_list(value);
      for (const auto& item : options.data)
        if (item != "random" && item != "constant" && item != "gradient")
          throw std::invalid_argument("--data wants random, constant or gradient, got '" + item + "'");
      if (options.data.empty()) throw std::invalid_argument("--data needs at least one pattern");
    } else if (value_of("iterations", value)) {
      explicit_iterations = parse_count("--iterations", value, 1);
    } else if (value_of("warmup", value)) {
      explicit_warmup = parse_count("--warmup", value, 0);
    } else if (value_of("param", value)) {
      const auto equals = value.find('=');
      if (equals == std::string::npos || equals == 0)
        throw std::invalid_argument("--param wants NAME=VALUE, got '" + value + "'");
      options.params.emplace_back(value.substr(0, equals), value.substr(equals + 1));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;

  if (options.quick) {
    // A smoke run: the largest size only, fewer launches.
    if (!explicit_sizes) options.sizes = {{"8K", 7680, 4320}};
    options.warmup = 2;
    options.iterations = 10;
  }
  if (explicit_warmup >= 0) options.warmup = explicit_warmup;
  if (explicit_iterations >= 0) options.iterations = explicit_iterations;
  return options;
}

void print_bench_help() {
  std::printf(
      "gpufilter-bench: times every registered op x variant (the library's, then the lab's)\n"
      "x pixel format x size against its naive variant, its peers (NPP, cudaMemcpy2D) and\n"
      "the copy roofline.\n"
      "\n"
      "gpufilter-bench flags:\n"
      "  --quick                 8K only, 2 warm-up and 10 timed launches per case\n"
      "  --ops=blur,copy         only these ops (default: all registered ops)\n"
      "  --border=reflect101     border mode(s) for ops that use one, comma-separated, or 'all'\n"
      "  --sizes=4K,8K           image sizes: 1080p, 4K, 8K or WxH (default: 4K,8K)\n"
      "  --data=random           source images: random, constant (one value), gradient (a\n"
      "                          smooth ramp); rows of other than random are named .../DATA\n"
      "  --iterations=30         timed launches per case (the median is reported)\n"
      "  --warmup=5              untimed launches before timing\n"
      "  --param radius=16       replace an op's bench parameter (repeatable; ops without it\n"
      "                          keep theirs), e.g. for a cost-against-radius sweep\n"
      "\n"
      "JSON with every counter (median_us, GB/s, roofline, vs_naive, vs_<peer>, max_err):\n"
      "  --benchmark_out=FILE --benchmark_out_format=json\n"
      "\n"
      "Google Benchmark flags:\n");
}

}  // namespace bench
