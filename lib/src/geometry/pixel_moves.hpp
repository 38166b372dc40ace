#pragma once
// Pixel moves over all cores: transposes and quarter turns in tiles, flips in bands of
// rows. OpenCV's cv::transpose, cv::rotate and cv::flip run on one thread, and a quarter
// turn takes two passes with cv::rotate (docs/cpu-path.md, "Speed").
#include <opencv2/core.hpp>

namespace gpufilter::cpu {

enum class QuarterTurn { Transpose, Clockwise, CounterClockwise };

// `out` has `in`'s type with rows and columns swapped; they do not overlap.
void turn_pixels(const cv::Mat& in, cv::Mat& out, QuarterTurn turn);
// cv::flip's codes (0: top-bottom, 1: left-right, -1: both); `out` has `in`'s size and
// type; they do not overlap.
void flip_pixels(const cv::Mat& in, cv::Mat& out, int code);

}  // namespace gpufilter::cpu
