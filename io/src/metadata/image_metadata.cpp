#include "gpufilter/io/image_metadata.hpp"

#include <exiv2/exiv2.hpp>

#include "codecs/codec.hpp"
#include "files/quoted_path.hpp"
#include "gpufilter/io/content_format.hpp"
#include "metadata/xmp_bounds.hpp"
#include "metadata/xmp_toolkit.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>

namespace gpufilter::io {

struct MetadataContents {
  Exiv2::ExifData exif;
  Exiv2::IptcData iptc;
  Exiv2::XmpData xmp;
  std::vector<Exiv2::byte> icc;
  Exiv2::ByteOrder exif_byte_order = Exiv2::invalidByteOrder;  // IN's, kept in OUT's EXIF
  XmpNamespaces xmp_namespaces;  // those of IN's XMP beyond Exiv2's own, registered again to write it
};

namespace {

// Exiv2 reports through its log what it skips without throwing (a broken XMP packet, a
// tag pointing outside the file). Its default handler prints to stderr; this one keeps
// the first error-level line of the calling thread's current read or write, which the
// caller turns into a warning naming the file. Warnings (odd but handled data) are dropped.
thread_local std::string* current_log = nullptr;

void keep_first_error(int level, const char* message) {
  if (level < Exiv2::LogMsg::error || current_log == nullptr || !current_log->empty()) return;
  std::string text = message == nullptr ? "" : message;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  *current_log = text.empty() ? "an unnamed Exiv2 error" : text;
}

// Once per process, before any thread reads or writes metadata (the XMP toolkit starts
// with the first XmpToolkitUse, under its lock).
void initialise_exiv2() {
  static std::once_flag once;
  std::call_once(once, [] {
    Exiv2::LogMsg::setLevel(Exiv2::LogMsg::error);
    Exiv2::LogMsg::setHandler(keep_first_error);
  });
}

// Collects Exiv2's log lines of this thread into `text` while alive.
class LoggedErrors {
 public:
  explicit LoggedErrors(std::string& text) : previous_(current_log) { current_log = &text; }
  ~LoggedErrors() { current_log = previous_; }
  LoggedErrors(const LoggedErrors&) = delete;
  LoggedErrors& operator=(const LoggedErrors&) = delete;

 private:
  std::string* previous_;
};

// IFD0 tags that describe how IN stores its pixels (size, strips, tiles, compression,
// sample layout) rather than the picture: OUT's encoder writes its own, and copies would
// lie about OUT. The ICC profile, XMP and IPTC containers are carried on their own.
bool is_storage_tag(std::uint16_t tag) {
  switch (tag) {
    case 0x00fe: case 0x00ff:                              // NewSubfileType, SubfileType
    case 0x0100: case 0x0101: case 0x0102: case 0x0103:    // ImageWidth/Length, BitsPerSample, Compression
    case 0x0106: case 0x010a:                              // PhotometricInterpretation, FillOrder
    case 0x0111: case 0x0115: case 0x0116: case 0x0117:    // StripOffsets, SamplesPerPixel, RowsPerStrip, StripByteCounts
    case 0x0118: case 0x0119: case 0x011c:                 // Min/MaxSampleValue, PlanarConfiguration
    case 0x013d: case 0x0140:                              // Predictor, ColorMap
    case 0x0142: case 0x0143: case 0x0144: case 0x0145:    // TileWidth/Length/Offsets/ByteCounts
    case 0x014a: case 0x0152: case 0x0153: case 0x015b:    // SubIFDs, ExtraSamples, SampleFormat, JPEGTables
    case 0x0201: case 0x0202: case 0x0212:                 // JPEGInterchangeFormat(Length), YCbCrSubSampling
    case 0x02bc: case 0x83bb: case 0x8649: case 0x8773:    // XMLPacket, IPTCNAA, ImageResources, InterColorProfile
      return true;
    default:
      return false;
  }
}

// IN's storage tags, and the IFDs of a TIFF's other images (sub-images, pages).
void drop_storage_tags(Exiv2::ExifData& exif) {
  for (auto datum = exif.begin(); datum != exif.end();) {
    const std::string group = datum->groupName();
    const bool other_image = group.rfind("SubImage", 0) == 0 || (group.rfind("Image", 0) == 0 && group != "Image");
    if (other_image || (group == "Image" && is_storage_tag(datum->tag()))) {
      datum = exif.erase(datum);
    } else {
      ++datum;
    }
  }
}

// The pixel dimensions of OUT where IN's metadata states them.
void set_pixel_dimensions(Exiv2::ExifData& exif, Exiv2::XmpData& xmp, int width, int height) {
  const auto exif_set = [&](const char* key, int value) {
    const auto found = exif.findKey(Exiv2::ExifKey(key));
    if (found != exif.end()) *found = static_cast<std::uint32_t>(value);
  };
  exif_set("Exif.Photo.PixelXDimension", width);
  exif_set("Exif.Photo.PixelYDimension", height);
  const auto xmp_set = [&](const char* key, int value) {
    const auto found = xmp.findKey(Exiv2::XmpKey(key));
    if (found != xmp.end()) found->setValue(std::to_string(value));
  };
  xmp_set("Xmp.exif.PixelXDimension", width);
  xmp_set("Xmp.exif.PixelYDimension", height);
  xmp_set("Xmp.tiff.ImageWidth", width);
  xmp_set("Xmp.tiff.ImageLength", height);
}

}  // namespace

ImageMetadata ImageMetadata::read(const std::filesystem::path& input) {
  initialise_exiv2();
  ImageMetadata metadata;
  std::string logged;
  LoggedErrors log(logged);
  try {
    const codecs::MetadataPlaces places = codecs::metadata_places(suffix_of_content(input));
    if (!places.any()) return metadata;
    Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(input.string());
    // Exiv2 reads XMP with the rest, so a file whose XMP would cost too much keeps none.
    if (const std::string why = xmp_bound_exceeded(input); !why.empty()) {
      metadata.problem_ = "the metadata of " + quoted(input) + " is not carried: " + why;
      return metadata;
    }
    auto contents = std::make_shared<MetadataContents>();
    const XmpToolkitUse xmp_use;
    try {
      image->readMetadata();
    } catch (const Exiv2::AnyError& error) {
      // Exiv2 checks the ICC profile last, after the rest was read: keep that rest.
      if (error.code() != Exiv2::kerInvalidIccProfile) throw;
      metadata.problem_ = "cannot read the ICC profile of " + quoted(input) + ": " + error.what();
    }
    contents->xmp_namespaces = xmp_use.registered();
    contents->exif = image->exifData();
    contents->exif_byte_order = image->byteOrder();
    contents->iptc = image->iptcData();
    contents->xmp = image->xmpData();
    if (image->iccProfileDefined() && metadata.problem_.empty()) {
      const Exiv2::DataBuf* icc = image->iccProfile();
      contents->icc.assign(icc->pData_, icc->pData_ + icc->size_);
    }
    drop_storage_tags(contents->exif);
    // Pixels the decoder turned upright by IN's tag whatever it was asked: the tag no
    // longer describes them.
    const bool turned_on_read = places.upright_on_read;
    if (!contents->exif.empty() || !contents->iptc.empty() || !contents->xmp.empty() || !contents->icc.empty())
      metadata.contents_ = std::move(contents);
    if (turned_on_read) metadata.reset_orientation();
  } catch (const Exiv2::AnyError& error) {
    // Formats Exiv2 does not know (PNM, ...) hold no metadata it could carry.
    if (error.code() == Exiv2::kerFileContainsUnknownImageType) return metadata;
    metadata.contents_.reset();
    metadata.problem_ = "cannot read the metadata of " + quoted(input) + ": " + error.what();
  } catch (const std::exception& error) {
    metadata.contents_.reset();
    metadata.problem_ = "cannot read the metadata of " + quoted(input) + ": " + error.what();
  }
  if (metadata.problem_.empty() && !logged.empty())
    metadata.problem_ = "cannot read all of the metadata of " + quoted(input) + ": " + logged;
  return metadata;
}

void ImageMetadata::reset_orientation() {
  if (!contents_) return;
  const XmpToolkitUse xmp_use;  // XMP keys look their namespaces up
  const auto exif = contents_->exif.findKey(Exiv2::ExifKey("Exif.Image.Orientation"));
  if (exif != contents_->exif.end()) *exif = static_cast<std::uint16_t>(1);
  const auto xmp = contents_->xmp.findKey(Exiv2::XmpKey("Xmp.tiff.Orientation"));
  if (xmp != contents_->xmp.end()) xmp->setValue("1");
}

bool suffix_holds_metadata(const std::string& suffix) { return codecs::metadata_places(suffix).any(); }

std::string write_metadata(std::vector<unsigned char>& encoded, const std::string& suffix,
                           const ImageMetadata& metadata, int width, int height) {
  const codecs::MetadataPlaces places = codecs::metadata_places(suffix);
  if (metadata.empty() || !places.any()) return "";
  initialise_exiv2();
  std::string logged;
  LoggedErrors log(logged);
  try {
    Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(encoded.data(), static_cast<long>(encoded.size()));
    const MetadataContents& contents = *metadata.contents();
    // Until the XMP is written: IN's namespaces registered again for it (the toolkit
    // forgot them when IN was read) and forgotten again after. Without XMP, Exiv2 does
    // not use the toolkit.
    std::optional<XmpToolkitUse> xmp_use;
    if (!contents.xmp.empty()) {
      xmp_use.emplace();
      xmp_use->register_again(contents.xmp_namespaces);
    }
    Exiv2::ExifData exif = contents.exif;
    Exiv2::XmpData xmp = contents.xmp;
    set_pixel_dimensions(exif, xmp, width, height);
    if (!places.exif_order_is_the_files && contents.exif_byte_order != Exiv2::invalidByteOrder)
      image->setByteOrder(contents.exif_byte_order);
    if (places.exif) image->setExifData(exif);
    if (places.xmp) image->setXmpData(xmp);
    if (places.iptc) image->setIptcData(contents.iptc);
    if (places.icc && !contents.icc.empty()) {
      Exiv2::DataBuf icc(contents.icc.data(), static_cast<long>(contents.icc.size()));
      image->setIccProfile(icc, false);  // carried as IN had it, not judged
    }
    image->writeMetadata();
    if (!logged.empty()) return logged;
    Exiv2::BasicIo& io = image->io();
    const long size = io.size();
    if (io.open() != 0) return "cannot read back the file with its metadata";
    Exiv2::DataBuf bytes = io.read(size);
    io.close();
    if (bytes.size_ != size) return "cannot read back the file with its metadata";
    encoded.assign(bytes.pData_, bytes.pData_ + bytes.size_);
    codecs::mend_written_metadata(suffix, encoded);
    return "";
  } catch (const Exiv2::AnyError& error) {
    return error.what();
  } catch (const std::exception& error) {
    return error.what();
  }
}

}  // namespace gpufilter::io
