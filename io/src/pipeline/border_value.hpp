#pragma once
// --border-value judged against IN once its pixel format is known: a constant that the
// pixels cannot hold would otherwise be clamped or rounded without a word.
#include <filesystem>

#include "gpufilter/io/run_request.hpp"
#include "gpufilter/io/channel_layout.hpp"
#include "gpufilter/border.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::io {

// request.border with its constant checked and laid out for IN's pixels. Every number
// given must be one a channel holds: u8 whole numbers 0..255, u16 whole numbers
// 0..65535, f32 any finite number. A gray+alpha file takes the gray, or the gray and the
// alpha. Throws IoError(Request) naming the value and why.
Border border_for_input(const RunRequest& request, PixelFormat format, ChannelLayout layout,
                        const std::filesystem::path& input);

}  // namespace gpufilter::io
