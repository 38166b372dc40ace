// The blur, box, edge and median ops' peers: NPP's Gaussian, box, Sobel and median filters
// (nppif), the calls a CUDA user reaches for first. Only built where CMake finds NPP.
//
// NPP's fixed masks carry their own weights (sigma = 0.4 + (mask width / 2) * 0.6 by
// the NPP headers) and its Gauss border supports NPP_BORDER_REPLICATE only, so the row
// is named .../replicate and its check is a sanity check: a low-pass of the same size
// over the right pixels, not our weights to the last bit.
#include <cuda_runtime_api.h>
#include <nppi_filtering_functions.h>
#ifdef GPUFILTER_HAVE_NPP_CONVERT
#include <nppi_data_exchange_and_initialization.h>
#endif

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "gpufilter/error.hpp"
#include "npp_context.hpp"
#include "peers.hpp"

namespace bench {
namespace {

// Largest accepted channel difference, as a fraction of the format's range. Against
// the reference with sigma 1.6, NPP 13.0's 5x5 mask differs by at most 0.04 of the
// range on random 4K and 8K images (0.075 with sigma 1.9, the other reading of the
// formula); a wrong pitch or offset, or an unwritten (poisoned) pixel, differs by
// about half the range somewhere in such an image.
constexpr double kToleranceFraction = 0.10;

template <class T>
using GaussBorderFn = NppStatus (*)(const T*, Npp32s, NppiSize, NppiPoint, T*, Npp32s, NppiSize, NppiMaskSize,
                                    NppiBorderType, NppStreamContext);

template <class T>
Launch gauss_border(GaussBorderFn<T> fn, const char* name, NppiMaskSize mask) {
  return [fn, name, mask](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    const NppiSize size{src.width, src.height};
    const NppiPoint origin{0, 0};
    const NppStatus status = fn(static_cast<const T*>(src.data), static_cast<Npp32s>(src.pitch), size, origin,
                                static_cast<T*>(dst.data), static_cast<Npp32s>(dst.pitch), size, mask,
                                NPP_BORDER_REPLICATE, npp_context(stream));
    // Negative codes are errors; positive ones are warnings about a call that ran.
    if (static_cast<int>(status) < 0)
      throw gpufilter::Error(gpufilter::ErrorCode::Cuda,
                             std::string(name) + " failed with NppStatus " + std::to_string(static_cast<int>(status)));
  };
}

#define GPUFILTER_NPP_GAUSS(T, fn) gauss_border<T>(fn, #fn, mask)

Launch gauss_launch(gpufilter::PixelFormat format, NppiMaskSize mask) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_GAUSS(Npp8u, nppiFilterGaussBorder_8u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_GAUSS(Npp8u, nppiFilterGaussBorder_8u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_GAUSS(Npp8u, nppiFilterGaussBorder_8u_C4R_Ctx);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_GAUSS(Npp16u, nppiFilterGaussBorder_16u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_GAUSS(Npp16u, nppiFilterGaussBorder_16u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_GAUSS(Npp16u, nppiFilterGaussBorder_16u_C4R_Ctx);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_GAUSS(Npp32f, nppiFilterGaussBorder_32f_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_GAUSS(Npp32f, nppiFilterGaussBorder_32f_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_GAUSS(Npp32f, nppiFilterGaussBorder_32f_C4R_Ctx);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_GAUSS

template <class T>
using BoxBorderFn = NppStatus (*)(const T*, Npp32s, NppiSize, NppiPoint, T*, Npp32s, NppiSize, NppiSize, NppiPoint,
                                  NppiBorderType, NppStreamContext);

template <class T>
Launch box_border(BoxBorderFn<T> fn, const char* name, int size) {
  return [fn, name, size](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    const NppiSize roi{src.width, src.height};
    const NppStatus status =
        fn(static_cast<const T*>(src.data), static_cast<Npp32s>(src.pitch), roi, NppiPoint{0, 0},
           static_cast<T*>(dst.data), static_cast<Npp32s>(dst.pitch), roi, NppiSize{size, size},
           NppiPoint{size / 2, size / 2}, NPP_BORDER_REPLICATE, npp_context(stream));
    if (static_cast<int>(status) < 0)
      throw gpufilter::Error(gpufilter::ErrorCode::Cuda,
                             std::string(name) + " failed with NppStatus " + std::to_string(static_cast<int>(status)));
  };
}

#define GPUFILTER_NPP_BOX(T, fn) box_border<T>(fn, #fn, size)

Launch box_launch(gpufilter::PixelFormat format, int size) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_BOX(Npp8u, nppiFilterBoxBorder_8u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_BOX(Npp8u, nppiFilterBoxBorder_8u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_BOX(Npp8u, nppiFilterBoxBorder_8u_C4R_Ctx);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_BOX(Npp16u, nppiFilterBoxBorder_16u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_BOX(Npp16u, nppiFilterBoxBorder_16u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_BOX(Npp16u, nppiFilterBoxBorder_16u_C4R_Ctx);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_BOX(Npp32f, nppiFilterBoxBorder_32f_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_BOX(Npp32f, nppiFilterBoxBorder_32f_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_BOX(Npp32f, nppiFilterBoxBorder_32f_C4R_Ctx);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_BOX

// An NPP row: NPP's filters take a replicate border, which the reference is run with.
PeerRow replicate_border_row(gpufilter::PixelFormat format, const gpufilter::ParamValues& params,
                             Launch launch) {
  PeerRow row;
  row.name = "npp";
  row.border_label = "replicate";
  row.reference_params = params;
  // NPP filters each channel on its own: its row is judged as alpha "separate", whatever
  // alpha mode the op's row beside it runs (the default premultiplies).
  if (row.reference_params.has("alpha")) row.reference_params["alpha"] = std::string("separate");
  row.reference_border.mode = gpufilter::BorderMode::Replicate;
  row.tolerance = kToleranceFraction * format.max_value();
  row.launch = std::move(launch);
  return row;
}

// The box op's peer: the same square mean with NPP's replicate border.
std::vector<PeerRow> npp_box_peers(gpufilter::PixelFormat format, const gpufilter::ParamValues& params) {
  if (!params.has("size")) return {};
  const std::vector<double>& size = params.numbers("size");
  if (size.size() > 1 && size[1] != size[0]) return {};
  Launch launch = box_launch(format, static_cast<int>(size[0]));
  if (!launch) return {};
  return {replicate_border_row(format, params, std::move(launch))};
}

// NPP's square mask for a radius, where it has one.
bool mask_for_radius(int radius, NppiMaskSize& mask) {
  switch (radius) {
    case 1: mask = NPP_MASK_SIZE_3_X_3; return true;
    case 2: mask = NPP_MASK_SIZE_5_X_5; return true;
    case 3: mask = NPP_MASK_SIZE_7_X_7; return true;
    case 4: mask = NPP_MASK_SIZE_9_X_9; return true;
    case 5: mask = NPP_MASK_SIZE_11_X_11; return true;
    case 6: mask = NPP_MASK_SIZE_13_X_13; return true;
    case 7: mask = NPP_MASK_SIZE_15_X_15; return true;
    default: return false;
  }
}

#ifdef GPUFILTER_HAVE_NPP_CONVERT
// The edge op's peer, for the 3x3 Sobel magnitude on gray u8. NPP has no Sobel
// magnitude with an 8-bit output: nppiGradientVectorSobelBorder_8u16s_C1R_Ctx writes
// the L2 magnitude sqrt(Gx^2 + Gy^2) (X, Y and angle outputs left out) as 16-bit
// signed values, and nppiConvert_16s8u_C1R_Ctx saturates them to 8 bits, as the op
// does. The row times both calls (what a user needs for the same 8-bit result); the
// magnitude call alone moves 3 bytes a pixel instead of 2 and is the larger share.
// (nppiFilterSobelHoriz/VertBorder would give the two derivatives, but 8-bit outputs
// clip their negative half, and combining them takes more calls still.)
struct SobelScratch {
  Npp16s* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;
  ~SobelScratch() { cudaFree(data); }
};

Launch sobel_magnitude_launch() {
  auto scratch = std::make_shared<SobelScratch>();
  return [scratch](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    if (scratch->width != src.width || scratch->height != src.height) {
      cudaFree(scratch->data);
      scratch->data = nullptr;
      void* memory = nullptr;
      const cudaError_t error = cudaMallocPitch(&memory, &scratch->pitch, sizeof(Npp16s) * static_cast<std::size_t>(src.width),
                                                static_cast<std::size_t>(src.height));
      if (error != cudaSuccess)
        throw gpufilter::Error(gpufilter::ErrorCode::OutOfMemory, "npp edge peer: no scratch image");
      scratch->data = static_cast<Npp16s*>(memory);
      scratch->width = src.width;
      scratch->height = src.height;
    }
    const NppiSize size{src.width, src.height};
    NppStatus status = nppiGradientVectorSobelBorder_8u16s_C1R_Ctx(
        static_cast<const Npp8u*>(src.data), static_cast<int>(src.pitch), size, NppiPoint{0, 0}, nullptr, 0, nullptr, 0,
        scratch->data, static_cast<int>(scratch->pitch), nullptr, 0, size, NPP_MASK_SIZE_3_X_3, nppiNormL2,
        NPP_BORDER_REPLICATE, npp_context(stream));
    if (static_cast<int>(status) >= 0)
      status = nppiConvert_16s8u_C1R_Ctx(scratch->data, static_cast<int>(scratch->pitch), static_cast<Npp8u*>(dst.data),
                                         static_cast<int>(dst.pitch), size, npp_context(stream));
    if (static_cast<int>(status) < 0)
      throw gpufilter::Error(gpufilter::ErrorCode::Cuda,
                             "npp Sobel magnitude failed with NppStatus " + std::to_string(static_cast<int>(status)));
  };
}

std::vector<PeerRow> npp_edge_peers(gpufilter::PixelFormat format, const gpufilter::ParamValues& params) {
  if (format.type != gpufilter::ChannelType::U8 || format.channels != 1) return {};
  if (!params.has("operator") || params.text("operator") != "sobel") return {};
  if (params.has("direction") && params.text("direction") != "both") return {};
  if (params.has("scale") && params.number("scale") != 1.0) return {};
  return {replicate_border_row(format, params, sobel_magnitude_launch())};
}
#endif

// ---- median ----------------------------------------------------------------------------
// Two rows for the median op, from NPP's two median filters:
// - npp: nppiFilterMedianBorder with NPP_BORDER_REPLICATE over the whole image, the op's
//   work with --border replicate;
// - npp_interior: nppiFilterMedian, which has no border and reads `radius` pixels around
//   its ROI, over the image less a frame of `radius` pixels, which it leaves unwritten.
//   Integer formats only: the bench poisons float outputs with NaN, which the unwritten
//   frame would keep.
// A median selects one of its inputs, so NPP's values should equal the reference's; the
// checks still let kFrameShare of the samples differ by anything (the interior row's
// frame, and any other reading of the border at the edges of the whole-image row), and
// catch a wrong offset, pitch or mask, which would change nearly every sample. Each row
// allocates the scratch buffer NPP asks for on its first launch of a size (the untimed
// check) and keeps it.
constexpr double kFrameShare = 0.02;  // a 7x7 window's frame is 0.9% of 1080p's samples

struct MedianScratch {
  NppiSize roi{0, 0};
  Npp8u* data = nullptr;
  MedianScratch() = default;
  MedianScratch(const MedianScratch&) = delete;
  MedianScratch& operator=(const MedianScratch&) = delete;
  ~MedianScratch() { cudaFree(data); }
};

void check_npp(NppStatus status, const char* name) {
  // Negative codes are errors; positive ones are warnings about a call that ran.
  if (static_cast<int>(status) < 0)
    throw gpufilter::Error(gpufilter::ErrorCode::Cuda,
                           std::string(name) + " failed with NppStatus " + std::to_string(static_cast<int>(status)));
}

// The scratch buffer for `roi`: `buffer_size(&bytes)` (NPP's GetBufferSize call) and a new
// allocation only when the ROI changes, so timed launches make neither call.
template <class BufferSize>
Npp8u* median_scratch(MedianScratch& scratch, NppiSize roi, BufferSize buffer_size) {
  if (scratch.data != nullptr && scratch.roi.width == roi.width && scratch.roi.height == roi.height)
    return scratch.data;
  cudaFree(scratch.data);
  scratch.data = nullptr;
  Npp32u bytes = 0;
  check_npp(buffer_size(&bytes), "nppiFilterMedian*GetBufferSize");
  void* memory = nullptr;
  if (cudaMalloc(&memory, bytes > 0 ? bytes : 1) != cudaSuccess)
    throw gpufilter::Error(gpufilter::ErrorCode::OutOfMemory, "npp median peer: no scratch buffer");
  scratch.data = static_cast<Npp8u*>(memory);
  scratch.roi = roi;
  return scratch.data;
}

template <class T>
using MedianBorderFn = NppStatus (*)(const T*, Npp32s, NppiSize, NppiPoint, T*, Npp32s, NppiSize, NppiSize, NppiPoint,
                                     Npp8u*, NppiBorderType, NppStreamContext);
using MedianBorderSizeFn = NppStatus (*)(NppiSize, NppiSize, Npp32u*, NppiBorderType, NppStreamContext);
template <class T>
using MedianFn = NppStatus (*)(const T*, Npp32s, T*, Npp32s, NppiSize, NppiSize, NppiPoint, Npp8u*, NppStreamContext);
using MedianSizeFn = NppStatus (*)(NppiSize, NppiSize, Npp32u*, NppStreamContext);

template <class T>
Launch median_whole(MedianBorderFn<T> fn, MedianBorderSizeFn size_fn, const char* name, int radius) {
  auto scratch = std::make_shared<MedianScratch>();
  return [fn, size_fn, name, radius, scratch](const gpufilter::ImageView& src, const gpufilter::ImageView& dst,
                                              cudaStream_t stream) {
    const NppStreamContext context = npp_context(stream);
    const NppiSize roi{src.width, src.height};
    const NppiSize mask{2 * radius + 1, 2 * radius + 1};
    Npp8u* buffer = median_scratch(*scratch, roi, [&](Npp32u* bytes) {
      return size_fn(roi, mask, bytes, NPP_BORDER_REPLICATE, context);
    });
    check_npp(fn(static_cast<const T*>(src.data), static_cast<Npp32s>(src.pitch), roi, NppiPoint{0, 0},
                 static_cast<T*>(dst.data), static_cast<Npp32s>(dst.pitch), roi, mask, NppiPoint{radius, radius},
                 buffer, NPP_BORDER_REPLICATE, context),
              name);
  };
}

template <class T>
Launch median_interior(MedianFn<T> fn, MedianSizeFn size_fn, const char* name, int radius) {
  auto scratch = std::make_shared<MedianScratch>();
  return [fn, size_fn, name, radius, scratch](const gpufilter::ImageView& src, const gpufilter::ImageView& dst,
                                              cudaStream_t stream) {
    if (src.width <= 2 * radius || src.height <= 2 * radius) return;  // all frame
    const NppStreamContext context = npp_context(stream);
    const NppiSize roi{src.width - 2 * radius, src.height - 2 * radius};
    const NppiSize mask{2 * radius + 1, 2 * radius + 1};
    const std::size_t corner = static_cast<std::size_t>(radius) * src.format.pixel_bytes();
    const auto rows = static_cast<std::size_t>(radius);
    const auto* in = static_cast<const unsigned char*>(src.data) + rows * src.pitch + corner;
    auto* out = static_cast<unsigned char*>(dst.data) + rows * dst.pitch + corner;
    Npp8u* buffer = median_scratch(*scratch, roi, [&](Npp32u* bytes) { return size_fn(roi, mask, bytes, context); });
    check_npp(fn(reinterpret_cast<const T*>(in), static_cast<Npp32s>(src.pitch), reinterpret_cast<T*>(out),
                 static_cast<Npp32s>(dst.pitch), roi, mask, NppiPoint{radius, radius}, buffer, context),
              name);
  };
}

struct MedianLaunches {
  Launch whole, interior;
};

#define GPUFILTER_NPP_MEDIAN(T, suffix)                                                                         \
  MedianLaunches {                                                                                              \
    median_whole<T>(nppiFilterMedianBorder_##suffix##_Ctx, nppiFilterMedianBorderGetBufferSize_##suffix##_Ctx, \
                    "nppiFilterMedianBorder_" #suffix "_Ctx", radius),                                          \
        median_interior<T>(nppiFilterMedian_##suffix##_Ctx, nppiFilterMedianGetBufferSize_##suffix##_Ctx,      \
                           "nppiFilterMedian_" #suffix "_Ctx", radius)                                          \
  }

MedianLaunches median_launches(gpufilter::PixelFormat format, int radius) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_MEDIAN(Npp8u, 8u_C1R);
      if (c == 3) return GPUFILTER_NPP_MEDIAN(Npp8u, 8u_C3R);
      if (c == 4) return GPUFILTER_NPP_MEDIAN(Npp8u, 8u_C4R);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_MEDIAN(Npp16u, 16u_C1R);
      if (c == 3) return GPUFILTER_NPP_MEDIAN(Npp16u, 16u_C3R);
      if (c == 4) return GPUFILTER_NPP_MEDIAN(Npp16u, 16u_C4R);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_MEDIAN(Npp32f, 32f_C1R);
      if (c == 3) return GPUFILTER_NPP_MEDIAN(Npp32f, 32f_C3R);
      if (c == 4) return GPUFILTER_NPP_MEDIAN(Npp32f, 32f_C4R);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_MEDIAN

std::vector<PeerRow> npp_median_peers(gpufilter::PixelFormat format, const gpufilter::ParamValues& params) {
  if (!params.has("radius")) return {};
  MedianLaunches launches = median_launches(format, static_cast<int>(params.number("radius")));
  if (!launches.whole) return {};
  std::vector<PeerRow> rows;
  PeerRow whole = replicate_border_row(format, params, std::move(launches.whole));
  whole.tolerance = gpufilter::Tolerance{format.max_value(), kFrameShare};
  rows.push_back(std::move(whole));
  if (format.type != gpufilter::ChannelType::F32) {
    PeerRow interior = replicate_border_row(format, params, std::move(launches.interior));
    interior.name = "npp_interior";
    interior.border_label = "interior";  // the frame is not compared: any border gives the same interior
    interior.tolerance = gpufilter::Tolerance{format.max_value(), kFrameShare};
    rows.push_back(std::move(interior));
  }
  return rows;
}

}  // namespace

std::vector<PeerRow> npp_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                               const gpufilter::ParamValues& params) {
#ifdef GPUFILTER_HAVE_NPP_GEOMETRY
  if (op.name == "transpose" || op.name == "flip" || op.name == "resize") return npp_geometry_peers(op, format, params);
#endif
  if (op.name == "box") return npp_box_peers(format, params);
  if (op.name == "median") return npp_median_peers(format, params);
#ifdef GPUFILTER_HAVE_NPP_CONVERT
  if (op.name == "edge") return npp_edge_peers(format, params);
#endif
  if (op.name != "blur") return {};
  if (!params.has("sigma")) return {};
  // radius 0 (or none) means ceil(3 sigma), as in GaussianParams.
  const double radius = params.number_or("radius", 0.0);
  const int taps_each_side =
      radius > 0 ? static_cast<int>(radius) : static_cast<int>(std::ceil(3.0 * params.number("sigma")));
  NppiMaskSize mask{};
  if (!mask_for_radius(taps_each_side, mask)) return {};
  Launch launch = gauss_launch(format, mask);
  if (!launch) return {};

  PeerRow row = replicate_border_row(format, params, std::move(launch));
  row.reference_params["sigma"] = 0.4 + taps_each_side * 0.6;  // NPP's own sigma for this mask width
  row.reference_params["radius"] = taps_each_side;
  return {row};
}

}  // namespace bench
