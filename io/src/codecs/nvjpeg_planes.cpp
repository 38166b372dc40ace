#include "codecs/nvjpeg_planes.hpp"

#include "gpufilter/jpeg_color.hpp"

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

// `image` grown (never shrunk) to hold width x height u8 samples.
void grow(DeviceImage& image, int width, int height) {
  if (image.width() >= width && image.height() >= height) return;
  image = DeviceImage(width > image.width() ? width : image.width(), height > image.height() ? height : image.height(),
                      PixelFormat{ChannelType::U8, 1});
}

}  // namespace

bool NvjpegPlanes::takes(nvjpegChromaSubsampling_t subsampling) {
  return subsampling == NVJPEG_CSS_GRAY || subsampling == NVJPEG_CSS_444 || subsampling == NVJPEG_CSS_422 ||
         subsampling == NVJPEG_CSS_440 || subsampling == NVJPEG_CSS_420;
}

void NvjpegPlanes::fit(nvjpegChromaSubsampling_t subsampling, int width, int height) {
  const Factors factors = factors_of(subsampling);
  width_ = width;
  height_ = height;
  h_factor_ = factors.h;
  v_factor_ = factors.v;
  grow(y_, width, height);
  const int chroma_width = (width + factors.h - 1) / factors.h;
  const int chroma_height = (height + factors.v - 1) / factors.v;
  grow(cb_, chroma_width, chroma_height);
  grow(cr_, chroma_width, chroma_height);
}

ImageView NvjpegPlanes::plane(const DeviceImage& image, int width, int height) const {
  ImageView view = image.view();
  view.width = width;
  view.height = height;
  return view;
}

nvjpegImage_t NvjpegPlanes::output() const {
  nvjpegImage_t output{};
  const DeviceImage* planes[3] = {&y_, &cb_, &cr_};
  for (int c = 0; c < 3; ++c) {
    output.channel[c] = static_cast<unsigned char*>(planes[c]->view().data);
    output.pitch[c] = planes[c]->view().pitch;
  }
  return output;
}

void NvjpegPlanes::to_rgb(const ImageView& dst, cudaStream_t stream) const {
  const int chroma_width = (width_ + h_factor_ - 1) / h_factor_;
  const int chroma_height = (height_ + v_factor_ - 1) / v_factor_;
  const YccPlanes planes{plane(y_, width_, height_), plane(cb_, chroma_width, chroma_height),
                         plane(cr_, chroma_width, chroma_height), h_factor_, v_factor_};
  ExecContext context;
  context.stream = stream;
  ycc_planes_to_rgb(planes, dst, context);
}

}  // namespace gpufilter::io
