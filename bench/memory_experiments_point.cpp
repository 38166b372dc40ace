// The experiments that run the library's invert: upload paths (pinned + async copy vs
// managed memory) and layouts (interleaved vs planar).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "gpufilter/testing.hpp"
#include "memory_experiments.hpp"

namespace bench::memory {
namespace {

using gpufilter::ChannelType;
using gpufilter::DeviceImage;
using gpufilter::HostImage;
using gpufilter::ImageView;
using gpufilter::PixelFormat;
using gpufilter::PointChannels;
using gpufilter::PointVariant;

int device_attribute(cudaDeviceAttr attribute) {
  int device = 0, value = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

// Moves managed pages to the current device ahead of use (the CUDA 13 form takes a
// location; older toolkits a device number).
void prefetch_to_device(const void* data, std::size_t bytes, cudaStream_t stream) {
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
#if CUDART_VERSION >= 13000
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  GPUFILTER_CUDA_CHECK(cudaMemPrefetchAsync(data, bytes, location, 0, stream));
#else
  GPUFILTER_CUDA_CHECK(cudaMemPrefetchAsync(data, bytes, device, stream));
#endif
}

// The rows of the upload table, in order.
enum UploadPath { kDeviceOnly, kPinnedCopy, kPinnedCopyInvert, kManagedOnDemand, kManagedPrefetch, kManagedResident,
                  kUploadPaths };
const char* const kUploadPathNames[kUploadPaths] = {
    "device memory: invert only (data already on the GPU)",
    "pinned host: cudaMemcpyAsync H2D only",
    "pinned host: cudaMemcpyAsync H2D + invert",
    "managed, written on the host: invert (pages migrate on demand)",
    "managed, written on the host: cudaMemPrefetchAsync + invert",
    "managed, already on the GPU: invert",
};

// One column of the upload table: every path on one buffer size.
std::vector<std::string> upload_column(Context& context, const char* size_name, int width, int height, bool managed_ok) {
  const std::size_t bytes = static_cast<std::size_t>(width) * 4 * static_cast<std::size_t>(height);
  std::vector<std::string> cells(kUploadPaths, "not run");
  // Two device buffers at a time (source or managed, and the destination).
  const std::size_t needed = 2 * bytes + kMemoryMargin;
  if (const std::size_t free_bytes = free_device_bytes(); free_bytes < needed) {
    cells.assign(kUploadPaths, "skipped: " + std::to_string(free_bytes >> 20) + " MiB free, " +
                                   std::to_string(needed >> 20) + " MiB needed");
    return cells;
  }
  const cudaStream_t stream = context.raw_stream();
  const gpufilter::ExecContext& exec = context.exec;
  HostImage host_src(width, height, kRgba), host_dst(width, height, kRgba);
  gpufilter::testing::fill_random(host_src.view(), 13);
  const void* host_data = host_src.view().data;
  FlatBuffer dst(width, height, kRgba);
  const auto inverted = [&] {
    download(context, dst.view(), host_dst);
    return compare_inverted(host_dst.view(), host_src.view(), 0xF);
  };
  const auto cell = [&](UploadPath path, std::optional<double> ms) {
    cells[path] = format_time(ms) + ", " + format_gbps(bytes, ms) + " GB/s";
  };
  const std::string name_suffix = std::string("/") + size_name;
  {
    FlatBuffer src(width, height, kRgba);
    context.upload(host_src, src.view());
    poison(context, dst.view());
    cell(kDeviceOnly, context.measure(
                          "uploads/device" + name_suffix, bytes,
                          [&] { gpufilter::invert(src.view(), dst.view(), PointChannels::all(), PointVariant::Vectorized, exec); },
                          inverted));
    poison(context, src.view());
    cell(kPinnedCopy, context.measure(
                          "uploads/pinned-copy" + name_suffix, bytes,
                          [&] {
                            GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(src.view().data, host_data, bytes,
                                                                 cudaMemcpyHostToDevice, stream));
                          },
                          [&] {
                            download(context, src.view(), host_dst);
                            return compare_bytes(host_dst.view(), 0, host_src.view(), 0, src.view().row_bytes(), false);
                          }));
    poison(context, src.view());
    poison(context, dst.view());
    cell(kPinnedCopyInvert,
         context.measure(
             "uploads/pinned-copy-invert" + name_suffix, bytes,
             [&] {
               GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(src.view().data, host_data, bytes, cudaMemcpyHostToDevice, stream));
               gpufilter::invert(src.view(), dst.view(), PointChannels::all(), PointVariant::Vectorized, exec);
             },
             inverted));
  }
  if (!managed_ok) {
    for (int path = kManagedOnDemand; path <= kManagedResident; ++path) cells[path] = "no managed memory";
    return cells;
  }
  FlatBuffer managed(width, height, kRgba, true);
  const ImageView source = managed.view();
  const auto invert = [&] {
    gpufilter::invert(source, dst.view(), PointChannels::all(), PointVariant::Vectorized, exec);
  };
  // Each sample writes the data on the host first (untimed), which brings the pages back
  // to host memory, as a program that fills an image on the CPU leaves them.
  const auto written_on_host = [&](const std::function<void()>& launch) {
    return [&, launch] {
      context.stream.synchronize();  // no GPU work in flight while the host touches managed pages
      std::memcpy(source.data, host_data, bytes);
      context.flusher.flush(stream);
      return context.timer.time_ms(stream, launch);
    };
  };
  const int samples = bytes >= kLargeCaseBytes ? 3 : std::min(context.options.iterations, 10);
  poison(context, dst.view());
  cell(kManagedOnDemand,
       context.measure_samples("uploads/managed-on-demand" + name_suffix, samples, written_on_host(invert), inverted));
  poison(context, dst.view());
  cell(kManagedPrefetch, context.measure_samples("uploads/managed-prefetch" + name_suffix, samples,
                                                 written_on_host([&] {
                                                   prefetch_to_device(source.data, bytes, stream);
                                                   invert();
                                                 }),
                                                 inverted));
  // The last sample left every page on the GPU; nothing touches them on the host now.
  poison(context, dst.view());
  cell(kManagedResident, context.measure("uploads/managed-resident" + name_suffix, bytes, invert, inverted));
  return cells;
}

}  // namespace

// Claim 8: unified memory against explicit pinned uploads.
void run_uploads(Context& context) {
  const bool managed_ok = device_attribute(cudaDevAttrManagedMemory) != 0;
  const int concurrent = device_attribute(cudaDevAttrConcurrentManagedAccess);
  const std::vector<std::string> eight_k = upload_column(context, "8K", k8KWidth, k8KHeight, managed_ok);
  const std::vector<std::string> gib = upload_column(context, "1GiB", kGiBWidth, kGiBHeight, managed_ok);
  Table table({"path", "8K RGBA u8 (127 MiB)", "1 GiB"});
  for (int path = 0; path < kUploadPaths; ++path) table.add({kUploadPathNames[path], eight_k[path], gib[path]});
  table.print("Upload paths: pinned + cudaMemcpyAsync vs managed memory (seed 000: unified memory)",
              "Time from the first GPU command to the last (CUDA events); GB/s here = the buffer's bytes / that "
              "time (the bytes that reach the GPU), not read + write. invert (all four channels, vectorized) "
              "writes a device buffer, checked against 255 - source after each row. \"written on the host\": "
              "before each sample the host copies the data into the managed buffer (untimed), as a program "
              "filling an image on the CPU would; the median of " +
                  std::string("10 (8K) or 3 (1 GiB) such samples after one warm-up. ") +
                  "cudaDevAttrConcurrentManagedAccess = " + std::to_string(concurrent) +
                  (concurrent ? " (pages migrate on the GPU's page faults)."
                              : " (the driver migrates a managed buffer in bulk at each launch)."));
}

// Claim 6: a point op on interleaved (AoS) and planar (SoA) layouts of the same image.
void run_layouts(Context& context) {
  constexpr PixelFormat kU8{ChannelType::U8, 1};
  const std::size_t moved = 2 * k8KRgbaBytes;
  DeviceImage interleaved_src(k8KWidth, k8KHeight, kRgba), interleaved_dst(k8KWidth, k8KHeight, kRgba);
  DeviceImage planar_src(k8KWidth, 4 * k8KHeight, kU8), planar_dst(k8KWidth, 4 * k8KHeight, kU8);
  HostImage host_interleaved(k8KWidth, k8KHeight, kRgba), host_planar(k8KWidth, 4 * k8KHeight, kU8);
  HostImage host_interleaved_dst(k8KWidth, k8KHeight, kRgba), host_planar_dst(k8KWidth, 4 * k8KHeight, kU8);
  gpufilter::testing::fill_random(host_interleaved.view(), 17);
  gpufilter::testing::fill_random(host_planar.view(), 19);
  context.upload(host_interleaved, interleaved_src.view());
  context.upload(host_planar, planar_src.view());
  const gpufilter::PlanarView planes_src = gpufilter::planar_view(planar_src.view(), 4);
  const gpufilter::PlanarView planes_dst = gpufilter::planar_view(planar_dst.view(), 4);

  Table table({"layout", "channels", "invert vectorized", "invert scalar"});
  for (const bool planar : {false, true}) {
    for (const char* channels : {"rgba", "rgb"}) {
      const PointChannels mask = PointChannels::parse(channels);
      std::vector<std::string> row{planar ? "planar (4 u8 planes)" : "interleaved (u8x4)", channels};
      for (const PointVariant variant : {PointVariant::Vectorized, PointVariant::Scalar}) {
        const ImageView dst = planar ? planar_dst.view() : interleaved_dst.view();
        poison(context, dst);
        const auto ms = context.measure(
            std::string("layouts/") + (planar ? "planar/" : "interleaved/") + channels + "/" +
                gpufilter::to_string(variant),
            moved,
            [&] {
              if (planar) gpufilter::invert(planes_src, planes_dst, mask, variant, context.exec);
              else gpufilter::invert(interleaved_src.view(), interleaved_dst.view(), mask, variant, context.exec);
            },
            [&] {
              const HostImage& actual = planar ? host_planar_dst : host_interleaved_dst;
              download(context, dst, actual);
              return planar ? compare_inverted(actual.view(), host_planar.view(), mask.mask, k8KHeight)
                            : compare_inverted(actual.view(), host_interleaved.view(), mask.mask);
            });
        row.push_back(format_cell(moved, ms));
      }
      table.add(row);
    }
  }
  table.print("Layouts: interleaved (AoS) vs planar (SoA) (seed 000)",
              "invert on 8K RGBA u8: one u8x4 image, or its four channels as planes (PlanarView over a u8x1 image "
              "of 4 x 4320 rows; one launch, one grid z-slice per plane). \"rgb\" leaves alpha as it is (copied, as "
              "--channels rgb): the same bytes move either way.");
}

}  // namespace bench::memory
