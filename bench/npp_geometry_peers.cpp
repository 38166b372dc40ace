// The geometry ops' peers from NPP: nppiTranspose (nppidei) for transpose, nppiMirror
// (nppig) for flip, nppiResize (nppig) for resize. Only built where CMake finds those
// libraries; npp_peers() hands these ops to npp_geometry_peers().
//
// Transpose and mirror move pixels exactly, so their rows are checked exactly. NPP's
// resize has its own pixel-centre and rounding conventions (super-sampling for the
// area filter, linear for linear), so that row's check is a sanity check, as for the
// filters: the right size and about the right values everywhere.
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_geometry_transforms.h>

#include <string>
#include <utility>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "npp_context.hpp"
#include "peers.hpp"

namespace bench {
namespace {

constexpr double kResizeToleranceFraction = 0.10;  // of the format's range

void check_status(NppStatus status, const char* name) {
  // Negative codes are errors; positive ones are warnings about a call that ran.
  if (static_cast<int>(status) < 0)
    throw gpufilter::Error(gpufilter::ErrorCode::Cuda,
                           std::string(name) + " failed with NppStatus " + std::to_string(static_cast<int>(status)));
}

// ---- transpose ---------------------------------------------------------------------------

template <class T>
using TransposeFn = NppStatus (*)(const T*, int, T*, int, NppiSize, NppStreamContext);

template <class T>
Launch transpose_call(TransposeFn<T> fn, const char* name) {
  return [fn, name](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    check_status(fn(static_cast<const T*>(src.data), static_cast<int>(src.pitch), static_cast<T*>(dst.data),
                    static_cast<int>(dst.pitch), NppiSize{src.width, src.height}, npp_context(stream)),
                 name);
  };
}

#define GPUFILTER_NPP_TRANSPOSE(T, fn) transpose_call<T>(fn, #fn)

Launch transpose_launch(gpufilter::PixelFormat format) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_TRANSPOSE(Npp8u, nppiTranspose_8u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_TRANSPOSE(Npp8u, nppiTranspose_8u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_TRANSPOSE(Npp8u, nppiTranspose_8u_C4R_Ctx);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_TRANSPOSE(Npp16u, nppiTranspose_16u_C1R_Ctx);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_TRANSPOSE(Npp32f, nppiTranspose_32f_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_TRANSPOSE(Npp32f, nppiTranspose_32f_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_TRANSPOSE(Npp32f, nppiTranspose_32f_C4R_Ctx);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_TRANSPOSE

// ---- mirror ------------------------------------------------------------------------------

template <class T>
using MirrorFn = NppStatus (*)(const T*, int, T*, int, NppiSize, NppiAxis, NppStreamContext);

template <class T>
Launch mirror_call(MirrorFn<T> fn, const char* name, NppiAxis axis) {
  return [fn, name, axis](const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    check_status(fn(static_cast<const T*>(src.data), static_cast<int>(src.pitch), static_cast<T*>(dst.data),
                    static_cast<int>(dst.pitch), NppiSize{src.width, src.height}, axis, npp_context(stream)),
                 name);
  };
}

#define GPUFILTER_NPP_MIRROR(T, fn) mirror_call<T>(fn, #fn, axis)

Launch mirror_launch(gpufilter::PixelFormat format, NppiAxis axis) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_MIRROR(Npp8u, nppiMirror_8u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_MIRROR(Npp8u, nppiMirror_8u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_MIRROR(Npp8u, nppiMirror_8u_C4R_Ctx);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_MIRROR(Npp16u, nppiMirror_16u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_MIRROR(Npp16u, nppiMirror_16u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_MIRROR(Npp16u, nppiMirror_16u_C4R_Ctx);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_MIRROR(Npp32f, nppiMirror_32f_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_MIRROR(Npp32f, nppiMirror_32f_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_MIRROR(Npp32f, nppiMirror_32f_C4R_Ctx);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_MIRROR

// Our axes name the direction pixels move ("h": left-right); NPP's the axis flipped
// around (NPP_VERTICAL_AXIS: left-right), as OpenCV's cuda::flip maps them.
NppiAxis npp_axis(gpufilter::FlipAxis axis) {
  switch (axis) {
    case gpufilter::FlipAxis::Horizontal: return NPP_VERTICAL_AXIS;
    case gpufilter::FlipAxis::Vertical: return NPP_HORIZONTAL_AXIS;
    case gpufilter::FlipAxis::Both: break;
  }
  return NPP_BOTH_AXIS;
}

// ---- resize ------------------------------------------------------------------------------

template <class T>
using ResizeFn = NppStatus (*)(const T*, int, NppiSize, NppiRect, T*, int, NppiSize, NppiRect, int, NppStreamContext);

template <class T>
Launch resize_call(ResizeFn<T> fn, const char* name, int interpolation) {
  return [fn, name, interpolation](const gpufilter::ImageView& src, const gpufilter::ImageView& dst,
                                   cudaStream_t stream) {
    const NppiSize src_size{src.width, src.height}, dst_size{dst.width, dst.height};
    check_status(fn(static_cast<const T*>(src.data), static_cast<int>(src.pitch), src_size,
                    NppiRect{0, 0, src.width, src.height}, static_cast<T*>(dst.data), static_cast<int>(dst.pitch),
                    dst_size, NppiRect{0, 0, dst.width, dst.height}, interpolation, npp_context(stream)),
                 name);
  };
}

#define GPUFILTER_NPP_RESIZE(T, fn) resize_call<T>(fn, #fn, interpolation)

Launch resize_launch(gpufilter::PixelFormat format, int interpolation) {
  using gpufilter::ChannelType;
  const int c = format.channels;
  switch (format.type) {
    case ChannelType::U8:
      if (c == 1) return GPUFILTER_NPP_RESIZE(Npp8u, nppiResize_8u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_RESIZE(Npp8u, nppiResize_8u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_RESIZE(Npp8u, nppiResize_8u_C4R_Ctx);
      break;
    case ChannelType::U16:
      if (c == 1) return GPUFILTER_NPP_RESIZE(Npp16u, nppiResize_16u_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_RESIZE(Npp16u, nppiResize_16u_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_RESIZE(Npp16u, nppiResize_16u_C4R_Ctx);
      break;
    case ChannelType::F32:
      if (c == 1) return GPUFILTER_NPP_RESIZE(Npp32f, nppiResize_32f_C1R_Ctx);
      if (c == 3) return GPUFILTER_NPP_RESIZE(Npp32f, nppiResize_32f_C3R_Ctx);
      if (c == 4) return GPUFILTER_NPP_RESIZE(Npp32f, nppiResize_32f_C4R_Ctx);
      break;
  }
  return {};
}

#undef GPUFILTER_NPP_RESIZE

PeerRow exact_row(const gpufilter::ParamValues& params, Launch launch) {
  PeerRow row;
  row.name = "npp";
  row.reference_params = params;
  row.tolerance = gpufilter::Tolerance{0.0};
  row.launch = std::move(launch);
  return row;
}

}  // namespace

std::vector<PeerRow> npp_geometry_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                        const gpufilter::ParamValues& params) {
  if (op.name == "transpose") {
    Launch launch = transpose_launch(format);
    if (!launch) return {};
    return {exact_row(params, std::move(launch))};
  }
  if (op.name == "flip") {
    if (!params.has("axis")) return {};
    Launch launch = mirror_launch(format, npp_axis(gpufilter::flip_axis_from_name(params.text("axis"))));
    if (!launch) return {};
    return {exact_row(params, std::move(launch))};
  }
  if (op.name == "resize") {
    // The filters NPP shares: area (NPP's super-sampling, for shrinking) and linear.
    if (!params.has("filter")) return {};
    const std::string& filter = params.text("filter");
    int interpolation = 0;
    if (filter == "area") interpolation = NPPI_INTER_SUPER;
    else if (filter == "linear") interpolation = NPPI_INTER_LINEAR;
    else return {};
    Launch launch = resize_launch(format, interpolation);
    if (!launch) return {};
    PeerRow row = exact_row(params, std::move(launch));
    row.tolerance = gpufilter::Tolerance{kResizeToleranceFraction * format.max_value()};
    return {row};
  }
  return {};
}

}  // namespace bench
