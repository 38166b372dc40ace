// Every lab variant (lab/lab.hpp) x its op's formats x border x size x (whole image |
// sub-view), on the GPU against the op's CPU reference, as gpu_conformance_test checks
// the library's own variants: the output poisoned first, the memory around a sub-view
// destination checked untouched. A case is made only where the variant runs its own
// kernel for the format (LabVariant::runs_itself).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_sizes.hpp"
#include "lab/lab.hpp"

namespace gpufilter {
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

// A non-zero, per-channel constant, so a kernel that ignores Border::value fails.
Border test_border(BorderMode mode, PixelFormat format) {
  Border border;
  border.mode = mode;
  for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 1) / 5.0;
  return border;
}

// Where a sub-view sits in its parent: odd offsets, so rows start unaligned.
constexpr int kSubX = 3, kSubY = 2, kMarginX = 5, kMarginY = 4;

HostImage source_for(const Case& c) {
  HostImage parent(c.size.width + (c.subview ? kMarginX : 0), c.size.height + (c.subview ? kMarginY : 0), c.format);
  testing::fill_random(parent.view(), 1234u + static_cast<std::uint32_t>(c.size.width * 7 + c.size.height));
  return parent;
}

ImageView case_input(const ImageView& parent, const Case& c) {
  return c.subview ? parent.subview(kSubX, kSubY, c.size.width, c.size.height) : parent;
}

void check_image_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(given_params(c));
  const Border border = test_border(c.border, c.format);
  const ImageShape out = op.output_shape_for(ImageShape{c.size.width, c.size.height, c.format}, params);
  const int ox = c.subview ? kSubX : 0, oy = c.subview ? kSubY : 0;
  const int parent_w = out.width + (c.subview ? kMarginX : 0);
  const int parent_h = out.height + (c.subview ? kMarginY : 0);

  const HostImage parent_src = source_for(c);
  HostImage expected(out.width, out.height, out.format);
  op.run_reference(case_input(parent_src.view(), c), expected.view(), params, border);

  HostImage host_dst(parent_w, parent_h, out.format);
  testing::fill_random(host_dst.view(), 99u);
  testing::poison_against(host_dst.view().subview(ox, oy, out.width, out.height), expected.view());
  HostImage guard(parent_w, parent_h, out.format);
  std::memcpy(guard.view().data, host_dst.view().data, guard.view().pitch * static_cast<std::size_t>(parent_h));

  Stream stream;
  DeviceImage src(parent_src.view().width, parent_src.view().height, c.format), dst(parent_w, parent_h, out.format);
  copy_image_async(parent_src.view(), src.view(), stream.get());
  copy_image_async(host_dst.view(), dst.view(), stream.get());
  c.variant->run(case_input(src.view(), c), dst.view().subview(ox, oy, out.width, out.height), params, border,
                 ExecContext{stream.get(), true});
  copy_image_async(dst.view(), host_dst.view(), stream.get());
  stream.synchronize();

  const testing::Difference diff =
      testing::compare(host_dst.view().subview(ox, oy, out.width, out.height), expected.view());
  const Tolerance tolerance = lab::tolerance_for(*c.variant, op, c.format, params);
  EXPECT_TRUE(diff.within(tolerance)) << "tolerance " << tolerance.max_abs << " in at most "
                                      << tolerance.max_differing_share * 100 << "% of samples; " << diff.describe();
  for (int y = 0; y < parent_h; ++y)
    for (int x = 0; x < parent_w; ++x) {
      if (x >= ox && x < ox + out.width && y >= oy && y < oy + out.height) continue;
      const std::size_t bytes = out.format.pixel_bytes();
      ASSERT_EQ(0, std::memcmp(host_dst.view().row<unsigned char>(y) + x * bytes,
                               guard.view().row<unsigned char>(y) + x * bytes, bytes))
          << "pixel (" << x << ", " << y << ") outside the destination view was written";
    }
}

void check_data_case(const Case& c) {
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(given_params(c));
  const DataLayout layout = op.data_layout(ImageShape{c.size.width, c.size.height, c.format}, params);
  const HostImage parent_src = source_for(c);
  std::vector<double> expected(layout.size());
  op.run_reference_data(case_input(parent_src.view(), c), expected.data(), params);

  Stream stream;
  DeviceImage src(parent_src.view().width, parent_src.view().height, c.format);
  copy_image_async(parent_src.view(), src.view(), stream.get());
  DeviceData result(layout.size());
  std::vector<double> actual(layout.size(), std::numeric_limits<double>::quiet_NaN());
  result.upload_async(actual.data(), stream.get());
  c.variant->run_data(case_input(src.view(), c), result.get(), params, ExecContext{stream.get(), true});
  result.download_async(actual.data(), stream.get());
  stream.synchronize();

  const testing::DataDifference diff = testing::compare_data(op, c.format, layout, actual.data(), expected.data());
  EXPECT_TRUE(diff.ok) << diff.first_failure;
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
}  // namespace gpufilter
