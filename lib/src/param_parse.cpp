// Reading a parameter's value from its command-line text (--sigma 1.5, --size 800x600),
// apart from the operation table so that it builds and is fuzzed without the ops.
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "gpufilter/error.hpp"
#include "gpufilter/registry.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {
namespace {

bool parse_double(const std::string& text, double& value) {
  const char* const end = text.data() + text.size();
  const auto [stop, status] = std::from_chars(text.data(), end, value);
  return !text.empty() && status == std::errc() && stop == end && std::isfinite(value);
}

}  // namespace

ParamValue ParamSpec::parse(const std::string& text) const {
  switch (kind) {
    case ParamKind::Number:
    case ParamKind::Flag: {
      double value = 0.0;
      if (!parse_double(text, value)) throw_invalid("--" + name + " expects a number, got '" + text + "'");
      return value;
    }
    case ParamKind::Choice:
    case ParamKind::Text: return text;
    case ParamKind::Numbers: {
      if (!percent_sets.empty() && !text.empty() && text.back() == '%') {
        double value = 0.0;
        if (!parse_double(text.substr(0, text.size() - 1), value))
          throw_invalid("--" + name + " expects " + metavar + " or a percentage such as 50%, got '" + text + "'");
        return text;  // resolve() sets `percent_sets` from it
      }
      std::vector<double> items;
      std::string::size_type start = 0;
      while (true) {
        const auto stop = text.find_first_of("x,", start);
        double value = 0.0;
        if (!parse_double(text.substr(start, stop - start), value))
          throw_invalid("--" + name + " expects " + metavar + ", got '" + text + "'");
        items.push_back(value);
        if (stop == std::string::npos) break;
        start = stop + 1;
      }
      return items;
    }
  }
  throw_invalid("--" + name + ": unknown parameter kind");
}

}  // namespace gpufilter
