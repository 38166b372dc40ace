#pragma once
namespace gpufilter::kernels {

struct PointTuning {
  // As CopyTuning: 256 threads with four independent 16-byte loads each keep enough
  // bytes in flight per SM to cover DRAM latency; the point ops read and write exactly
  // what a copy does, so they share its shape until the bench says otherwise.
  static constexpr int kThreads = 256;
  static constexpr int kChunksPerThread = 4;
  // Scalar variant: one sample per thread, a warp across a row.
  static constexpr int kScalarBlockX = 32;
  static constexpr int kScalarBlockY = 8;
};

}  // namespace gpufilter::kernels
