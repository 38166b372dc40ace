#pragma once
// One factory per op; registry.cpp lists them. Each lives beside its op's entry point.
#include <string>
#include <vector>

#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

Operation make_copy_operation();
Operation make_gaussian_operation();
Operation make_box_operation();
Operation make_sharpen_operation();
Operation make_edge_operation();
Operation make_emboss_operation();
Operation make_convolve_operation();
Operation make_median_operation();
Operation make_transpose_operation();
Operation make_rotate_operation();
Operation make_flip_operation();
Operation make_crop_operation();
Operation make_resize_operation();
// invert, brightness, contrast, gamma, levels (point_operations.cpp).
std::vector<Operation> make_point_operations();
// gray, add_alpha, drop_alpha, swap_channels, convert, planar, interleaved
// (conversion_operations.cpp).
std::vector<Operation> make_conversion_operations();
Operation make_stats_operation();
// "c0", "c1", ...: the data ops' names for channels.
std::vector<std::string> channel_labels(int channels);
Operation make_histogram_operation();
Operation make_equalize_operation();
Operation make_threshold_operation();
Operation make_normalize_operation();

}  // namespace gpufilter::ops
