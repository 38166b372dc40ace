#include "codecs/nvjpeg_planes.hpp"

#include "codecs/nvjpeg_status.hpp"

namespace gpufilter::io {
namespace {

// Luma samples a chroma sample, across and down.
struct Factors {
  int h = 1;
  int v = 1;
};
Factors factors_of(nvjpegChromaSubsampling_t subsampling) {
  switch (subsampling) {
    case NVJPEG_CSS_422: return {2, 1};
    case NVJPEG_CSS_440: return {1, 2};
    case NVJPEG_CSS_420: return {2, 2};
    default: return {1, 1};
  }
}

// `image` grown (never shrunk) to hold width x height u8 samples; its top-left part of
// that size.
ImageView grown(DeviceImage& image, int width, int height) {
  if (image.width() < width || image.height() < height)
    image = DeviceImage(width > image.width() ? width : image.width(),
                        height > image.height() ? height : image.height(), PixelFormat{ChannelType::U8, 1});
  ImageView view = image.view();
  view.width = width;
  view.height = height;
  return view;
}

}  // namespace

bool NvjpegPlanes::takes(nvjpegChromaSubsampling_t subsampling) {
  return subsampling == NVJPEG_CSS_GRAY || subsampling == NVJPEG_CSS_444 || subsampling == NVJPEG_CSS_422 ||
         subsampling == NVJPEG_CSS_440 || subsampling == NVJPEG_CSS_420;
}

std::optional<nvjpegChromaSubsampling_t> NvjpegPlanes::sampling_of(nvjpegJpegStream_t parsed) {
  nvjpegChromaSubsampling_t subsampling = NVJPEG_CSS_UNKNOWN;
  if (!nvjpeg_ok(nvjpegJpegStreamGetChromaSubsampling(parsed, &subsampling)) || !takes(subsampling))
    return std::nullopt;
  return subsampling;
}

void NvjpegPlanes::fit(nvjpegChromaSubsampling_t subsampling, int width, int height) {
  const Factors factors = factors_of(subsampling);
  const int chroma_width = (width + factors.h - 1) / factors.h;
  const int chroma_height = (height + factors.v - 1) / factors.v;
  views_ = YccPlanes{grown(y_, width, height), grown(cb_, chroma_width, chroma_height),
                     grown(cr_, chroma_width, chroma_height), factors.h, factors.v};
}

nvjpegImage_t NvjpegPlanes::output() const {
  nvjpegImage_t output{};
  const ImageView* planes[3] = {&views_.y, &views_.cb, &views_.cr};
  for (int c = 0; c < 3; ++c) {
    output.channel[c] = static_cast<unsigned char*>(planes[c]->data);
    output.pitch[c] = planes[c]->pitch;
  }
  return output;
}

void NvjpegPlanes::to_rgb(const ImageView& dst, cudaStream_t stream) const {
  ExecContext context;
  context.stream = stream;
  ycc_planes_to_rgb(views_, dst, context);
}

}  // namespace gpufilter::io
