// nvJPEG on this GPU, beside which the tool's JPEG stages are judged: what each of its
// backends costs to start and how fast it decodes one file (nvJPEG itself, called
// directly), and then the tool's own JPEG code as io runs it: the per-file codec's
// decode and encode (make_gpu_jpeg_codec) and the hardware engine's batches
// (make_hardware_jpeg_engine, the colour step included).
//
//   gpufilter-nvjpeg-probe LARGE.jpg SMALL.jpg [BATCH]
//
// LARGE is decoded alone (a single-file run), SMALL in batches of BATCH (default 12, the
// tool's call size) copies. Times are wall clock around synchronized calls.
#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpufilter/images.hpp"
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"
#include "gpufilter/io/jpeg_markers.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void check(nvjpegStatus_t status, const char* what) {
  if (status == NVJPEG_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s failed: nvJPEG status %d\n", what, static_cast<int>(status));
  std::exit(1);
}

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

std::vector<unsigned char> read_file(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(file), {});
}

struct Image {
  int width = 0;
  int height = 0;
  unsigned char* device = nullptr;  // interleaved RGB
  nvjpegImage_t view() const {
    nvjpegImage_t image{};
    image.channel[0] = device;
    image.pitch[0] = static_cast<std::size_t>(width) * 3;
    return image;
  }
};

Image allocate_for(nvjpegHandle_t handle, const std::vector<unsigned char>& jpeg) {
  int components = 0;
  nvjpegChromaSubsampling_t subsampling{};
  int widths[NVJPEG_MAX_COMPONENT] = {};
  int heights[NVJPEG_MAX_COMPONENT] = {};
  check(nvjpegGetImageInfo(handle, jpeg.data(), jpeg.size(), &components, &subsampling, widths, heights),
        "nvjpegGetImageInfo");
  Image image{widths[0], heights[0], nullptr};
  void* memory = nullptr;
  check(cudaMalloc(&memory, static_cast<std::size_t>(image.width) * image.height * 3), "cudaMalloc");
  image.device = static_cast<unsigned char*>(memory);
  return image;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double megapixels(const Image& image) { return image.width * static_cast<double>(image.height) / 1e6; }

// First call and median of `runs` more of `step`, in ms.
template <class Step>
std::pair<double, double> first_and_steady(Step step, int runs = 5) {
  Clock::time_point start = Clock::now();
  step();
  const double first = ms_since(start);
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    start = Clock::now();
    step();
    times.push_back(ms_since(start));
  }
  return {first, median(times)};
}

// First call and median of five more, of one single-image decode on `backend`.
void single_decode(const char* name, nvjpegBackend_t backend, const std::vector<unsigned char>& jpeg,
                   cudaStream_t stream) {
  Clock::time_point start = Clock::now();
  nvjpegHandle_t handle = nullptr;
  if (nvjpegCreateEx(backend, nullptr, nullptr, 0, &handle) != NVJPEG_STATUS_SUCCESS) {
    std::printf("| %s | not available | | |\n", name);
    return;
  }
  const double create = ms_since(start);
  nvjpegJpegState_t state = nullptr;
  check(nvjpegJpegStateCreate(handle, &state), "nvjpegJpegStateCreate");
  Image image = allocate_for(handle, jpeg);
  nvjpegImage_t out = image.view();
  const bool batched = backend == NVJPEG_BACKEND_HARDWARE;
  const auto decode = [&] {
    if (batched) {
      const unsigned char* data = jpeg.data();
      const std::size_t length = jpeg.size();
      check(nvjpegDecodeBatched(handle, state, &data, &length, &out, stream), "nvjpegDecodeBatched");
    } else {
      check(nvjpegDecode(handle, state, jpeg.data(), jpeg.size(), NVJPEG_OUTPUT_RGBI, &out, stream), "nvjpegDecode");
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  };
  if (batched) check(nvjpegDecodeBatchedInitialize(handle, state, 1, 1, NVJPEG_OUTPUT_RGBI), "initialize");
  const auto [first, steady] = first_and_steady(decode);
  std::printf("| decode %s, %.1f MP | %.1f | %.1f | %.1f ms (%.0f MP/s) |\n", name, megapixels(image), create, first,
              steady, megapixels(image) / steady * 1e3);
  cudaFree(image.device);
  nvjpegJpegStateDestroy(state);
  nvjpegDestroy(handle);
}

// The tool's view of LARGE's size: a device image to decode into.
gpufilter::DeviceImage image_for(const std::vector<unsigned char>& jpeg) {
  const std::optional<gpufilter::io::JpegHeader> header = gpufilter::io::parse_jpeg_header(jpeg.data(), jpeg.size());
  if (!header) {
    std::fprintf(stderr, "not a JPEG the tool reads\n");
    std::exit(1);
  }
  const int channels = header->components.size() == 1 ? 1 : 3;
  return gpufilter::DeviceImage(header->width, header->height, {gpufilter::ChannelType::U8, channels});
}

// The per-file codec as a workspace makes and runs it: its handle and objects, then one
// file decoded and encoded at quality 95.
void tool_codec(const std::vector<unsigned char>& jpeg, cudaStream_t stream) {
  Clock::time_point start = Clock::now();
  std::unique_ptr<gpufilter::io::GpuJpegCodec> codec = gpufilter::io::make_gpu_jpeg_codec(0, stream);
  const double create = ms_since(start);
  if (!codec) {
    std::printf("| the tool's codec | not available | | |\n");
    return;
  }
  gpufilter::DeviceImage image = image_for(jpeg);
  const double mp = image.width() * static_cast<double>(image.height()) / 1e6;
  const auto decode = [&] {
    if (!codec->decode({{jpeg.data(), jpeg.size()}}, {image.view()}).front()) {
      std::fprintf(stderr, "the tool's codec declined the file\n");
      std::exit(1);
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  };
  const auto [first, steady] = first_and_steady(decode);
  std::printf("| decode, the tool's codec, %.1f MP | %.1f | %.1f | %.1f ms (%.0f MP/s) |\n", mp, create, first, steady,
              mp / steady * 1e3);
  std::vector<unsigned char> bytes;
  const auto encode = [&] {
    if (!codec->encode(image.view(), 95, bytes)) {
      std::fprintf(stderr, "the tool's codec could not encode\n");
      std::exit(1);
    }
  };
  const auto [encode_first, encode_steady] = first_and_steady(encode);
  std::printf("| encode q95, the tool's codec, %.1f MP | | %.1f | %.1f ms (%.0f MP/s) |\n", mp, encode_first,
              encode_steady, mp / encode_steady * 1e3);
}

// The batch engine as a batch makes and runs it: BATCH copies of SMALL in one call.
void tool_engine(const std::vector<unsigned char>& jpeg, int batch) {
  Clock::time_point start = Clock::now();
  std::unique_ptr<gpufilter::io::JpegBatchEngine> engine = gpufilter::io::make_hardware_jpeg_engine(0);
  const double create = ms_since(start);
  if (!engine) {
    std::printf("| the tool's batch engine | not available | | |\n");
    return;
  }
  std::vector<gpufilter::DeviceImage> images;
  std::vector<gpufilter::ImageView> views;
  for (int i = 0; i < batch; ++i) {
    images.push_back(image_for(jpeg));
    views.push_back(images.back().view());
  }
  const gpufilter::io::JpegBytes bytes{jpeg.data(), jpeg.size()};
  if (!engine->accepts(bytes, views.front())) {
    std::printf("| the tool's batch engine | declines SMALL | | |\n");
    return;
  }
  const std::vector<gpufilter::io::JpegBytes> files(static_cast<std::size_t>(batch), bytes);
  const auto decode = [&] {
    if (!engine->decode(files, views)) {
      std::fprintf(stderr, "the tool's batch engine failed\n");
      std::exit(1);
    }
  };
  const auto [first, steady] = first_and_steady(decode, 3);
  const double mp = images[0].width() * static_cast<double>(images[0].height()) / 1e6;
  std::printf("| decode, the tool's batch engine, %d x %.1f MP | %.1f | %.1f | %.1f ms (%.0f images/s, %.0f MP/s) |\n",
              batch, mp, create, first, steady, batch / steady * 1e3, batch * mp / steady * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s LARGE.jpg SMALL.jpg [BATCH]\n", argv[0]);
    return 2;
  }
  const std::vector<unsigned char> large = read_file(argv[1]);
  const std::vector<unsigned char> small = read_file(argv[2]);
  const int batch = argc > 3 ? std::atoi(argv[3]) : 12;
  Clock::time_point start = Clock::now();
  check(cudaFree(nullptr), "CUDA context");
  const double context = ms_since(start);
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::printf("CUDA context: %.1f ms\n\n| step | handle ms | first call ms | steady |\n| --- | ---: | ---: | ---: |\n",
              context);
  single_decode("hardware", NVJPEG_BACKEND_HARDWARE, large, stream);
  single_decode("default", NVJPEG_BACKEND_DEFAULT, large, stream);
  single_decode("gpu_hybrid", NVJPEG_BACKEND_GPU_HYBRID, large, stream);
  single_decode("hybrid (CPU Huffman)", NVJPEG_BACKEND_HYBRID, large, stream);
  tool_codec(large, stream);
  tool_engine(small, batch);
  return 0;
}
