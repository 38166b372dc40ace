// gpufilter_registry_json(): the registry as data, so that a binding generates its
// functions, their parameters, checks and help from the same table as the CLI.
#include <string>
#include <variant>

#include "c_status.hpp"
#include "gpufilter/border.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/version.hpp"
#include "json_writer.hpp"

namespace gpufilter::capi {
namespace {

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::Number: return "number";
    case ParamKind::Choice: return "choice";
    case ParamKind::Text: return "text";
    case ParamKind::Numbers: return "numbers";
    case ParamKind::Flag: return "flag";
  }
  return "unknown";
}

void write_value(JsonWriter& json, const ParamValue& value) {
  if (const auto* number = std::get_if<double>(&value)) {
    json.value(*number);
  } else if (const auto* text = std::get_if<std::string>(&value)) {
    json.value(*text);
  } else {
    json.numbers(std::get<std::vector<double>>(value));
  }
}

void write_param(JsonWriter& json, const ParamSpec& spec) {
  json.begin_object();
  json.key("name").value(spec.name);
  json.key("kind").value(kind_name(spec.kind));
  json.key("help").value(spec.help);
  json.key("description").value(spec.describe());
  json.key("accepted").value(spec.accepted());
  json.key("integer").value(spec.integer);
  json.key("min").value(spec.min);
  json.key("max").value(spec.max);
  json.key("choices").strings(spec.choices);
  json.key("min_items").value(spec.min_items);
  json.key("max_items").value(spec.max_items);
  json.key("default");
  if (spec.default_value) {
    write_value(json, *spec.default_value);
  } else {
    json.null();
  }
  json.key("default_text").value(spec.default_text);
  json.key("metavar").value(spec.metavar);
  json.end_object();
}

// What the conformance tests and the bench run, and how far the default kernel may stray from the CPU
// reference with it: a binding's tests check the same contract.
void write_values(JsonWriter& json, const char* key, const ParamValues& values) {
  json.key(key).begin_object();
  for (const auto& [name, value] : values) {
    json.key(name);
    write_value(json, value);
  }
  json.end_object();
}

void write_test_contract(JsonWriter& json, const Operation& op) {
  write_values(json, "test_params", op.test_params);
  write_values(json, "bench_params", op.bench_params);
  if (!op.produces_image() || !op.tolerance) return;
  json.key("tolerance").begin_object();
  for (const PixelFormat& format : op.formats) {
    const Tolerance tolerance = op.tolerance_for(format, op.default_variant, op.test_params);
    json.key(format.name()).begin_object();
    json.key("max_abs").value(tolerance.max_abs);
    json.key("max_differing_share").value(tolerance.max_differing_share);
    if (tolerance.colours_by_alpha) {  // Tolerance::colours_by_alpha, with its threshold as a share of the range
      json.key("colours_by_alpha").value(true);
      json.key("least_compared_alpha").value(Tolerance::kLeastComparedAlpha);
    }
    json.end_object();
  }
  json.end_object();
}

void write_operation(JsonWriter& json, const Operation& op) {
  json.begin_object();
  json.key("name").value(op.name);
  json.key("summary").value(op.summary);
  json.key("output").value(op.produces_image() ? "image" : "data");
  json.key("keeps_shape").value(op.produces_image() && !op.output_shape);
  json.key("uses_border").value(op.uses_border);
  json.key("variants").strings(op.variants);
  json.key("default_variant").value(op.default_variant);
  json.key("formats").begin_array();
  for (const PixelFormat& format : op.formats) json.value(format.name());
  json.end_array();
  json.key("params").begin_array();
  for (const ParamSpec& spec : op.params) write_param(json, spec);
  json.end_array();
  write_test_contract(json, op);
  json.end_object();
}

std::string registry_json() {
  JsonWriter json;
  json.begin_object();
  json.key("version").value(kVersion);
  json.key("abi").value(GPUFILTER_C_ABI_VERSION);
  json.key("formats").begin_array();
  for (const PixelFormat& format : all_pixel_formats()) json.value(format.name());
  json.end_array();
  json.key("borders").begin_array();
  for (const BorderMode mode : all_border_modes()) json.value(to_string(mode));
  json.end_array();
  json.key("default_border").value(to_string(Border{}.mode));
  json.key("ops").begin_array();
  for (const Operation& op : operations()) write_operation(json, op);
  json.end_array();
  json.end_object();
  return json.text();
}

}  // namespace
}  // namespace gpufilter::capi

extern "C" const char* gpufilter_registry_json(void) {
  // Built once; the registry does not change while the process runs.
  static const std::string text = [] {
    std::string built;
    if (gpufilter::capi::guarded([&] { built = gpufilter::capi::registry_json(); }) != GPUFILTER_OK) {
      built = "{}";
    }
    return built;
  }();
  return text.c_str();
}
