// XMP through Exiv2 (image_metadata.hpp): a packet with more namespaces than the bound is
// not decoded at all; one within it leaves nothing registered once read or written, so
// files do not cost more as a process goes on; threads reading and writing XMP at once
// each keep their own.
#include <gtest/gtest.h>

#include <exiv2/exiv2.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/io/image_metadata.hpp"
#include "metadata/xmp_bounds.hpp"

namespace gpufilter::io::xmp_metadata_test {
namespace {

namespace fs = std::filesystem;

// An XMP packet declaring `count` namespaces of its own (prefix `tag`N, URI
// http://example.com/`tag`/N/), each on a description of its own as editors write them,
// with one property "p" = "`tag`-vN" (where `properties`; without, the packet is small
// enough for a JPEG's APP1 segment however many namespaces it declares).
std::string packet(const std::string& tag, int count, bool properties = true) {
  std::string descriptions;
  for (int i = 0; i < count; ++i) {
    const std::string prefix = tag + std::to_string(i);
    const std::string uri = properties ? "http://example.com/" + tag + "/" + std::to_string(i) + "/" : "u:" + prefix;
    descriptions += "<rdf:Description" + std::string(properties ? " rdf:about=\"\"" : "") + " xmlns:" + prefix +
                    "=\"" + uri + "\"" + (properties ? " " + prefix + ":p=\"" + tag + "-v" + std::to_string(i) + "\"" : "") +
                    "/>";
  }
  return "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
         "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">" +
         descriptions + "</rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>";
}

std::vector<unsigned char> encoded(const std::string& suffix) {
  cv::Mat image(6, 7, CV_8UC3, cv::Scalar(10, 120, 230));
  std::vector<unsigned char> bytes;
  EXPECT_TRUE(cv::imencode(suffix, image, bytes));
  return bytes;
}

void put_big_endian(std::vector<unsigned char>& out, std::uint32_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

// A PNG with `xmp` in an iTXt chunk after IHDR, zlib-compressed where asked.
std::vector<unsigned char> png_with_xmp(const std::string& xmp, bool compress) {
  std::vector<unsigned char> png = encoded(".png");
  std::string text = xmp;
  if (compress) {
    uLongf size = compressBound(static_cast<uLong>(xmp.size()));
    text.assign(size, '\0');
    EXPECT_EQ(::compress(reinterpret_cast<Bytef*>(text.data()), &size, reinterpret_cast<const Bytef*>(xmp.data()),
                         static_cast<uLong>(xmp.size())),
              Z_OK);
    text.resize(size);
  }
  std::string data = std::string("XML:com.adobe.xmp") + '\0' + (compress ? '\1' : '\0') + '\0' + '\0' + '\0' + text;
  std::vector<unsigned char> chunk;
  put_big_endian(chunk, static_cast<std::uint32_t>(data.size()), 4);
  const std::string typed = "iTXt" + data;
  chunk.insert(chunk.end(), typed.begin(), typed.end());
  put_big_endian(chunk, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(typed.data()),
                                                         static_cast<uInt>(typed.size()))),
                 4);
  png.insert(png.begin() + 33, chunk.begin(), chunk.end());  // signature (8) + IHDR (25)
  return png;
}

// A JPEG with `xmp` in an APP1 segment after SOI.
std::vector<unsigned char> jpeg_with_xmp(const std::string& xmp) {
  std::vector<unsigned char> jpeg = encoded(".jpg");
  EXPECT_LT(xmp.size(), 65000u) << "the packet does not fit in one segment";
  const std::string payload = std::string("http://ns.adobe.com/xap/1.0/") + '\0' + xmp;
  std::vector<unsigned char> segment{0xFF, 0xE1};
  put_big_endian(segment, static_cast<std::uint32_t>(payload.size() + 2), 2);
  segment.insert(segment.end(), payload.begin(), payload.end());
  jpeg.insert(jpeg.begin() + 2, segment.begin(), segment.end());
  return jpeg;
}

class XmpMetadataTest : public ::testing::Test {
 protected:
  XmpMetadataTest() : dir_(fs::temp_directory_path() / ("gpufilter-xmp-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~XmpMetadataTest() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::vector<unsigned char>& bytes) const {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  fs::path dir_;
};

bool holds(const std::vector<unsigned char>& bytes, const std::string& text) {
  return std::search(bytes.begin(), bytes.end(), text.begin(), text.end()) != bytes.end();
}

TEST(XmpBounds, DeclarationsAreCountedInUtf8Utf16AndUtf32) {
  const std::string utf8 = "<a xmlns:a=\"u\" xmlns:b=\"v\"> xmlns xmlns: xxmlns:";
  EXPECT_EQ(count_xmp_namespace_declarations(reinterpret_cast<const unsigned char*>(utf8.data()), utf8.size()), 4u);
  for (const int width : {2, 4}) {
    std::vector<unsigned char> wide;
    for (const char c : utf8) {
      wide.push_back(static_cast<unsigned char>(c));
      wide.insert(wide.end(), static_cast<std::size_t>(width - 1), 0);
    }
    EXPECT_EQ(count_xmp_namespace_declarations(wide.data(), wide.size()), 4u) << width;
  }
}

// Decoding a packet costs Exiv2 time growing with the square of its namespaces: one far
// beyond the bound is not decoded (the file keeps no metadata, and says why), in a PNG
// as plain or compressed text and in a JPEG's APP1 segment.
TEST_F(XmpMetadataTest, APacketWithTooManyNamespacesIsNotDecoded) {
  const int too_many = static_cast<int>(kMaxXmpNamespaces) + 1;
  const std::vector<fs::path> files{write("plain.png", png_with_xmp(packet("a", 20000), false)),
                                    write("compressed.png", png_with_xmp(packet("b", too_many), true)),
                                    write("app1.jpg", jpeg_with_xmp(packet("c", too_many, false)))};
  for (const fs::path& file : files) {
    const ImageMetadata metadata = ImageMetadata::read(file);
    EXPECT_TRUE(metadata.empty()) << file;
    EXPECT_NE(metadata.problem().find("namespaces"), std::string::npos) << metadata.problem();
    EXPECT_NE(metadata.problem().find(file.filename().string()), std::string::npos) << metadata.problem();
  }
  // Within the bound: read, and carried into OUT.
  const fs::path within = write("within.png", png_with_xmp(packet("d", 40), true));
  const ImageMetadata metadata = ImageMetadata::read(within);
  ASSERT_FALSE(metadata.empty()) << metadata.problem();
  EXPECT_EQ(metadata.problem(), "");
  std::vector<unsigned char> out = encoded(".jpg");
  EXPECT_EQ(write_metadata(out, ".jpg", metadata, 7, 6), "");
  EXPECT_TRUE(holds(out, "http://example.com/d/39/"));
  EXPECT_TRUE(holds(out, "d-v39"));
}

// Exiv2 keeps each namespace it meets registered for the whole process and looks them up
// in a list, so every file cost more than the last: none stays registered after a file
// is read or written, and what is written still names its own namespaces.
TEST_F(XmpMetadataTest, NamespacesDoNotAccumulateFromFileToFile) {
  for (int file = 0; file < 12; ++file) {
    const std::string tag = "f" + std::to_string(file) + "n";
    const fs::path path = write(tag + ".png", png_with_xmp(packet(tag, 50), file % 2 == 0));
    const ImageMetadata metadata = ImageMetadata::read(path);
    ASSERT_FALSE(metadata.empty()) << metadata.problem();
    EXPECT_EQ(metadata.problem(), "");
    EXPECT_TRUE(Exiv2::XmpProperties::nsRegistry_.empty()) << Exiv2::XmpProperties::nsRegistry_.size();
    std::vector<unsigned char> out = encoded(".jpg");
    ASSERT_EQ(write_metadata(out, ".jpg", metadata, 7, 6), "");
    EXPECT_TRUE(Exiv2::XmpProperties::nsRegistry_.empty()) << Exiv2::XmpProperties::nsRegistry_.size();
    EXPECT_TRUE(holds(out, "http://example.com/" + tag + "/49/"));
    EXPECT_TRUE(holds(out, tag + "-v49"));
  }
}

// Threads reading files with namespaces of their own while others write theirs: Exiv2's
// XMP toolkit is the process's, and without one lock a decode lost its namespaces to a
// concurrent write ("Unregistered schema namespace URI").
TEST_F(XmpMetadataTest, ThreadsReadAndWriteXmpSideBySide) {
  constexpr int kThreads = 8;
  constexpr int kFiles = 12;
  std::vector<fs::path> paths;
  for (int t = 0; t < kThreads; ++t)
    for (int f = 0; f < kFiles; ++f) {
      const std::string tag = "t" + std::to_string(t) + "f" + std::to_string(f) + "n";
      paths.push_back(write(tag + ".jpg", jpeg_with_xmp(packet(tag, 30))));
    }
  std::atomic<int> failures{0};
  std::vector<std::string> first_failure(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int f = 0; f < kFiles; ++f) {
        const std::string tag = "t" + std::to_string(t) + "f" + std::to_string(f) + "n";
        const ImageMetadata metadata = ImageMetadata::read(paths[static_cast<std::size_t>(t * kFiles + f)]);
        std::vector<unsigned char> out = encoded(".jpg");
        const std::string written = metadata.empty() ? "no metadata" : write_metadata(out, ".jpg", metadata, 7, 6);
        const bool whole = holds(out, "http://example.com/" + tag + "/29/") && holds(out, tag + "-v29");
        if (!metadata.problem().empty() || !written.empty() || !whole) {
          failures.fetch_add(1);
          if (first_failure[t].empty()) first_failure[t] = tag + ": " + metadata.problem() + " / " + written;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::string failed;
  for (const std::string& text : first_failure) failed += text.empty() ? "" : text + "\n";
  EXPECT_EQ(failures.load(), 0) << failed;
  EXPECT_TRUE(Exiv2::XmpProperties::nsRegistry_.empty());
}

}  // namespace
}  // namespace gpufilter::io::xmp_metadata_test
