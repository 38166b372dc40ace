#pragma once
/// @file
/// OpenCV's image codecs, loaded from gpufilter's codec module (libgpufilter_codecs.so,
/// beside the program or in <prefix>/lib/gpufilter) on a thread of their own from the first
/// moment of main(). libopencv_imgcodecs brings about 120 shared libraries with it (GDAL,
/// Poppler, HDF5, ...), whose loading ran before main() when the tool linked it; now that
/// time passes beside argument parsing and CUDA's start (docs/cpu-path.md, "Start-up,
/// libraries and pages").
///
/// PNG files skip the module: gpufilter's own codec (png_reader.hpp, png_writer.hpp) reads
/// and writes them on several threads; what its reader declines (palettes, interlacing,
/// damage) libpng reads as OpenCV would, once the chunk lengths are found to fit the file
/// (png_chunk_lengths.hpp, png_libpng_reader.hpp). So do the common JPEG files, through
/// libjpeg-turbo itself (jpeg_cpu_codec.hpp), where the build found it: 8-bit gray or
/// colour, undamaged, or lacking only the end-of-image marker; OpenCV takes the rest.
#include <opencv2/core.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufilter::io::codecs {

/// Starts loading the module; call once, first thing in main(), where the run may need it.
/// The functions below start it where nothing did, wait for it and throw IoError(Runtime)
/// naming the module when it could not be loaded; PNG files the tool's own reader and
/// writer take need no module (a PNG-to-PNG run never loads it, nor the some 200 shared
/// libraries OpenCV's codec library brings).
void start_loading();

/// Whether the tool's own codecs read and write files of this suffix (PNG; JPEG where the
/// build has libjpeg-turbo), so that a run over such files may never need the module.
bool own_codec_takes(const std::filesystem::path& path);

/// Whether OUT's suffix has an encoder (PNG, JPEG with libjpeg-turbo: without the module).
bool have_writer(const std::string& filename);
bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
            const std::vector<int>& params);
/// Why a file cannot be decoded, as the tool's own checks and readers found it: what()
/// says why, in libpng's words where they are its. (OpenCV reports through its codecs'
/// messages and empty images instead.)
class DecodeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `notes`, where given, receives what the tool's own readers found that leaves the
/// pixels whole (libpng's warnings on ancillary chunks, a JPEG's missing end marker), one
/// line each. Throw DecodeFailure (see above) or cv::Exception.
cv::Mat decode(const std::vector<unsigned char>& bytes, int flags, std::vector<std::string>* notes = nullptr);
cv::Mat read(const std::string& path, int flags, std::vector<std::string>* notes = nullptr);

/// Threads the PNG codec may use for one file (0: one per core): a batch decoding and
/// encoding N files at once gives each its share of the cores.
void set_threads_per_file(unsigned threads);
unsigned threads_per_file();

}  // namespace gpufilter::io::codecs
