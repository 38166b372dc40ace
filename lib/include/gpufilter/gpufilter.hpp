#pragma once
// Everything a program linking gpufilter::gpufilter needs.
#include "gpufilter/border.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/pixel_format.hpp"
#include "gpufilter/reference.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/version.hpp"
