// The tool's own JPEG encoder (jpeg_cpu_codec.hpp) on images of arbitrary size, channels,
// quality and thread count, built from the input bytes: its file must be what OpenCV's
// encoder writes with the same quality and the restart interval the file declares (none
// for one band), and decode to the pixels of OpenCV's file without restart markers.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "codecs/jpeg_cpu_codec.hpp"

namespace {

int restart_interval_of(const std::vector<unsigned char>& jpeg) {
  for (std::size_t at = 2; at + 6 <= jpeg.size() && jpeg[at] == 0xFF && jpeg[at + 1] != 0xDA;
       at += 2 + ((std::size_t{jpeg[at + 2]} << 8) | jpeg[at + 3]))
    if (jpeg[at + 1] == 0xDD) return (jpeg[at + 4] << 8) | jpeg[at + 5];
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return 0;
  const int rows = 1 + ((data[0] << 8 | data[1]) % 700);  // up to 700: several bands of 128
  const int cols = 1 + ((data[2] << 8 | data[3]) % 300);
  const int channels = (data[4] % 3 == 0) ? 1 : (data[4] % 3 == 1) ? 3 : 4;
  const int quality = data[5] % 101;
  const int threads = 1 + data[4] / 3 % 8;
  cv::Mat image(rows, cols, CV_MAKETYPE(CV_8U, channels));
  // The rest of the input, repeated, as the pixels.
  const std::size_t pixels = image.total() * image.elemSize();
  for (std::size_t i = 0; i < pixels; ++i) image.data[i] = size > 6 ? data[6 + i % (size - 6)] : 0;
  std::vector<unsigned char> ours;
  if (!gpufilter::io::jpeg_cpu::encode(image, quality, ours, threads)) std::abort();
  std::vector<unsigned char> theirs;
  std::vector<int> params{cv::IMWRITE_JPEG_QUALITY, quality};
  if (const int interval = restart_interval_of(ours); interval > 0)
    params.insert(params.end(), {cv::IMWRITE_JPEG_RST_INTERVAL, interval});
  if (!cv::imencode(".jpg", image, theirs, params) || ours != theirs) std::abort();
  std::vector<unsigned char> plain;
  if (!cv::imencode(".jpg", image, plain, {cv::IMWRITE_JPEG_QUALITY, quality})) std::abort();
  const cv::Mat a = cv::imdecode(ours, cv::IMREAD_UNCHANGED), b = cv::imdecode(plain, cv::IMREAD_UNCHANGED);
  if (a.size() != b.size() || a.type() != b.type() || cv::norm(a, b, cv::NORM_INF) != 0) std::abort();
  return 0;
}
