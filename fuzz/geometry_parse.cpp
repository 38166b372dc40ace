// The geometry texts: crop's --geometry WxH+X+Y (parse_geometry, then crop against an
// image) and list parameters such as resize's --size WxH or P% (ParamSpec::parse). The first
// input byte picks which; the rest is the text.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/registry.hpp"

namespace {

void geometry(const std::string& text) {
  gpufilter::Rect rect;
  try {
    rect = gpufilter::parse_geometry(text);
  } catch (const gpufilter::Error& error) {
    if (error.code() != gpufilter::ErrorCode::InvalidArgument) std::abort();
    return;
  }
  if (rect.width <= 0 || rect.height <= 0 || rect.width > 999999999 || rect.height > 999999999 ||
      std::abs(static_cast<long long>(rect.x)) > 999999999 || std::abs(static_cast<long long>(rect.y)) > 999999999)
    std::abort();
  // Against a 1000x1000 gray image (no pixels are touched): a view inside it, or an error.
  const gpufilter::ImageView image{reinterpret_cast<void*>(std::uintptr_t{4096}), 1000, 1000, 1000,
                                   gpufilter::PixelFormat{gpufilter::ChannelType::U8, 1}};
  try {
    const gpufilter::ImageView view = gpufilter::crop(image, rect);
    if (view.width != rect.width || view.height != rect.height || rect.x < 0 || rect.y < 0 ||
        rect.x + rect.width > 1000 || rect.y + rect.height > 1000)
      std::abort();
  } catch (const gpufilter::Error& error) {
    if (error.code() != gpufilter::ErrorCode::InvalidArgument) std::abort();
  }
}

// resize's --size as the registry declares it; `percent_sets` names the parameter a
// percentage sets ("" for a plain list).
gpufilter::ParamSpec size_param(const char* percent_sets) {
  gpufilter::ParamSpec size;
  size.name = "size";
  size.kind = gpufilter::ParamKind::Numbers;
  size.metavar = "WxH";
  size.percent_sets = percent_sets;
  return size;
}

// spec.parse(text); nothing where it refuses the text, which must be InvalidArgument.
std::optional<gpufilter::ParamValue> parse_or_refuse(const gpufilter::ParamSpec& spec, const std::string& text) {
  try {
    return spec.parse(text);
  } catch (const gpufilter::Error& error) {
    if (error.code() != gpufilter::ErrorCode::InvalidArgument) std::abort();
    return std::nullopt;
  }
}

void numbers(const std::string& text) {
  const std::optional<gpufilter::ParamValue> value = parse_or_refuse(size_param(""), text);
  if (!value) return;
  const auto* items = std::get_if<std::vector<double>>(&*value);
  if (items == nullptr) std::abort();
  std::size_t separators = 0;
  for (char c : text) separators += (c == 'x' || c == ',') ? 1 : 0;
  if (items->size() != separators + 1) std::abort();
  for (double item : *items)
    if (!std::isfinite(item)) std::abort();
}

// A list that takes a percentage for another parameter (resize's --size 50%): the text
// ending in '%' comes back as it is, for resolve() to map; anything else as a list.
void numbers_or_percent(const std::string& text) {
  const std::optional<gpufilter::ParamValue> value = parse_or_refuse(size_param("scale"), text);
  if (!value) return;
  const bool percent = !text.empty() && text.back() == '%';
  const auto* given = std::get_if<std::string>(&*value);
  if (percent != (given != nullptr) || (given != nullptr && *given != text)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    if (data[0] & 2) {
      numbers_or_percent(text);
    } else {
      numbers(text);
    }
  } else {
    geometry(text);
  }
  return 0;
}
