#pragma once
// A bound on the XMP a file may hand to Exiv2, checked before Exiv2 reads it. Exiv2 0.27
// looks namespaces up by prefix in a list (and the XMP toolkit makes a new prefix for a
// taken one by trying suffixes in turn), so the cost of decoding a packet grows with the
// square of its namespaces: a few thousand declarations cost seconds to minutes. Counting
// the declarations ("xmlns:") where Exiv2 finds XMP is linear in the file.
#include <cstddef>
#include <filesystem>
#include <string>

namespace gpufilter::io {

// Namespace declarations a file's XMP may hold: far above what cameras and editors write
// (tens), low enough that decoding them costs little.
inline constexpr std::size_t kMaxXmpNamespaces = 1000;
// Bytes of a compressed PNG text chunk once inflated (twice this for a raw profile's hex),
// and of a PNG metadata chunk as stored.
inline constexpr std::size_t kMaxXmpPacketBytes = 16u << 20;

// Why the XMP of the file at `path` is beyond the bounds above ("" when it is within, or
// the file holds none, or cannot be read: Exiv2 then says so itself). Where XMP may be is
// read as Exiv2 reads it: a JPEG's segments before its image data; a PNG's text chunks
// (inflated where compressed, hex-decoded where a raw profile) and eXIf chunk (EXIF's tag
// 700 may hold XMP too); a TIFF's or WebP's whole file. Declarations are counted in UTF-8, UTF-16 and UTF-32 alike (NUL bytes
// are skipped), as the XMP toolkit reads all three.
std::string xmp_bound_exceeded(const std::filesystem::path& path);

// The namespace declarations in `size` bytes (NUL bytes skipped); exposed for tests.
std::size_t count_xmp_namespace_declarations(const unsigned char* data, std::size_t size);

}  // namespace gpufilter::io
