// gpufilter/jpeg_color.hpp's CPU side against libjpeg itself: a JPEG decoded to RGB the
// usual way (fancy upsampling, the integer colour conversion) equals its raw planes
// (jpeg_read_raw_data: the same inverse DCT, nothing after it) put through
// ycc_planes_to_rgb_cpu, on every subsampling it takes, odd sizes and the narrow images
// libjpeg upsamples by replication. The GPU side is held against this one
// (gpu_jpeg_color_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <jpeglib.h>

#include "gpufilter/error.hpp"
#include "gpufilter/jpeg_color.hpp"

namespace {

struct Encoded {
  unsigned char* bytes = nullptr;
  unsigned long size = 0;
  ~Encoded() { std::free(bytes); }
};

// A smooth gradient with noise and sharp edges (colour edges are where the filters differ).
std::vector<std::uint8_t> test_rgb(int width, int height, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> noise(-20, 20);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        const int edge = ((x / 5 + y / 3 + c) % 3 == 0) ? 180 : 0;
        const int value = (x * 255 / width + y * 97 / height + c * 40 + edge) % 256 + noise(random);
        rgb[(static_cast<std::size_t>(y) * width + x) * 3 + c] = static_cast<std::uint8_t>(value < 0 ? 0 : value > 255 ? 255 : value);
      }
  return rgb;
}

void encode(const std::vector<std::uint8_t>& rgb, int width, int height, int h, int v, Encoded& out) {
  jpeg_compress_struct cinfo{};
  jpeg_error_mgr errors{};
  cinfo.err = jpeg_std_error(&errors);
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &out.bytes, &out.size);
  cinfo.image_width = static_cast<JDIMENSION>(width);
  cinfo.image_height = static_cast<JDIMENSION>(height);
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, 85, TRUE);
  cinfo.comp_info[0].h_samp_factor = h;
  cinfo.comp_info[0].v_samp_factor = v;
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(rgb.data() + static_cast<std::size_t>(cinfo.next_scanline) * width * 3);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
}

// A decompressor over `file`, its header read (libjpeg's defaults: fancy upsampling, the
// accurate integer inverse DCT); `raw` asks for the planes instead of RGB.
struct Decompressor {
  jpeg_decompress_struct cinfo{};
  jpeg_error_mgr errors{};
  Decompressor(const Encoded& file, bool raw) {
    cinfo.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, file.bytes, file.size);
    jpeg_read_header(&cinfo, TRUE);
    if (raw) cinfo.raw_data_out = TRUE;  // the planes, no colour space chosen
    else cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);
  }
  ~Decompressor() {
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
  }
};

std::vector<std::uint8_t> decode_rgb(const Encoded& file) {
  Decompressor reader(file, false);
  jpeg_decompress_struct& cinfo = reader.cinfo;
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(cinfo.output_width) * cinfo.output_height * 3);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = rgb.data() + static_cast<std::size_t>(cinfo.output_scanline) * cinfo.output_width * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  return rgb;
}

// The three planes before upsampling, each its component's downsampled size.
struct Planes {
  std::vector<std::uint8_t> data[3];
  int width[3] = {};
  int height[3] = {};
  std::size_t pitch[3] = {};
};

Planes decode_planes(const Encoded& file) {
  Decompressor reader(file, true);
  jpeg_decompress_struct& cinfo = reader.cinfo;
  Planes planes;
  const int group = cinfo.max_v_samp_factor * DCTSIZE;  // image rows a jpeg_read_raw_data call
  std::vector<std::vector<JSAMPROW>> rows(3);
  for (int c = 0; c < 3; ++c) {
    const jpeg_component_info& comp = cinfo.comp_info[c];
    planes.width[c] = static_cast<int>(comp.downsampled_width);
    planes.height[c] = static_cast<int>(comp.downsampled_height);
    planes.pitch[c] = static_cast<std::size_t>(comp.width_in_blocks) * DCTSIZE;
    const std::size_t padded_rows = static_cast<std::size_t>(comp.height_in_blocks + comp.v_samp_factor) * DCTSIZE;
    planes.data[c].assign(planes.pitch[c] * padded_rows, 0);
  }
  for (int y = 0; y < static_cast<int>(cinfo.output_height); y += group) {
    JSAMPARRAY arrays[3];
    for (int c = 0; c < 3; ++c) {
      const jpeg_component_info& comp = cinfo.comp_info[c];
      const int first = y / cinfo.max_v_samp_factor * comp.v_samp_factor;
      rows[static_cast<std::size_t>(c)].clear();
      for (int r = 0; r < comp.v_samp_factor * DCTSIZE; ++r)
        rows[static_cast<std::size_t>(c)].push_back(planes.data[c].data() + (first + r) * planes.pitch[c]);
      arrays[c] = rows[static_cast<std::size_t>(c)].data();
    }
    jpeg_read_raw_data(&cinfo, arrays, static_cast<JDIMENSION>(group));
  }
  return planes;
}

gpufilter::ImageView plane_view(Planes& planes, int c) {
  return {planes.data[c].data(), planes.width[c], planes.height[c], planes.pitch[c], {gpufilter::ChannelType::U8, 1}};
}

struct Case {
  int width, height, h, v;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.width << "x" << c.height << " h" << c.h << "v" << c.v; }

class JpegColor : public ::testing::TestWithParam<Case> {};

TEST_P(JpegColor, PlanesThroughTheCpuSideEqualLibjpegsOwnRgb) {
  const Case c = GetParam();
  const std::vector<std::uint8_t> source = test_rgb(c.width, c.height, static_cast<unsigned>(c.width * 131 + c.height));
  Encoded file;
  encode(source, c.width, c.height, c.h, c.v, file);
  const std::vector<std::uint8_t> expected = decode_rgb(file);
  Planes planes = decode_planes(file);
  ASSERT_EQ(planes.width[0], c.width);
  std::vector<std::uint8_t> ours(expected.size(), 0xA5);  // poisoned
  gpufilter::YccPlanes ycc{plane_view(planes, 0), plane_view(planes, 1), plane_view(planes, 2), c.h, c.v};
  const gpufilter::ImageView dst{ours.data(), c.width, c.height, static_cast<std::size_t>(c.width) * 3,
                                 {gpufilter::ChannelType::U8, 3}};
  gpufilter::ycc_planes_to_rgb_cpu(ycc, dst);
  int differing = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) differing += ours[i] != expected[i];
  EXPECT_EQ(differing, 0) << "of " << ours.size() << " samples, " << c.width << "x" << c.height << " h" << c.h << "v"
                          << c.v;
}

INSTANTIATE_TEST_SUITE_P(Subsamplings, JpegColor,
                         ::testing::Values(Case{64, 48, 2, 2}, Case{37, 23, 2, 2}, Case{101, 67, 2, 2},
                                           Case{4, 5, 2, 2}, Case{3, 3, 2, 2}, Case{1, 1, 2, 2}, Case{6, 9, 2, 2},
                                           Case{37, 23, 2, 1}, Case{4, 7, 2, 1}, Case{37, 23, 1, 2},
                                           Case{2, 9, 1, 2}, Case{37, 23, 1, 1}));

TEST(JpegColorChecks, WrongChromaSizesAreRefused) {
  std::vector<std::uint8_t> bytes(64 * 64 * 3);
  const gpufilter::ImageView y{bytes.data(), 10, 10, 10, {gpufilter::ChannelType::U8, 1}};
  const gpufilter::ImageView chroma{bytes.data(), 4, 5, 10, {gpufilter::ChannelType::U8, 1}};  // 5x5 expected
  const gpufilter::ImageView dst{bytes.data(), 10, 10, 30, {gpufilter::ChannelType::U8, 3}};
  EXPECT_THROW(gpufilter::ycc_planes_to_rgb_cpu({y, chroma, chroma, 2, 2}, dst), gpufilter::Error);
  EXPECT_THROW(gpufilter::ycc_planes_to_rgb_cpu({y, chroma, chroma, 3, 2}, dst), gpufilter::Error);
}

}  // namespace
