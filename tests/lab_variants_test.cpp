// The product and the lab (docs/lab.md), on the CPU: each family's variant names come
// from one table (to_string, *_from_name and the registry agree, and an unknown name's
// error lists the choices); the lab's variants name registered ops, never one of the
// library's own variants, and run as their op does (an image or a table).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpufilter/gpufilter.hpp"
#include "invalid_argument.hpp"
#include "lab/lab.hpp"

namespace gpufilter::lab_variants_test {
namespace {

using testing::invalid_argument_message;

TEST(VariantTables, NamesRoundTripAndErrorsListTheChoices) {
  for (const std::string& v : find_operation("copy")->variants) EXPECT_EQ(to_string(copy_variant_from_name(v)), v);
  for (const std::string& v : find_operation("invert")->variants) EXPECT_EQ(to_string(point_variant_from_name(v)), v);
  for (const std::string& v : find_operation("gray")->variants)
    EXPECT_EQ(to_string(conversion_variant_from_name(v)), v);
  for (const std::string& v : find_operation("blur")->variants) EXPECT_EQ(to_string(filter_variant_from_name(v)), v);
  for (const std::string& v : find_operation("stats")->variants)
    EXPECT_EQ(to_string(reduction_variant_from_name(v)), v);
  for (const std::string& v : find_operation("threshold")->variants)
    EXPECT_EQ(to_string(histogram_variant_from_name(v)), v);
  EXPECT_EQ(all_copy_variants().size(), find_operation("copy")->variants.size());
  for (FilterVariant variant : all_filter_variants()) {
    bool listed = false;
    for (const char* op : {"blur", "box", "sharpen", "edge", "emboss", "convolve"})
      listed = listed || find_operation(op)->has_variant(to_string(variant));
    EXPECT_TRUE(listed) << to_string(variant) << " is listed by no filter op";
  }

  const std::string copy = invalid_argument_message([] { copy_variant_from_name("int4"); });
  EXPECT_NE(copy.find("'int4'"), std::string::npos) << copy;
  EXPECT_NE(copy.find("scalar or vectorized"), std::string::npos) << copy;
  const std::string filter = invalid_argument_message([] { filter_variant_from_name("separable_fixed"); });
  EXPECT_NE(filter.find("auto, naive, constant"), std::string::npos) << filter;
  const std::string stats = invalid_argument_message([] { reduction_variant_from_name("sequential"); });
  EXPECT_NE(stats.find("packed_warp_bulk"), std::string::npos) << stats;
}

TEST(LabVariants, NameRegisteredOpsAndNoLibraryVariant) {
  std::set<std::string> seen;
  for (const lab::LabVariant& v : lab::lab_variants()) {
    const Operation* op = find_operation(v.op);
    ASSERT_NE(op, nullptr) << v.variant << " names no registered op: " << v.op;
    EXPECT_FALSE(op->has_variant(v.variant)) << v.op << "/" << v.variant << " is the library's too";
    EXPECT_TRUE(seen.insert(v.op + "/" + v.variant).second) << v.op << "/" << v.variant << " twice";
    EXPECT_FALSE(v.help.empty()) << v.op << "/" << v.variant;
    EXPECT_EQ(static_cast<bool>(v.run), op->produces_image()) << v.op << "/" << v.variant;
    EXPECT_EQ(static_cast<bool>(v.run_data), !op->produces_image()) << v.op << "/" << v.variant;
    if (!v.test_params.empty()) {
      EXPECT_NO_THROW(op->resolve(v.test_params)) << v.op << "/" << v.variant;
    }
    EXPECT_EQ(lab::find_lab_variant(v.op, v.variant), &v);
  }
  EXPECT_EQ(lab::find_lab_variant("blur", "separable_packed"), nullptr) << "the library's";
  EXPECT_NE(lab::find_lab_variant("blur", "separable_fixed"), nullptr);
}

// The rows the bench showed before the lab left the library, op by op: the library's
// variants and the lab's together.
TEST(LabVariants, LibraryAndLabTogetherKeepEveryBenchRow) {
  const auto names = [](const char* op) {
    const std::vector<std::string> all = lab::library_and_lab_variants(*find_operation(op));
    return std::set<std::string>(all.begin(), all.end());
  };
  EXPECT_EQ(names("copy"), (std::set<std::string>{"scalar", "vectorized", "int", "int2", "int4", "grid_stride",
                                                  "unroll4", "ldg", "cg"}));
  EXPECT_EQ(names("blur"),
            (std::set<std::string>{"auto", "naive", "constant", "tiled", "tiled_l2", "separable", "separable_fixed",
                                   "separable_fixed_lean", "separable_fixed_deep", "separable_fixed_serial",
                                   "separable_packed", "box_stack", "box_stack_two_pass", "decimated",
                                   "separable_tiled", "separable_strip_pixels", "separable_strip_elements",
                                   "separable_strip_staged", "separable_mma", "separable_strip_imma",
                                   "separable_strip_imma_both"}));
  EXPECT_EQ(names("box"), (std::set<std::string>{"auto", "naive", "constant", "tiled", "tiled_l2", "separable",
                                                 "separable_fixed", "separable_fixed_lean", "separable_fixed_deep",
                                                 "separable_fixed_serial", "separable_packed", "separable_tiled",
                                                 "separable_mma", "separable_strip_imma",
                                                 "separable_strip_imma_both"}));
  EXPECT_EQ(names("sharpen"), (std::set<std::string>{"auto", "naive", "constant", "tiled", "tiled_l2", "separable",
                                                     "separable_tiled", "separable_strip_pixels",
                                                     "separable_strip_elements", "separable_strip_staged",
                                                     "separable_mma", "separable_strip_imma",
                                                     "separable_strip_imma_both"}))
      << "the tiled kernel that separable ran before the strip kernel, and the strip's forms, by name";
  EXPECT_EQ(names("convolve"), (std::set<std::string>{"auto", "naive", "constant", "tiled", "tiled_l2", "separable",
                                                      "integer_3x3", "integer_3x3_lean", "integer_3x3_deep",
                                                      "integer_3x3_wide", "separable_tiled", "tiled_shared"}))
      << "and the 2-D tile that tiled runs above 5x5, on the small masks too";
  EXPECT_EQ(names("edge"),
            (std::set<std::string>{"auto", "naive", "constant", "tiled", "tiled_l2", "separable", "gradient_int",
                                   "integer_3x3", "gradient_int_lean", "gradient_int_deep", "gradient_int_serial",
                                   "gradient_int_wide", "tiled_shared"}));
  const std::set<std::string> transposes{"naive_row", "naive_col",    "unroll4_row", "unroll4_col", "diagonal_row",
                                         "diagonal_col", "tiled",     "tiled_padded", "fast",       "fast_wide"};
  EXPECT_EQ(names("transpose"), transposes);
  std::set<std::string> rotations = transposes;
  rotations.insert({"bilinear", "bilinear_tiled", "bilinear_wide", "bilinear_texture"});
  EXPECT_EQ(names("rotate"), rotations);
  EXPECT_EQ(names("stats"),
            (std::set<std::string>{"auto", "interleaved", "sequential", "first_add", "warp_shuffle", "vectorized",
                                   "packed", "packed_warp", "packed_warp_prefetch", "packed_warp_deep",
                                   "packed_warp_async", "packed_warp_bulk"}));
  for (const char* op : {"histogram", "equalize", "threshold", "normalize"})
    EXPECT_EQ(names(op), (std::set<std::string>{"global_atomic", "shared_private", "warp_private", "lane_private"}))
        << op;
  for (const char* op : {"gray", "add_alpha", "drop_alpha", "swap_channels", "convert"})
    EXPECT_EQ(names(op), (std::set<std::string>{"pixel", "unroll4", "staged", "vec16", "vec16_warp"})) << op;
  for (const char* op : {"planar", "interleaved"})
    EXPECT_EQ(names(op), (std::set<std::string>{"pixel", "unroll4", "vec16", "vec16_warp"})) << op;
}

}  // namespace
}  // namespace gpufilter::lab_variants_test
