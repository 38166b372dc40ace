// The --kernel text of convolve ("0 -1 0; -1 5 -1; 0 -1 0") as a Mask, apart from the
// filter specs so that it builds and is fuzzed without the GPU code.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/filters.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {

Mask parse_mask(const std::string& text) {
  std::vector<std::vector<float>> rows(1);
  std::string number;
  const auto end_number = [&] {
    if (number.empty()) return;
    float value = 0.0f;
    std::istringstream in(number);
    if (!(in >> value) || !(in >> std::ws).eof() || !std::isfinite(value))
      throw_invalid("convolve: '" + number + "' in the mask is not a number");
    rows.back().push_back(value);
    number.clear();
  };
  bool comment = false;
  for (char ch : text) {
    if (comment) {
      if (ch == '\n') comment = false; else continue;
    }
    if (ch == '#') { end_number(); comment = true; continue; }
    if (ch == ';' || ch == '\n') {
      end_number();
      if (!rows.back().empty()) rows.emplace_back();
    } else if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\r') {
      end_number();
    } else {
      number += ch;
    }
  }
  end_number();
  if (rows.back().empty()) rows.pop_back();
  if (rows.empty()) throw_invalid("convolve: the mask is empty");
  Mask mask;
  mask.height = static_cast<int>(rows.size());
  mask.width = static_cast<int>(rows.front().size());
  for (std::size_t j = 0; j < rows.size(); ++j) {
    if (static_cast<int>(rows[j].size()) != mask.width)
      throw_invalid("convolve: mask row " + std::to_string(j + 1) + " has " + std::to_string(rows[j].size()) +
                    " numbers, row 1 has " + std::to_string(mask.width));
    mask.weights.insert(mask.weights.end(), rows[j].begin(), rows[j].end());
  }
  if (mask.width % 2 == 0 || mask.height % 2 == 0)
    throw_invalid("convolve: the mask must have an odd number of rows and columns (it is centred on the pixel), got " +
                  std::to_string(mask.width) + "x" + std::to_string(mask.height));
  if (mask.width > ConvolveParams::kMaxSize || mask.height > ConvolveParams::kMaxSize)
    throw_invalid("convolve: masks are limited to " + std::to_string(ConvolveParams::kMaxSize) + "x" +
                  std::to_string(ConvolveParams::kMaxSize) + ", got " + std::to_string(mask.width) + "x" +
                  std::to_string(mask.height));
  return mask;
}

}  // namespace gpufilter
