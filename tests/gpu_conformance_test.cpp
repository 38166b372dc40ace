// Every registered op x variant x format x border x size x (whole image | sub-view),
// run on the GPU and compared with the CPU reference. The output is poisoned with
// values that differ from the expected ones everywhere, so an unwritten pixel
// fails, and the memory around a sub-view must come back untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter {
namespace {

struct Size {
  int width, height;
};

struct Case {
  const Operation* op;
  std::string variant;
  PixelFormat format;
  BorderMode border;
  Size size;
  bool subview;
};

std::string case_name(const Case& c) {
  std::string name = c.op->name + "_" + c.variant + "_" + c.format.name();
  if (c.op->uses_border) name += std::string("_") + to_string(c.border);
  name += "_" + std::to_string(c.size.width) + "x" + std::to_string(c.size.height) + (c.subview ? "_sub" : "_whole");
  return name;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  const Size sizes[] = {{1, 1}, {17, 13}, {1921, 1079}};
  for (const Operation& op : operations())
    for (const PixelFormat& format : op.formats)
      for (BorderMode border : all_border_modes()) {
        if (!op.uses_border && border != BorderMode::Reflect101) continue;  // one pass for ops without borders
        for (const Size& size : sizes)
          for (bool subview : {false, true})
            for (const std::string& variant : op.variants) cases.push_back({&op, variant, format, border, size, subview});
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

// The reference for the last (op, format, border, size, subview) seen: cases differ
// only in variant run back to back, and the 1921x1079 references are the slow part.
struct ReferenceCache {
  std::string key;
  std::unique_ptr<HostImage> parent_src;
  std::unique_ptr<HostImage> expected;
};

class GpuConformance : public ::testing::TestWithParam<Case> {
 protected:
  // Pinned memory goes back before the CUDA runtime does (and the leak check runs).
  static void TearDownTestSuite() { cache_ = ReferenceCache{}; }
  static ReferenceCache cache_;
};
ReferenceCache GpuConformance::cache_;

TEST_P(GpuConformance, MatchesReference) {
  const Case& c = GetParam();
  const Operation& op = *c.op;
  const ParamValues params = op.resolve(op.test_params);
  const Border border = test_border(c.border, c.format);
  const int parent_w = c.size.width + (c.subview ? kMarginX : 0);
  const int parent_h = c.size.height + (c.subview ? kMarginY : 0);
  const int ox = c.subview ? kSubX : 0, oy = c.subview ? kSubY : 0;

  const std::string key = case_name({c.op, "", c.format, c.border, c.size, c.subview});
  if (cache_.key != key) {
    cache_.parent_src = std::make_unique<HostImage>(parent_w, parent_h, c.format);
    testing::fill_random(cache_.parent_src->view(), 1234u + static_cast<std::uint32_t>(parent_w * 7 + parent_h));
    cache_.expected = std::make_unique<HostImage>(c.size.width, c.size.height, c.format);
    op.run_reference(cache_.parent_src->view().subview(ox, oy, c.size.width, c.size.height), cache_.expected->view(),
                     params, border);
    cache_.key = key;
  }
  const ImageView expected = cache_.expected->view();

  // The destination parent: random guard values around a poisoned sub-view.
  HostImage host_dst(parent_w, parent_h, c.format);
  testing::fill_random(host_dst.view(), 99u);
  testing::poison_against(host_dst.view().subview(ox, oy, c.size.width, c.size.height), expected);
  HostImage guard(parent_w, parent_h, c.format);
  std::memcpy(guard.view().data, host_dst.view().data, guard.view().pitch * static_cast<std::size_t>(parent_h));

  Stream stream;
  DeviceImage src(parent_w, parent_h, c.format), dst(parent_w, parent_h, c.format);
  copy_image_async(cache_.parent_src->view(), src.view(), stream.get());
  copy_image_async(host_dst.view(), dst.view(), stream.get());
  op.run_gpu(src.view().subview(ox, oy, c.size.width, c.size.height),
             dst.view().subview(ox, oy, c.size.width, c.size.height), params, border, c.variant,
             ExecContext{stream.get(), true});
  copy_image_async(dst.view(), host_dst.view(), stream.get());
  stream.synchronize();

  const testing::Difference diff =
      testing::compare(host_dst.view().subview(ox, oy, c.size.width, c.size.height), expected);
  const Tolerance tolerance = op.tolerance(c.format);
  EXPECT_TRUE(diff.within(tolerance)) << "tolerance " << tolerance.max_abs << " in at most "
                                      << tolerance.max_differing_share * 100 << "% of samples; " << diff.describe();

  for (int y = 0; y < parent_h; ++y)
    for (int x = 0; x < parent_w; ++x) {
      if (x >= ox && x < ox + c.size.width && y >= oy && y < oy + c.size.height) continue;
      const std::size_t bytes = c.format.pixel_bytes();
      ASSERT_EQ(0, std::memcmp(host_dst.view().row<unsigned char>(y) + x * bytes,
                               guard.view().row<unsigned char>(y) + x * bytes, bytes))
          << "pixel (" << x << ", " << y << ") outside the destination view was written";
    }
}

INSTANTIATE_TEST_SUITE_P(Registry, GpuConformance, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return case_name(param_info.param); });

}  // namespace
}  // namespace gpufilter
