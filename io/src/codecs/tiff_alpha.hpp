#pragma once
// OpenCV's TIFF encoder writes a 4-channel image as RGB plus a fourth sample without the
// ExtraSamples tag that says what that sample is, so readers (libtiff warns, vips and
// ImageMagick guess) do not know it for alpha. This adds the tag to the encoded file.
#include <string>
#include <vector>

namespace gpufilter::io {

// Marks the fourth sample of an encoded 4-sample RGB TIFF as unassociated alpha
// (ExtraSamples = 2: colours not premultiplied, as the tool's pixels are). Other TIFFs,
// and one that already says, are left as they are. Returns "" or why it failed.
std::string mark_tiff_alpha(std::vector<unsigned char>& tiff);

}  // namespace gpufilter::io
