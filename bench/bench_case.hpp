#pragma once
// One bench case: a launch to time on one image size and format, with everything
// needed to check its output against the CPU reference before it is timed.
#include <cuda_runtime_api.h>

#include <functional>
#include <string>

#include "cuda_timer.hpp"
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/tolerance.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/stream.hpp"
#include "options.hpp"
#include "results.hpp"

namespace bench {

using Launch = std::function<void(const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t)>;
// A data op's launch: writes its result into `result`, device memory for the op's
// DataLayout (a peer may store its own kind of values there, and checks them itself).
using DataLaunch = std::function<void(const gpufilter::ImageView& src, double* result, cudaStream_t)>;
// Judges a data launch's downloaded result against the reference's table: empty when
// it passes, else what is wrong.
using DataCheck = std::function<std::string(const gpufilter::DataLayout& layout, const double* actual,
                                            const double* expected)>;

struct CaseSpec {
  CaseResult row;  // name and identity (op, variant, format, size, border, peer); the rest is filled by the run
  const gpufilter::Operation* op = nullptr;  // its bytes_moved and run_reference serve every row of the op, peers too
  gpufilter::PixelFormat format{};
  ImageSize size;
  gpufilter::ParamValues params;  // what bytes_moved is computed for
  // What the output is checked against: the op's reference with these parameters and
  // this border, within `tolerance` per channel. Peers compute a slightly different
  // function (NPP's own Gaussian weights, its own border), so theirs differ from ours.
  gpufilter::ParamValues reference_params;
  gpufilter::Border reference_border;
  gpufilter::Tolerance tolerance;
  Launch launch;  // image ops: writes an image of the op's output shape
  // Data ops (op->produces_image() false) time data_launch and judge it with check_data.
  DataLaunch data_launch;
  DataCheck check_data;

  void run(const gpufilter::ImageView& src, const gpufilter::ImageView& dst, double* result,
           cudaStream_t stream) const {
    if (data_launch) {
      data_launch(src, result, stream);
    } else {
      launch(src, dst, stream);
    }
  }
};

// Parameter values as one line of text ("radius=2/sigma=1"), equal for equal values:
// the key rows and cached references are matched by.
std::string params_text(const gpufilter::ParamValues& params);

// The GPU objects shared by every case; created once a device is known to exist.
struct BenchContext {
  explicit BenchContext(BenchOptions opts);

  BenchOptions options;
  gpufilter::Stream stream;
  L2Flusher flusher;
  EventTimer timer;
};
void set_bench_context(BenchContext* context);
BenchContext& bench_context();

// Device views of a case's source and destination after a checked run, ready to time.
struct PreparedCase {
  gpufilter::ImageView src;
  gpufilter::ImageView dst;  // image ops
  double* result = nullptr;  // data ops
  double max_error = 0.0;
};

// Fills the source with random data (cached per format and size), poisons the
// destination, runs the launch once, downloads and compares with the reference
// (cached, so variants of one op share one CPU run). Throws std::runtime_error when
// the output does not match, gpufilter::Error when CUDA fails.
PreparedCase prepare_and_check(const CaseSpec& spec);

// Registers `spec` with Google Benchmark: checked, warmed up, then timed with manual
// (CUDA event) time; its row goes to Results::global().
void register_case(const CaseSpec& spec);

// Drops the cached images (host and device) before the GPU context goes away.
void release_case_cache();

}  // namespace bench
