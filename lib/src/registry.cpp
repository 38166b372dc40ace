#include "gpufilter/registry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpufilter/error.hpp"
#include "ops/operations.hpp"

namespace gpufilter {
namespace {

std::string format_number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

const std::vector<Operation>& operations() {
  static const std::vector<Operation> all = {
      ops::make_copy_operation(),
      ops::make_gaussian_operation(),
  };
  return all;
}

const Operation* find_operation(const std::string& name) {
  for (const Operation& op : operations())
    if (op.name == name) return &op;
  return nullptr;
}

bool Operation::supports(PixelFormat format) const {
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

bool Operation::has_variant(const std::string& variant) const {
  return std::find(variants.begin(), variants.end(), variant) != variants.end();
}

ParamValues Operation::resolve(const ParamValues& given) const {
  for (const auto& [key, value] : given) {
    const bool known = std::any_of(params.begin(), params.end(), [&](const ParamSpec& p) { return p.name == key; });
    if (!known) throw Error(ErrorCode::InvalidArgument, name + ": unknown parameter '" + key + "'");
  }
  ParamValues resolved;
  for (const ParamSpec& spec : params) {
    const auto it = given.find(spec.name);
    if (it == given.end()) {
      if (spec.default_value) resolved[spec.name] = *spec.default_value;
      continue;
    }
    const double value = it->second;
    if (!std::isfinite(value) || value < spec.min || value > spec.max) {
      std::ostringstream message;
      message << name << ": " << spec.name << " must be in [" << spec.min << ", " << spec.max << "], got " << value;
      throw Error(ErrorCode::InvalidArgument, message.str());
    }
    if (spec.integer && value != std::floor(value))
      throw Error(ErrorCode::InvalidArgument,
                  name + ": " + spec.name + " must be a whole number, got " + format_number(value));
    resolved[spec.name] = value;
  }
  return resolved;
}

}  // namespace gpufilter
