#pragma once
namespace gpufilter::kernels {

struct CopyTuning {
  // 256 threads: enough warps per SM to cover DRAM latency with one 16-byte load in
  // flight per thread. The size hardly matters between 128 and 1024
  // (docs/techniques/memory-access.md, claim 7).
  // The chunked kernels take their block size at launch (CopyShape::threads, default
  // this), so gpufilter-memory-bench can compare 128..1024.
  static constexpr int kThreads = 256;
  // 16-byte chunks each thread moves; several independent loads in flight per thread.
  static constexpr int kChunksPerThread = 4;
  // grid_stride variant: resident blocks per SM in its fixed grid (2048 threads per SM
  // on sm_80/sm_90 hold 8 blocks of 256; 4 leaves room and is the seeds' usual choice).
  static constexpr int kGridStrideBlocksPerSm = 4;
  static constexpr int kScalarBlockX = 32;
  static constexpr int kScalarBlockY = 8;
};

}  // namespace gpufilter::kernels
