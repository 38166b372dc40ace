#include "background_option.hpp"

#include <charconv>
#include <vector>

#include "comma_list.hpp"
#include "exit_codes.hpp"

namespace gpufilter::cli {
namespace {

[[noreturn]] void bad_background(const std::string& text) {
  throw CliError(ExitCode::Usage, "--background takes white, black, gray, #RRGGBB or R,G,B (0..255), got '" + text +
                                      "'");
}

int component(const std::string& text, const std::string& whole, int base) {
  int value = -1;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || status != std::errc() || end != text.data() + text.size() || value < 0 || value > 255)
    bad_background(whole);
  return value;
}

}  // namespace

io::Background parse_background(const std::string& text) {
  io::Background background;
  background.name = text;
  if (text == "white") return background;
  if (text == "black") {
    background.rgb = {0.0, 0.0, 0.0};
    return background;
  }
  if (text == "gray" || text == "grey") {
    background.rgb = {0.5, 0.5, 0.5};
    return background;
  }
  std::vector<std::string> parts;
  if (text.size() == 7 && text[0] == '#') {
    parts = {text.substr(1, 2), text.substr(3, 2), text.substr(5, 2)};
    for (std::size_t c = 0; c < 3; ++c) background.rgb[c] = component(parts[c], text, 16) / 255.0;
    return background;
  }
  parts = comma_separated(text);
  if (parts.size() != 3) bad_background(text);
  for (std::size_t c = 0; c < 3; ++c) background.rgb[c] = component(parts[c], text, 10) / 255.0;
  return background;
}

}  // namespace gpufilter::cli
