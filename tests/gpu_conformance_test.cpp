// Every registered op x variant x format x border x size x (whole image | sub-view),
// run on the GPU and compared with the CPU reference. The output is poisoned with
// values that differ from the expected ones everywhere, so an unwritten pixel
// fails, and the memory around a sub-view must come back untouched.
// A case is made only where the variant runs its own kernel for the format and its
// test parameters (Operation::applied_variant_for): a variant that would fall back to a
// simpler kernel is tested under that kernel's name, not its own. Every variant must be
// reached by some case (EveryVariantIsExercised).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_check.hpp"

namespace gpufilter::gpu_conformance_test {
namespace {

using Size = testing::CaseSize;

struct Case {
  const Operation* op;
  std::string variant;
  PixelFormat format;
  BorderMode border;
  Size size;
  bool subview;
};

const ParamValues& params_of(const Case& c) { return c.op->test_params_for(c.variant); }

// The parameters as text, so that cases sharing them share a reference.
std::string params_key(const ParamValues& values) {
  std::string key;
  for (const auto& [name, value] : values) {
    key += name + "=";
    if (const double* number = std::get_if<double>(&value)) key += std::to_string(*number);
    if (const std::string* text = std::get_if<std::string>(&value)) key += *text;
    if (const auto* numbers = std::get_if<std::vector<double>>(&value))
      for (double item : *numbers) key += std::to_string(item) + ",";
    key += ";";
  }
  return key;
}

std::string case_name(const Case& c) {
  std::string name = c.op->name + "_" + c.variant + "_" + c.format.name();
  if (c.op->uses_border) name += std::string("_") + to_string(c.border);
  name += "_" + std::to_string(c.size.width) + "x" + std::to_string(c.size.height) + (c.subview ? "_sub" : "_whole");
  return name;
}

// The output an op gives for this case's input; nullopt where its test parameters do not
// fit the input (a crop rectangle larger than a 1x1 image): such cases are left out.
std::optional<ImageShape> output_shape(const Operation& op, const std::string& variant, PixelFormat format,
                                       Size size) {
  try {
    return op.output_shape_for(ImageShape{size.width, size.height, format}, op.resolve(op.test_params_for(variant)));
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Whether `variant` runs its own kernel on `format` with its test parameters. Without a
// usable GPU the device limits that decide it are unknown: every case is listed (and the
// binary reports them skipped).
bool runs_itself(const Operation& op, const std::string& variant, PixelFormat format) {
  if (variant == "auto" || !has_device()) return true;
  return op.applied_variant_for(format, op.resolve(op.test_params_for(variant)), variant) == variant;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const Operation& op : operations())
    for (const PixelFormat& format : op.formats)
      for (const std::string& variant : op.variants) {
        if (!runs_itself(op, variant, format)) continue;
        const std::vector<Size> sizes = testing::conformance_sizes(
            [&](Size size) { return !op.produces_image() || output_shape(op, variant, format, size).has_value(); });
        for (BorderMode border : all_border_modes()) {
          if (!op.uses_border && border != BorderMode::Reflect101) continue;  // one pass for ops without borders
          for (const Size& size : sizes)
            for (bool subview : {false, true}) cases.push_back({&op, variant, format, border, size, subview});
        }
      }
  return cases;
}

using testing::kMarginX;
using testing::kMarginY;

// The reference for the last (op, format, border, size, subview) seen: cases differ
// only in variant run back to back, and the 1921x1079 references are the slow part.
struct ReferenceCache {
  std::string key;
  std::unique_ptr<HostImage> expected;
};
ReferenceCache cache_;
std::unique_ptr<HostImage> cache_parent_src;

class GpuConformance : public ::testing::TestWithParam<Case> {
 protected:
  // Pinned memory goes back before the CUDA runtime does (and the leak check runs).
  static void TearDownTestSuite() {
    cache_ = ReferenceCache{};
    cache_parent_src.reset();
  }
};

// The source: random values in a parent image, the case's input a sub-view of it when
// the case asks for one. Cached with the reference for the variants that follow.
const HostImage& source_for(const Case& c) {
  const int parent_w = c.size.width + (c.subview ? kMarginX : 0);
  const int parent_h = c.size.height + (c.subview ? kMarginY : 0);
  if (!cache_parent_src || cache_parent_src->view().width != parent_w || cache_parent_src->view().height != parent_h ||
      cache_parent_src->view().format != c.format) {
    cache_parent_src = std::make_unique<HostImage>(parent_w, parent_h, c.format);
    testing::fill_random(cache_parent_src->view(), 1234u + static_cast<std::uint32_t>(parent_w * 7 + parent_h));
  }
  return *cache_parent_src;
}

ImageView case_input(const ImageView& parent, const Case& c) { return testing::case_input(parent, c.size, c.subview); }

void check_image_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(params_of(c));
  const Border border = testing::conformance_border(c.border, c.format);
  const ImageShape out = op.output_shape_for(ImageShape{c.size.width, c.size.height, c.format}, params);

  const HostImage& parent_src = source_for(c);
  const std::string key = case_name({c.op, "", c.format, c.border, c.size, c.subview}) + params_key(params_of(c));
  if (cache_.key != key) {
    cache_.expected = std::make_unique<HostImage>(out.width, out.height, out.format);
    op.run_reference(case_input(parent_src.view(), c), cache_.expected->view(), params, border);
    cache_.key = key;
  }
  testing::check_image_run(parent_src.view(), c.size, c.subview, cache_.expected->view(),
                           op.tolerance_for(c.format, c.variant, params),
                           [&](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
                             op.run_gpu(src, dst, params, border, c.variant, ctx);
                           });
}

// A data op: its table from the GPU, in a device buffer poisoned with NaN, against the
// reference's table, each column within the op's tolerance for it.
void check_data_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(params_of(c));
  const DataLayout layout = op.data_layout(ImageShape{c.size.width, c.size.height, c.format}, params);
  const HostImage& parent_src = source_for(c);
  std::vector<double> expected(layout.size());
  op.run_reference_data(case_input(parent_src.view(), c), expected.data(), params);
  testing::check_data_run(op, parent_src.view(), c.size, c.subview, layout, expected,
                          [&](const ImageView& src, double* result, const ExecContext& ctx) {
                            op.run_gpu_data(src, result, params, c.variant, ctx);
                          });
}

TEST_P(GpuConformance, MatchesReference) {
  const Case& c = GetParam();
  if (c.op->produces_image()) {
    check_image_case(c);
  } else {
    check_data_case(c);
  }
}

// A variant that no case reaches is tested nowhere by this suite: its parameters in
// Operation::variant_test_params, or its formats, need to change. The library tests
// check the parameters without a GPU too (variant_test_params_test.cpp).
TEST(GpuConformanceCoverage, EveryVariantIsExercised) {
  const std::vector<Case> cases = all_cases();
  for (const Operation& op : operations())
    for (const std::string& variant : op.variants) {
      const bool reached = std::any_of(cases.begin(), cases.end(),
                                       [&](const Case& c) { return c.op == &op && c.variant == variant; });
      EXPECT_TRUE(reached) << op.name << "'s variant " << variant
                           << " has no case: it runs another kernel on every format with its test parameters,"
                           << " or no test size fits its input";
    }
}

INSTANTIATE_TEST_SUITE_P(Registry, GpuConformance, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return case_name(param_info.param); });

}  // namespace
}  // namespace gpufilter::gpu_conformance_test
