// Any FilterSpec on the CPU, in double precision, written from the definition in
// filter_spec.hpp: premultiply, correlate each mask, apply the output rule, restore
// alpha, round and saturate. Rank-1 masks go through a horizontal pass into double rows
// and a vertical pass over them (every border mode maps rows and columns independently,
// so this equals the 2-D sum); others are summed directly.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/border_index.hpp"
#include "common/overlap_copy.hpp"
#include "common/parallel_rows.hpp"
#include "common/pixel_access.hpp"
#include "common/row_cache.hpp"

namespace gpufilter::reference {
namespace {

using PixelValues = std::array<double, 4>;

// The filter's view of the input: pixels through the border mode, with colours
// premultiplied by alpha where the spec asks for it.
class Input {
 public:
  Input(const ImageView& src, const FilterSpec& spec, const Border& border)
      : src_(src), border_(border), channels_(src.format.channels), max_(src.format.max_value()),
        premultiply_(channels_ == 4 && spec.alpha == AlphaMode::Premultiply) {
    for (int c = 0; c < 4; ++c)
      constant_[static_cast<std::size_t>(c)] = stored_value(border.value[static_cast<std::size_t>(c)], src.format.type);
    if (premultiply_) premultiply(constant_);
  }

  int channels() const { return channels_; }
  double max() const { return max_; }
  bool premultiplied() const { return premultiply_; }

  // The pixel (x, y) as stored, inside the image only.
  PixelValues raw(int x, int y) const {
    PixelValues p{};
    for (int c = 0; c < channels_; ++c) p[static_cast<std::size_t>(c)] = read_channel(src_, x, y, c);
    return p;
  }
  // The filter's value of (x, y), which may lie outside the image.
  PixelValues at(int x, int y) const {
    const int sx = border_index(x, src_.width, border_.mode);
    const int sy = border_index(y, src_.height, border_.mode);
    if (sx < 0 || sy < 0) return constant_;
    PixelValues p = raw(sx, sy);
    if (premultiply_) premultiply(p);
    return p;
  }
  // A row that lies wholly outside the image under Constant: every pixel is this.
  const PixelValues& constant() const { return constant_; }

 private:
  void premultiply(PixelValues& p) const {
    for (int c = 0; c < 3; ++c) p[static_cast<std::size_t>(c)] *= p[3] / max_;
  }

  const ImageView& src_;
  const Border& border_;
  int channels_;
  double max_;
  bool premultiply_;
  PixelValues constant_{};
};

// The sums of mask k at every pixel of one output row, by direct 2-D correlation.
void direct_sums(const Input& in, const Mask& mask, int y, int width, std::vector<PixelValues>& sums) {
  const int rw = mask.width / 2, rh = mask.height / 2;
  for (int x = 0; x < width; ++x) {
    PixelValues sum{};
    for (int j = 0; j < mask.height; ++j)
      for (int i = 0; i < mask.width; ++i) {
        const double w = mask.at(i, j);
        if (w == 0.0f) continue;
        const PixelValues v = in.at(x + i - rw, y + j - rh);
        for (int c = 0; c < in.channels(); ++c) sum[static_cast<std::size_t>(c)] += w * v[static_cast<std::size_t>(c)];
      }
    sums[static_cast<std::size_t>(x)] = sum;
  }
}

// Rank-1 masks: the horizontal pass of the rows an output row needs, kept in a RowCache
// as a sliding window instead of a whole image of doubles.
class SeparableSums {
 public:
  SeparableSums(const Input& in, const SeparableMask& mask, int width, int height)
      : in_(in), mask_(mask), width_(width), height_(height),
        cache_(height, static_cast<std::size_t>(width) * 4, std::min(static_cast<int>(mask.y.size()), height),
               [this](int sy, double* out) { horizontal(sy, out); }) {
    double sum_x = 0.0;
    for (float w : mask_.x) sum_x += w;
    for (int c = 0; c < 4; ++c) outside_row_[static_cast<std::size_t>(c)] = in.constant()[static_cast<std::size_t>(c)] * sum_x;
  }

  void row(int y, BorderMode mode, std::vector<PixelValues>& sums) {
    const int rh = static_cast<int>(mask_.y.size()) / 2;
    std::vector<int> needed(mask_.y.size());
    for (int k = -rh; k <= rh; ++k) needed[static_cast<std::size_t>(k + rh)] = border_index(y + k, height_, mode);
    cache_.hold(needed);
    for (int x = 0; x < width_; ++x) {
      PixelValues sum{};
      for (std::size_t k = 0; k < needed.size(); ++k) {
        const double w = mask_.y[k];
        for (int c = 0; c < in_.channels(); ++c) {
          const double h = needed[k] < 0 ? outside_row_[static_cast<std::size_t>(c)]
                                         : cache_.row(needed[k])[static_cast<std::size_t>(x) * 4 + static_cast<std::size_t>(c)];
          sum[static_cast<std::size_t>(c)] += w * h;
        }
      }
      sums[static_cast<std::size_t>(x)] = sum;
    }
  }

 private:
  void horizontal(int sy, double* out) const {
    const int rw = static_cast<int>(mask_.x.size()) / 2;
    for (int x = 0; x < width_; ++x) {
      PixelValues sum{};
      for (int i = 0; i < static_cast<int>(mask_.x.size()); ++i) {
        const PixelValues v = in_.at(x + i - rw, sy);
        for (int c = 0; c < 4; ++c) sum[static_cast<std::size_t>(c)] += mask_.x[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(c)];
      }
      for (int c = 0; c < 4; ++c) out[static_cast<std::size_t>(x) * 4 + static_cast<std::size_t>(c)] = sum[static_cast<std::size_t>(c)];
    }
  }

  const Input& in_;
  const SeparableMask& mask_;
  int width_, height_;
  PixelValues outside_row_{};
  RowCache cache_;
};

// The output pixel from the centre value and the masks' sums (filter_spec.hpp's rule).
PixelValues output_pixel(const FilterSpec& spec, const Input& in, const PixelValues& centre,
                         const PixelValues& raw_centre, const std::vector<const PixelValues*>& sums) {
  const int channels = in.channels();
  const double max = in.max();
  PixelValues out{};
  for (int c = 0; c < channels; ++c) {
    const auto i = static_cast<std::size_t>(c);
    const double s0 = (*sums[0])[i];
    switch (spec.output) {
      case FilterOutput::Linear: out[i] = s0 + spec.bias * max; break;
      case FilterOutput::Unsharp: {
        const double detail = centre[i] - s0;
        out[i] = std::fabs(detail) > spec.threshold * max ? centre[i] + spec.amount * detail : centre[i];
        break;
      }
      case FilterOutput::Magnitude: out[i] = std::sqrt(s0 * s0 + (*sums[1])[i] * (*sums[1])[i]); break;
    }
  }
  if (channels == 4 && spec.alpha == AlphaMode::Premultiply) {
    const double alpha = std::clamp(out[3], 0.0, max);
    for (int c = 0; c < 3; ++c)
      out[static_cast<std::size_t>(c)] =
          alpha > kMinUnpremultiplyAlpha * max ? out[static_cast<std::size_t>(c)] * max / alpha : 0.0;
    out[3] = alpha;
  } else if (channels == 4 && spec.alpha == AlphaMode::Keep) {
    out[3] = raw_centre[3];
  }
  return out;
}

}  // namespace

void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
  validate_pair(src, dst, "filter");
  validate(spec, "filter");
  if (may_overlap(src, dst)) {
    // Rows are written while later rows are still being read: read from a copy.
    const PackedCopy copy(src);
    reference::apply_filter(copy.view(), dst, spec, border);
    return;
  }
  const Input in(src, spec, border);
  const int width = src.width, height = src.height;
  const std::size_t mask_count = spec.masks.size();

  parallel_rows(height, [&](int begin, int end) {
    std::vector<std::unique_ptr<SeparableSums>> separable;
    if (spec.is_separable())
      for (const SeparableMask& mask : spec.separable)
        separable.push_back(std::make_unique<SeparableSums>(in, mask, width, height));
    std::vector<std::vector<PixelValues>> sums(mask_count, std::vector<PixelValues>(static_cast<std::size_t>(width)));
    std::vector<const PixelValues*> pixel_sums(mask_count);
    for (int y = begin; y < end; ++y) {
      for (std::size_t k = 0; k < mask_count; ++k) {
        if (spec.is_separable()) separable[k]->row(y, border.mode, sums[k]);
        else direct_sums(in, spec.masks[k], y, width, sums[k]);
      }
      for (int x = 0; x < width; ++x) {
        for (std::size_t k = 0; k < mask_count; ++k) pixel_sums[k] = &sums[k][static_cast<std::size_t>(x)];
        const PixelValues out = output_pixel(spec, in, in.at(x, y), in.raw(x, y), pixel_sums);
        for (int c = 0; c < in.channels(); ++c) write_channel(dst, x, y, c, out[static_cast<std::size_t>(c)]);
      }
    }
  });
}

}  // namespace gpufilter::reference
