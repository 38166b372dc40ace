#pragma once
/// @file
/// Image files through OpenCV imgcodecs: reading with depth and alpha kept, mapping cv::Mat
/// to the library's pixel formats and views, and what OUT's format can hold.
#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/image_view.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::io {

/// Keeps OpenCV's log lines off stderr; the tool reports failures itself.
void silence_codec_logging();

/// Throws IoError(Input) when the file is missing, unreadable or not a decodable image.
/// Depth and alpha are kept; with `autorotate`, a JPEG's EXIF orientation is applied.
cv::Mat read_image(const std::filesystem::path& path, bool autorotate = true);

/// Throws IoError(Input) for anything but u8/u16/f32 with 1, 3 or 4 channels.
PixelFormat pixel_format_of(const cv::Mat& image, const std::filesystem::path& source);
int cv_type_of(PixelFormat format);
/// The Mat's own memory and row step as a host view; no copy.
ImageView host_view(const cv::Mat& image, PixelFormat format);

/// Everything about OUT that can be told before any work: a suffix OpenCV can encode
/// (else IoError(Request)), an existing writable directory (else IoError(Output)).
/// `format` (".png") names the format of an OUT whose name has no suffix (--format);
/// empty: OUT's suffix must.
void check_output_target(const std::filesystem::path& output, const std::string& format = "");
/// Whether writing OUT would replace the file IN: the same inode, OUT's own entry not
/// followed (OUT is never written through a symbolic link: the link itself is replaced).
bool same_file(const std::filesystem::path& input, const std::filesystem::path& output);
/// Whether OUT's name is taken (a file, a link, even a dangling one).
bool output_exists(const std::filesystem::path& output);
/// Throws IoError(Request) naming `name` ("OUT", "--plot") and -y where `output` is taken
/// and may not be replaced.
void refuse_existing_output(const std::filesystem::path& output, bool replace_existing, const std::string& name);
/// Whether OUT's format stores `format` pixels as they are, or only once their alpha is
/// flattened onto a background (4 channels into JPEG or PNM, at the same depth).
enum class OutputFit { AsIs, FlattenAlpha };
/// Throws IoError(Output) when OUT's format stores neither (16-bit to JPEG, float to
/// BMP...), naming formats that would.
OutputFit check_output_holds(const std::filesystem::path& output, PixelFormat format,
                             const std::string& output_format = "");

/// The options every encode uses (e.g. lossless TIFF), for probes and real writes alike.
const std::vector<int>& encoder_params();

}  // namespace gpufilter::io
