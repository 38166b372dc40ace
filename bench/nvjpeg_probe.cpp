// nvJPEG's own figures on this GPU, beside which the tool's JPEG stages are judged:
// what each backend costs to start, and how fast it decodes and encodes once started.
//
//   gpufilter-nvjpeg-probe LARGE.jpg SMALL.jpg [BATCH]
//
// LARGE is decoded alone (a single-file run), SMALL in batches of BATCH (default 32)
// copies on the hardware backend. Times are wall clock around synchronized calls.
#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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
  start = Clock::now();
  if (batched) check(nvjpegDecodeBatchedInitialize(handle, state, 1, 1, NVJPEG_OUTPUT_RGBI), "initialize");
  decode();
  const double first = ms_since(start);
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    start = Clock::now();
    decode();
    times.push_back(ms_since(start));
  }
  const double steady = median(times);
  std::printf("| decode %s, %.1f MP | %.1f | %.1f | %.1f ms (%.0f MP/s) |\n", name, megapixels(image), create, first,
              steady, megapixels(image) / steady * 1e3);
  cudaFree(image.device);
  nvjpegJpegStateDestroy(state);
  nvjpegDestroy(handle);
}

void batch_decode(const std::vector<unsigned char>& jpeg, int batch, cudaStream_t stream) {
  nvjpegHandle_t handle = nullptr;
  if (nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, 0, &handle) != NVJPEG_STATUS_SUCCESS) return;
  nvjpegJpegState_t state = nullptr;
  check(nvjpegJpegStateCreate(handle, &state), "nvjpegJpegStateCreate");
  std::vector<Image> images;
  std::vector<nvjpegImage_t> outputs;
  std::vector<const unsigned char*> data(static_cast<std::size_t>(batch), jpeg.data());
  std::vector<std::size_t> lengths(static_cast<std::size_t>(batch), jpeg.size());
  for (int i = 0; i < batch; ++i) {
    images.push_back(allocate_for(handle, jpeg));
    outputs.push_back(images.back().view());
  }
  check(nvjpegDecodeBatchedInitialize(handle, state, batch, 1, NVJPEG_OUTPUT_RGBI), "initialize");
  std::vector<double> times;
  for (int i = 0; i < 4; ++i) {
    const Clock::time_point start = Clock::now();
    check(nvjpegDecodeBatched(handle, state, data.data(), lengths.data(), outputs.data(), stream), "batched");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    times.push_back(ms_since(start));
  }
  times.erase(times.begin());  // the first call sets up
  const double steady = median(times);
  std::printf("| decode hardware, batch of %d x %.1f MP | | | %.1f ms (%.0f images/s, %.0f MP/s) |\n", batch,
              megapixels(images[0]), steady, batch / steady * 1e3, batch * megapixels(images[0]) / steady * 1e3);
  for (Image& image : images) cudaFree(image.device);
  nvjpegJpegStateDestroy(state);
  nvjpegDestroy(handle);
}

void encode(const std::vector<unsigned char>& jpeg, cudaStream_t stream) {
  nvjpegHandle_t handle = nullptr;
  check(nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, nullptr, nullptr, 0, &handle), "nvjpegCreateEx");
  nvjpegJpegState_t state = nullptr;
  check(nvjpegJpegStateCreate(handle, &state), "nvjpegJpegStateCreate");
  Image image = allocate_for(handle, jpeg);
  nvjpegImage_t source = image.view();
  check(nvjpegDecode(handle, state, jpeg.data(), jpeg.size(), NVJPEG_OUTPUT_RGBI, &source, stream), "nvjpegDecode");
  Clock::time_point start = Clock::now();
  nvjpegEncoderState_t encoder = nullptr;
  nvjpegEncoderParams_t params = nullptr;
  check(nvjpegEncoderStateCreate(handle, &encoder, stream), "nvjpegEncoderStateCreate");
  check(nvjpegEncoderParamsCreate(handle, &params, stream), "nvjpegEncoderParamsCreate");
  check(nvjpegEncoderParamsSetQuality(params, 95, stream), "quality");
  check(nvjpegEncoderParamsSetSamplingFactors(params, NVJPEG_CSS_420, stream), "sampling");
  const double create = ms_since(start);
  std::vector<unsigned char> bytes;
  const auto run = [&] {
    check(nvjpegEncodeImage(handle, encoder, params, &source, NVJPEG_INPUT_RGBI, image.width, image.height, stream),
          "nvjpegEncodeImage");
    std::size_t length = 0;
    check(nvjpegEncodeRetrieveBitstream(handle, encoder, nullptr, &length, stream), "retrieve length");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    bytes.resize(length);
    check(nvjpegEncodeRetrieveBitstream(handle, encoder, bytes.data(), &length, stream), "retrieve");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  };
  start = Clock::now();
  run();
  const double first = ms_since(start);
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    start = Clock::now();
    run();
    times.push_back(ms_since(start));
  }
  const double steady = median(times);
  std::printf("| encode q95 4:2:0, %.1f MP | %.1f | %.1f | %.1f ms (%.0f MP/s) |\n", megapixels(image), create, first,
              steady, megapixels(image) / steady * 1e3);
  nvjpegEncoderParamsDestroy(params);
  nvjpegEncoderStateDestroy(encoder);
  cudaFree(image.device);
  nvjpegJpegStateDestroy(state);
  nvjpegDestroy(handle);
}

// What a codec costs per workspace beyond its handle: the objects the tool's codec makes
// (cli/nvjpeg_codec.cpp), each timed, on a handle of `backend`; and whether that one
// handle also serves the default decoder and the encoder.
void workspace_objects(const char* name, nvjpegBackend_t backend, cudaStream_t stream) {
  nvjpegHandle_t handle = nullptr;
  if (nvjpegCreateEx(backend, nullptr, nullptr, 0, &handle) != NVJPEG_STATUS_SUCCESS) return;
  std::printf("\nper-workspace objects on a %s handle (ms):", name);
  const auto timed = [](const char* what, auto make) {
    const Clock::time_point start = Clock::now();
    const nvjpegStatus_t status = make();
    std::printf(" %s %.1f%s;", what, ms_since(start), status == NVJPEG_STATUS_SUCCESS ? "" : " (refused)");
  };
  nvjpegJpegState_t state = nullptr;
  nvjpegJpegDecoder_t decoder = nullptr;
  nvjpegJpegState_t decoder_state = nullptr;
  nvjpegBufferPinned_t pinned = nullptr;
  nvjpegBufferDevice_t device = nullptr;
  nvjpegJpegStream_t parsed = nullptr;
  nvjpegEncoderState_t encoder = nullptr;
  nvjpegEncoderParams_t params = nullptr;
  timed("jpeg state", [&] { return nvjpegJpegStateCreate(handle, &state); });
  timed("batched init 1", [&] { return nvjpegDecodeBatchedInitialize(handle, state, 1, 1, NVJPEG_OUTPUT_RGBI); });
  timed("default decoder", [&] { return nvjpegDecoderCreate(handle, NVJPEG_BACKEND_DEFAULT, &decoder); });
  if (decoder != nullptr) timed("decoder state", [&] { return nvjpegDecoderStateCreate(handle, decoder, &decoder_state); });
  timed("pinned buffer", [&] { return nvjpegBufferPinnedCreate(handle, nullptr, &pinned); });
  timed("device buffer", [&] { return nvjpegBufferDeviceCreate(handle, nullptr, &device); });
  timed("stream", [&] { return nvjpegJpegStreamCreate(handle, &parsed); });
  timed("encoder state", [&] { return nvjpegEncoderStateCreate(handle, &encoder, stream); });
  timed("encoder params", [&] { return nvjpegEncoderParamsCreate(handle, &params, stream); });
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s LARGE.jpg SMALL.jpg [BATCH]\n", argv[0]);
    return 2;
  }
  const std::vector<unsigned char> large = read_file(argv[1]);
  const std::vector<unsigned char> small = read_file(argv[2]);
  const int batch = argc > 3 ? std::atoi(argv[3]) : 32;
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
  batch_decode(small, batch, stream);
  encode(large, stream);
  workspace_objects("hardware", NVJPEG_BACKEND_HARDWARE, stream);
  workspace_objects("default", NVJPEG_BACKEND_DEFAULT, stream);
  workspace_objects("default (second)", NVJPEG_BACKEND_DEFAULT, stream);
  return 0;
}
