// The PNG files the tool's own reader declines, read through libpng (png_libpng_reader):
// the same pixels as OpenCV's decoder for every colour type, bit depth, tRNS and
// interlacing; libpng's complaints sorted by the chunk it was reading.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <png.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codecs/png_chunk_lengths.hpp"
#include "codecs/png_libpng_reader.hpp"

namespace gpufilter::io {
namespace {

using Bytes = std::vector<unsigned char>;

struct Kind {
  int colour_type;
  int bit_depth;
  bool transparency;  // a tRNS chunk
  bool interlaced;
};

void append(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<Bytes*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + length);
}

// A 13x11 image of `kind` with varied samples, written by libpng.
Bytes write_png(const Kind& kind) {
  constexpr png_uint_32 kWidth = 13;
  constexpr png_uint_32 kHeight = 11;
  Bytes out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png)) != 0) {
    png_destroy_write_struct(&png, &info);
    return {};
  }
  png_set_write_fn(png, &out, append, nullptr);
  png_set_IHDR(png, info, kWidth, kHeight, kind.bit_depth, kind.colour_type,
               kind.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  const int levels = 1 << kind.bit_depth;
  if (kind.colour_type == PNG_COLOR_TYPE_PALETTE) {
    std::vector<png_color> palette(static_cast<std::size_t>(levels));
    for (int i = 0; i < levels; ++i)
      palette[static_cast<std::size_t>(i)] = png_color{static_cast<png_byte>(i * 37), static_cast<png_byte>(255 - i * 11),
                                                       static_cast<png_byte>(i * 5)};
    png_set_PLTE(png, info, palette.data(), levels);
    if (kind.transparency) {
      std::vector<png_byte> alpha(static_cast<std::size_t>(levels / 2 + 1));
      for (std::size_t i = 0; i < alpha.size(); ++i) alpha[i] = static_cast<png_byte>(i * 60 % 256);
      png_set_tRNS(png, info, alpha.data(), static_cast<int>(alpha.size()), nullptr);
    }
  } else if (kind.transparency) {
    png_color_16 colour{};
    colour.gray = static_cast<png_uint_16>(levels / 3);
    colour.red = static_cast<png_uint_16>(levels / 3);
    colour.green = static_cast<png_uint_16>(levels / 5);
    colour.blue = static_cast<png_uint_16>(levels / 7);
    png_set_tRNS(png, info, nullptr, 0, &colour);
  }
  png_write_info(png, info);
  const std::size_t row_bytes = png_get_rowbytes(png, info);
  std::vector<Bytes> rows(kHeight, Bytes(row_bytes));
  std::vector<png_bytep> pointers;
  std::uint32_t state = 12345u + static_cast<std::uint32_t>(kind.colour_type * 100 + kind.bit_depth);
  for (Bytes& row : rows) {
    for (unsigned char& byte : row) {
      state = state * 1664525u + 1013904223u;
      byte = static_cast<unsigned char>(state >> 24);
    }
    if (kind.colour_type == PNG_COLOR_TYPE_PALETTE && kind.bit_depth == 8)
      for (unsigned char& byte : row) byte = static_cast<unsigned char>(byte % levels);
    pointers.push_back(row.data());
  }
  png_write_image(png, pointers.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

std::string describe(const Kind& kind) {
  return "colour type " + std::to_string(kind.colour_type) + ", " + std::to_string(kind.bit_depth) + "-bit" +
         (kind.transparency ? ", tRNS" : "") + (kind.interlaced ? ", interlaced" : "");
}

TEST(PngLibpngReader, DecodesEveryKindAsOpenCvDoes) {
  std::vector<Kind> kinds;
  for (const bool interlaced : {false, true}) {
    for (const int depth : {1, 2, 4, 8, 16}) {
      for (const bool transparency : {false, true}) {
        kinds.push_back({PNG_COLOR_TYPE_GRAY, depth, transparency, interlaced});
        if (depth <= 8) kinds.push_back({PNG_COLOR_TYPE_PALETTE, depth, transparency, interlaced});
        if (depth >= 8) kinds.push_back({PNG_COLOR_TYPE_RGB, depth, transparency, interlaced});
      }
      if (depth >= 8) {
        kinds.push_back({PNG_COLOR_TYPE_GRAY_ALPHA, depth, false, interlaced});
        kinds.push_back({PNG_COLOR_TYPE_RGB_ALPHA, depth, false, interlaced});
      }
    }
  }
  for (const Kind& kind : kinds) {
    const Bytes file = write_png(kind);
    ASSERT_FALSE(file.empty()) << describe(kind);
    const cv::Mat expected = cv::imdecode(file, cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(expected.empty()) << describe(kind);
    const LibpngDecodeResult result = decode_png_with_libpng(file.data(), file.size(), std::uint64_t{1} << 30);
    ASSERT_EQ(result.damage, "") << describe(kind);
    EXPECT_TRUE(result.notes.empty()) << describe(kind);
    ASSERT_EQ(result.image.type(), expected.type()) << describe(kind);
    ASSERT_EQ(result.image.size(), expected.size()) << describe(kind);
    EXPECT_EQ(cv::norm(result.image, expected, cv::NORM_INF), 0.0) << describe(kind);
  }
}

// length, type, data, CRC
Bytes chunk(const std::string& type, const Bytes& data) {
  Bytes out;
  const auto put = [&](std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(value >> shift));
  };
  put(static_cast<std::uint32_t>(data.size()));
  Bytes body(type.begin(), type.end());
  body.insert(body.end(), data.begin(), data.end());
  out.insert(out.end(), body.begin(), body.end());
  put(static_cast<std::uint32_t>(::crc32(0, body.data(), static_cast<uInt>(body.size()))));
  return out;
}

// `file` with `extra` put in before its first IDAT chunk.
Bytes with_before_idat(Bytes file, const Bytes& extra) {
  const std::string text(file.begin(), file.end());
  const std::size_t idat = text.find("IDAT") - 4;
  file.insert(file.begin() + static_cast<std::ptrdiff_t>(idat), extra.begin(), extra.end());
  return file;
}

TEST(PngLibpngReader, AncillaryFaultsAreNotesCriticalOnesDamage) {
  const Bytes plain = write_png({PNG_COLOR_TYPE_PALETTE, 4, false, false});
  const cv::Mat expected = cv::imdecode(plain, cv::IMREAD_UNCHANGED);
  // Empty ancillary chunks: libpng's benign errors, the sPLT one without its chunk's name.
  Bytes faulty = with_before_idat(plain, chunk("sPLT", {}));
  for (const char* type : {"zTXt", "iTXt", "pHYs", "tIME", "gAMA"}) faulty = with_before_idat(faulty, chunk(type, {}));
  const LibpngDecodeResult noted = decode_png_with_libpng(faulty.data(), faulty.size(), std::uint64_t{1} << 30);
  ASSERT_EQ(noted.damage, "");
  EXPECT_EQ(cv::norm(noted.image, expected, cv::NORM_INF), 0.0);
  ASSERT_FALSE(noted.notes.empty());
  bool named_splt = false;
  for (const std::string& note : noted.notes) named_splt = named_splt || note.find("sPLT: ") != std::string::npos;
  EXPECT_TRUE(named_splt) << noted.notes.front();

  // An ancillary chunk's CRC: a note. IDAT's: damage.
  Bytes text = chunk("tEXt", Bytes{'k', 0, 'v'});
  text.back() ^= 1;
  const Bytes bad_text = with_before_idat(plain, text);
  const LibpngDecodeResult crc_note = decode_png_with_libpng(bad_text.data(), bad_text.size(), std::uint64_t{1} << 30);
  EXPECT_EQ(crc_note.damage, "");
  EXPECT_FALSE(crc_note.notes.empty());
  Bytes bad_idat = plain;
  bad_idat[bad_idat.size() - 13] ^= 1;  // the last byte of IDAT's CRC, before IEND's 12 bytes
  const LibpngDecodeResult crc_damage = decode_png_with_libpng(bad_idat.data(), bad_idat.size(), std::uint64_t{1} << 30);
  EXPECT_TRUE(crc_damage.image.empty());
  EXPECT_NE(crc_damage.damage.find("IDAT"), std::string::npos) << crc_damage.damage;

  // Cut short: damage, as libpng's file reader says it.
  const LibpngDecodeResult cut = decode_png_with_libpng(plain.data(), plain.size() / 2, std::uint64_t{1} << 30);
  EXPECT_TRUE(cut.image.empty());
  EXPECT_FALSE(cut.damage.empty());
}

TEST(PngChunkLengths, ALengthPastTheEndOfTheFileIsFound) {
  const Bytes plain = write_png({PNG_COLOR_TYPE_PALETTE, 8, false, false});
  EXPECT_EQ(png_chunk_length_problem(plain.data(), plain.size()), "");
  // The file cut anywhere inside its chunks: a length that runs past its end, or a
  // header cut short, which the decoder reports.
  EXPECT_NE(png_chunk_length_problem(plain.data(), plain.size() - 20), "");
  Bytes lying = with_before_idat(plain, chunk("tEXt", Bytes{'k', 0, 'v'}));
  const std::string text(lying.begin(), lying.end());
  const std::size_t length_at = text.find("tEXt") - 4;
  lying[length_at] = 0x7F;
  lying[length_at + 1] = 0xFF;
  lying[length_at + 2] = 0xFF;
  lying[length_at + 3] = 0xF0;
  const std::string problem = png_chunk_length_problem(lying.data(), lying.size());
  EXPECT_NE(problem.find("tEXt"), std::string::npos) << problem;
  EXPECT_NE(problem.find("2147483632 bytes"), std::string::npos) << problem;
  lying[length_at] = 0x80;  // beyond 2^31 - 1
  EXPECT_NE(png_chunk_length_problem(lying.data(), lying.size()).find("more than a PNG chunk may hold"),
            std::string::npos);
  // Not a PNG: nothing to say.
  EXPECT_EQ(png_chunk_length_problem(reinterpret_cast<const unsigned char*>("GIF89a"), 6), "");
}

}  // namespace
}  // namespace gpufilter::io
