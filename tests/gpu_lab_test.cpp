// Every lab variant (lab/lab.hpp) x its op's formats x border x size x (whole image |
// sub-view), on the GPU against the op's CPU reference, as gpu_conformance_test checks
// the library's own variants: the output poisoned first, the memory around a sub-view
// destination checked untouched. A case is made only where the variant runs its own
// kernel for the format (LabVariant::runs_itself).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_check.hpp"
#include "lab/lab.hpp"

namespace gpufilter::gpu_lab_test {
namespace {

using Size = testing::CaseSize;

struct Case {
  const Operation* op;
  const lab::LabVariant* variant;
  PixelFormat format;
  BorderMode border;
  Size size;
  bool subview;
};

const ParamValues& given_params(const Case& c) {
  return c.variant->test_params.empty() ? c.op->test_params : c.variant->test_params;
}

std::string case_name(const Case& c) {
  std::string name = c.op->name + "_" + c.variant->variant + "_" + c.format.name();
  if (c.op->uses_border) name += std::string("_") + to_string(c.border);
  return name + "_" + std::to_string(c.size.width) + "x" + std::to_string(c.size.height) +
         (c.subview ? "_sub" : "_whole");
}

// The op's output for this input; nullopt where the test parameters do not fit it.
std::optional<ImageShape> output_shape(const Case& c) {
  try {
    return c.op->output_shape_for(ImageShape{c.size.width, c.size.height, c.format}, c.op->resolve(given_params(c)));
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Without a usable GPU the device limits that decide it are unknown: every case is
// listed (and the binary reports them skipped).
bool runs_itself(const Case& c) {
  if (!c.variant->runs_itself || !has_device()) return true;
  return c.variant->runs_itself(c.format, c.op->resolve(given_params(c)));
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const lab::LabVariant& variant : lab::lab_variants()) {
    const Operation* op = find_operation(variant.op);
    if (op == nullptr) continue;  // LabVariants.NameRegisteredOps says which
    for (const PixelFormat& format : op->formats) {
      const std::vector<Size> sizes = testing::conformance_sizes([&](Size size) {
        return !op->produces_image() || output_shape(Case{op, &variant, format, BorderMode::Reflect101, size, false});
      });
      for (BorderMode border : all_border_modes()) {
        if (!op->uses_border && border != BorderMode::Reflect101) continue;  // one pass for ops without borders
        for (const Size& size : sizes)
          for (bool subview : {false, true}) {
            const Case c{op, &variant, format, border, size, subview};
            if (!runs_itself(c)) continue;
            cases.push_back(c);
          }
      }
    }
  }
  return cases;
}

using testing::kMarginX;
using testing::kMarginY;

HostImage source_for(const Case& c) {
  HostImage parent(c.size.width + (c.subview ? kMarginX : 0), c.size.height + (c.subview ? kMarginY : 0), c.format);
  testing::fill_random(parent.view(), 1234u + static_cast<std::uint32_t>(c.size.width * 7 + c.size.height));
  return parent;
}

ImageView case_input(const ImageView& parent, const Case& c) { return testing::case_input(parent, c.size, c.subview); }

void check_image_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(given_params(c));
  const Border border = testing::conformance_border(c.border, c.format);
  const ImageShape out = op.output_shape_for(ImageShape{c.size.width, c.size.height, c.format}, params);

  const HostImage parent_src = source_for(c);
  HostImage expected(out.width, out.height, out.format);
  op.run_reference(case_input(parent_src.view(), c), expected.view(), params, border);
  testing::check_image_run(parent_src.view(), c.size, c.subview, expected.view(),
                           lab::tolerance_for(*c.variant, op, c.format, params),
                           [&](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
                             c.variant->run(src, dst, params, border, ctx);
                           });
}

void check_data_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(given_params(c));
  const DataLayout layout = op.data_layout(ImageShape{c.size.width, c.size.height, c.format}, params);
  const HostImage parent_src = source_for(c);
  std::vector<double> expected(layout.size());
  op.run_reference_data(case_input(parent_src.view(), c), expected.data(), params);
  testing::check_data_run(op, parent_src.view(), c.size, c.subview, layout, expected,
                          [&](const ImageView& src, double* result, const ExecContext& ctx) {
                            c.variant->run_data(src, result, params, ctx);
                          });
}

class GpuLab : public ::testing::TestWithParam<Case> {};

TEST_P(GpuLab, MatchesReference) {
  const Case& c = GetParam();
  if (c.op->produces_image())
    check_image_case(c);
  else
    check_data_case(c);
}

INSTANTIATE_TEST_SUITE_P(Lab, GpuLab, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return case_name(param_info.param); });

// A lab variant that no case reaches is tested nowhere: its test parameters or its
// op's formats need to change.
TEST(GpuLabCoverage, EveryVariantIsExercised) {
  const std::vector<Case> cases = all_cases();
  for (const lab::LabVariant& variant : lab::lab_variants()) {
    const bool reached =
        std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return c.variant == &variant; });
    EXPECT_TRUE(reached) << variant.op << "'s lab variant " << variant.variant
                         << " has no case: it runs another kernel on every format with its test parameters,"
                           << " or no test size fits its input";
  }
}

}  // namespace
}  // namespace gpufilter::gpu_lab_test
