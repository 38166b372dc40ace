#pragma once
// Peers: what a user would call instead of the library for the same op. Each peer row
// is timed and checked like the library's own variants and shares their naming:
// <op>/<peer>/<format>/<size>[/<border the peer supports>].
#include <string>
#include <vector>

#include "bench_case.hpp"
#include "gpufilter/registry.hpp"

namespace bench {

struct PeerRow {
  std::string name;          // "npp", "cudaMemcpy2D"
  std::string border_label;  // appended to the row's name where the op uses a border
  gpufilter::ParamValues reference_params;
  gpufilter::Border reference_border;
  gpufilter::Tolerance tolerance;
  Launch launch;  // image ops
  // Data ops: the peer's launch and how its result is judged (a peer may compute less
  // than the op, e.g. one sum for all channels).
  DataLaunch data_launch;
  DataCheck check_data;
};

// cudaMemcpy2DAsync for the copy op.
std::vector<PeerRow> copy_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                const gpufilter::ParamValues& params);

#ifdef GPUFILTER_HAVE_NPP
// nppiFilterGaussBorder_*_Ctx for blur, nppiFilterBoxBorder_*_Ctx for box (npp_peers.cpp,
// built where NPP is found).
std::vector<PeerRow> npp_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                               const gpufilter::ParamValues& params);
#endif

#ifdef GPUFILTER_HAVE_NPP_GEOMETRY
// nppiTranspose for transpose, nppiMirror for flip, nppiResize (area as super-sampling,
// linear) for resize (npp_geometry_peers.cpp, built where nppig and nppidei are found;
// npp_peers() returns them).
std::vector<PeerRow> npp_geometry_peers(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                                        const gpufilter::ParamValues& params);
#endif

}  // namespace bench
