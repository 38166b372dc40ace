#pragma once
/// @file
/// Sorting what a codec library printed while it decoded a file (quiet_stderr.hpp
/// captures it): damage to the pixels (libjpeg's "Premature end of JPEG file", "Corrupt
/// JPEG data: ...", any libpng error) fails the file; complaints about metadata alone
/// (libpng's warnings on ancillary chunks such as iCCP or tEXt, libjpeg's unknown JFIF
/// revision) leave the pixels whole and are passed on as notes. Nothing is dropped.
#include <string>
#include <vector>

namespace gpufilter::io {

struct CodecComplaints {
  std::string damage;               ///< the damage messages on one line, "; " between; empty: none
  std::vector<std::string> notes;   ///< one line each
};

CodecComplaints sort_codec_messages(const std::string& text);

}  // namespace gpufilter::io
