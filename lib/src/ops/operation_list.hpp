// The registry's ops, in the order `gpufilter list` shows them: an op's one line here is
// all the registry needs besides its own file. Included by operations.hpp (to declare
// the factories) and registry.cpp (to call them), each defining:
//   GPUFILTER_OPERATION(name)   Operation make_<name>_operation() (ops/<name>_op.cpp or
//                               its family's *_operations.cpp)
//   GPUFILTER_OPERATIONS(name)  std::vector<Operation> make_<name>_operations(): a family
//                               of ops that share one factory
// No include guard: included once per definition of the macros.
GPUFILTER_OPERATION(copy)
GPUFILTER_OPERATION(gaussian)
GPUFILTER_OPERATION(box)
GPUFILTER_OPERATION(sharpen)
GPUFILTER_OPERATION(edge)
GPUFILTER_OPERATION(emboss)
GPUFILTER_OPERATION(convolve)
GPUFILTER_OPERATION(transpose)
GPUFILTER_OPERATION(rotate)
GPUFILTER_OPERATION(flip)
GPUFILTER_OPERATION(crop)
GPUFILTER_OPERATION(resize)
GPUFILTER_OPERATION(stats)
GPUFILTER_OPERATION(histogram)
GPUFILTER_OPERATION(equalize)
GPUFILTER_OPERATION(threshold)
GPUFILTER_OPERATION(normalize)
GPUFILTER_OPERATION(median)
GPUFILTER_OPERATIONS(point)       // invert, brightness, contrast, gamma, levels
GPUFILTER_OPERATIONS(conversion)  // gray, add_alpha, drop_alpha, swap_channels, convert, planar, interleaved
