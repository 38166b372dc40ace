// The geometry family's lab variants: the seed's transpose steps beyond naive_row
// (transpose, and rotate's quarter turns), and the bilinear rotation four pixels a lane
// or through a texture object. What the library's variants of the same op would do
// with the parameters besides (rotate's half turns, other angles) the op itself runs.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "geometry/rotate_map.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/geometry/geometry_lab_launch.hpp"
#include "lab/lab_families.hpp"
#include "geometry/geometry_variants.hpp"

namespace gpufilter::lab {
namespace {

// rotate's parameters, read as the library's rotate reads them.
using ops::fill_of, ops::is_quarter_turn;

struct Step {
  const char* name;
  TransposeStep step;
  const char* help;
};
const Step kSteps[] = {
    {"naive_col", {false, false, false}, "a thread per pixel, columns read (strided), rows written"},
    {"unroll4_row", {true, false, true}, "naive_row with four pixels a thread, blockDim.x apart"},
    {"unroll4_col", {false, false, true}, "naive_col with four pixels a thread"},
    {"diagonal_row", {true, true, false}, "naive_row with blocks in diagonal order (spreads DRAM partitions)"},
    {"diagonal_col", {false, true, false}, "naive_col with blocks in diagonal order"},
};

void check_transposed(const char* op, const ImageView& src, const ImageView& dst) {
  check_device_views(op, src, dst);
  if (dst.width != src.height || dst.height != src.width || dst.format != src.format)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": the destination must be the transposed source");
}

LabVariant transpose_step(const Step& s) {
  LabVariant v;
  v.op = "transpose";
  v.variant = s.name;
  v.help = s.help;
  const TransposeStep step = s.step;
  v.run = [step](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border&,
                 const ExecContext& ctx) {
    check_transposed("transpose", src, dst);
    launch_transpose_step(src, dst, kernels::QuarterTurnMap{false, false}, step,
                          block_shape_from_name(params.text("block")), ctx);
  };
  return v;
}

const Operation& rotate_op() { return *find_operation("rotate"); }


// Quarter turns of an odd count run the step's transpose; the rest what the library's
// naive_row does with them (a half turn: the naive flip; other angles: the default
// bilinear kernel).
LabVariant rotate_step(const Step& s) {
  LabVariant v;
  v.op = "rotate";
  v.variant = s.name;
  v.help = std::string("quarter turns: ") + s.help;
  const TransposeStep step = s.step;
  v.run = [step](const ImageView& src, const ImageView& dst, const ParamValues& params, const Border& border,
                 const ExecContext& ctx) {
    const double angle = params.number("angle");
    const int turns = is_quarter_turn(angle) ? ((static_cast<int>(angle) / 90) % 4 + 4) % 4 : 0;
    if (turns % 2 == 0) {
      rotate_op().run_gpu(src, dst, params, border, "naive_row", ctx);
      return;
    }
    check_transposed("rotate", src, dst);
    // dst(dx, dy) = src(dy, h-1-dx) for a clockwise quarter turn, src(w-1-dy, dx) for three.
    launch_transpose_step(src, dst, kernels::QuarterTurnMap{turns == 3, turns == 1}, step,
                          block_shape_from_name(params.text("block")), ctx);
  };
  return v;
}

using BilinearLaunch = bool (*)(const ImageView&, const ImageView&, const double*, const double*, const ExecContext&);

// Other angles run the lab's kernel (where it declines a view, `fallback` runs it);
// quarter turns what the library's bilinear names run for them (the default transpose).
LabVariant bilinear(const char* name, const char* help, BilinearLaunch launch, RotateVariant fallback) {
  LabVariant v;
  v.op = "rotate";
  v.variant = name;
  v.help = help;
  v.run = [launch, fallback](const ImageView& src, const ImageView& dst, const ParamValues& params,
                             const Border& border, const ExecContext& ctx) {
    const double angle = params.number("angle");
    if (is_quarter_turn(angle)) {
      rotate_op().run_gpu(src, dst, params, border, "bilinear_tiled", ctx);
      return;
    }
    check_device_views("rotate", src, dst);
    if (dst.format != src.format) throw Error(ErrorCode::InvalidArgument, "rotate: the format must stay");
    double inverse[6];
    kernels::rotation_inverse_map(src.width, src.height, dst.width, dst.height, angle, inverse);
    const std::array<double, 4> fill = fill_of(params);
    const Border colour = representable(Border{BorderMode::Constant, fill}, src.format);
    if (!launch(src, dst, inverse, colour.value.data(), ctx)) rotate(src, dst, angle, fill, fallback, ctx);
  };
  return v;
}

}  // namespace

std::vector<LabVariant> geometry_lab_variants() {
  std::vector<LabVariant> list;
  for (const Step& s : kSteps) list.push_back(transpose_step(s));
  for (const Step& s : kSteps) list.push_back(rotate_step(s));
  list.push_back(bilinear("bilinear_wide", "any angle: the tiled kernel with four pixels a lane, 16-byte stores",
                          launch_rotate_bilinear_wide, RotateVariant::Direct));
  list.push_back(bilinear("bilinear_texture", "any angle: the tiled kernel reading its taps through a texture",
                          launch_rotate_bilinear_texture, RotateVariant::Tiled));
  return list;
}

}  // namespace gpufilter::lab
