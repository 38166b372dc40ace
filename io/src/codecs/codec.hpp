#pragma once
// One image format's reader and writer of the tool's own (codecs.cpp asks them in the
// order of its table; OpenCV's codec module, last, takes whatever they leave). A codec
// answers nullopt or false for what it leaves to the next: another format, flags or
// parameters it does not serve, a file its library declines.
#include <opencv2/core.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpufilter::io::codecs {

class Codec {
 public:
  virtual ~Codec() = default;
  // Whether it writes files of this lower-case suffix (".png") itself.
  virtual bool writes(const std::string& suffix) const = 0;
  // The file's bytes decoded; `notes` takes what it found that leaves the pixels whole.
  // May throw DecodeFailure (codecs.hpp) for a file of its format that no codec should try.
  virtual std::optional<cv::Mat> decode(const std::vector<unsigned char>& bytes, int flags,
                                        std::vector<std::string>* notes) = 0;
  // The same for the file at `path`, read no further than it takes to know it is not one
  // of its files.
  virtual std::optional<cv::Mat> read(const std::string& path, int flags, std::vector<std::string>* notes) = 0;
  // `image` encoded for `suffix` (lower case) with OpenCV-style (name, value) `params`.
  virtual bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
                      const std::vector<int>& params) = 0;
};

// The tool's own codecs, PNG first, then JPEG (jpeg_file_codec.cpp, png_file_codec.cpp).
Codec& png_file_codec();
Codec& jpeg_file_codec();

}  // namespace gpufilter::io::codecs
