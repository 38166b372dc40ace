#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "point/point_functions.cuh"
#include "point/point_launch.hpp"
#include "point/point_tuning.hpp"

namespace gpufilter::kernels {
namespace {

// u8 tables move from the kernel's parameters into shared memory once per block:
// lanes of a warp then look up different entries in one instruction (constant memory
// would serialise them).
template <PointMath kMath>
__device__ __forceinline__ const unsigned char* load_table(const PointFunction& f, unsigned char* shared) {
  if constexpr (kMath != PointMath::Table) {
    return nullptr;
  } else {
    const int threads = blockDim.x * blockDim.y;
    for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < 256; i += threads) shared[i] = f.table[i];
    __syncthreads();
    return shared;
  }
}

// planes.src[p] with p known only at run time would copy the parameter arrays to local
// memory and leave the pointers generic (ST.E instead of STG.E); a select chain reads
// them straight from the parameters, known to be global.
template <class T>
__device__ __forceinline__ T plane_item(const T (&items)[4], int p) {
  return p == 0 ? items[0] : p == 1 ? items[1] : p == 2 ? items[2] : items[3];
}

template <int C>
__device__ __forceinline__ bool changes(unsigned mask, int channel) {
  return (mask >> channel) & 1u;
}

// One channel sample per thread: x walks the samples of a row, y the rows (looping
// beyond the grid's y limit), z the planes.
template <class T, int C, PointMath kMath>
__global__ void point_scalar_kernel(PointPlanes planes, PointFunction f) {
  __shared__ unsigned char shared_table[256];
  const SampleFunction<T, kMath> fn(f, load_table<kMath>(f, shared_table));
  const long long samples = static_cast<long long>(planes.width) * C;
  const long long x = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= samples) return;
  const int p = blockIdx.z;
  const auto* src = static_cast<const unsigned char*>(plane_item(planes.src, p));
  auto* dst = static_cast<unsigned char*>(plane_item(planes.dst, p));
  const bool change = changes<C>(plane_item(planes.mask, p), static_cast<int>(x % C));
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < planes.height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    const T v = reinterpret_cast<const T*>(src + y * planes.src_pitch)[x];
    reinterpret_cast<T*>(dst + y * planes.dst_pitch)[x] = change ? fn(v) : v;
  }
}

template <class T>
union Chunk {
  uint4 bits;
  T e[16 / sizeof(T)];
};

// Applies fn to the samples of one 16-byte chunk whose first sample is channel c0.
template <class T, int C, class F>
__device__ __forceinline__ void apply(Chunk<T>& chunk, int c0, unsigned mask, bool all, const F& fn) {
  constexpr int kSamples = 16 / sizeof(T);
  if (all) {
#pragma unroll
    for (int j = 0; j < kSamples; ++j) chunk.e[j] = fn(chunk.e[j]);
  } else {
    int c = c0;
#pragma unroll
    for (int j = 0; j < kSamples; ++j) {
      if (changes<C>(mask, c)) chunk.e[j] = fn(chunk.e[j]);
      c = c + 1 == C ? 0 : c + 1;
    }
  }
}

// Each block moves kThreads * kChunksPerThread 16-byte chunks of one row (blockIdx.y,
// looping beyond the grid's y limit) of one plane (blockIdx.z). A row's samples before
// its first 16-byte boundary (the head: a view at x = 1 of a u8 image starts 1 byte
// past one) and after its last (the tail) go one per thread in the first block.
template <class T, int C, PointMath kMath>
__global__ void point_vec16_kernel(PointPlanes planes, PointFunction f) {
  __shared__ unsigned char shared_table[256];
  const SampleFunction<T, kMath> fn(f, load_table<kMath>(f, shared_table));
  constexpr int kPerBlock = PointTuning::kThreads * PointTuning::kChunksPerThread;
  constexpr unsigned kSamplesPerChunk = 16 / sizeof(T);
  const int p = blockIdx.z;
  const auto* src = static_cast<const unsigned char*>(plane_item(planes.src, p));
  auto* dst = static_cast<unsigned char*>(plane_item(planes.dst, p));
  const unsigned mask = plane_item(planes.mask, p);
  constexpr unsigned kFull = (1u << C) - 1u;
  const bool all = (mask & kFull) == kFull;
  const std::size_t row_bytes = static_cast<std::size_t>(planes.width) * C * sizeof(T);
  for (long long y = blockIdx.y; y < planes.height; y += gridDim.y) {
    const unsigned char* s = src + y * planes.src_pitch;
    unsigned char* d = dst + y * planes.dst_pitch;
    const std::size_t head = min((16 - reinterpret_cast<std::uintptr_t>(s) % 16) % 16, row_bytes);
    const std::size_t chunks = (row_bytes - head) / 16;
    const std::size_t body_end = head + chunks * 16;
    const auto* s4 = reinterpret_cast<const uint4*>(s + head);
    auto* d4 = reinterpret_cast<uint4*>(d + head);
    const unsigned head_samples = static_cast<unsigned>(head / sizeof(T));
    const std::size_t first = blockIdx.x * static_cast<std::size_t>(kPerBlock) + threadIdx.x;
    Chunk<T> v[PointTuning::kChunksPerThread];
#pragma unroll
    for (int k = 0; k < PointTuning::kChunksPerThread; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k) * PointTuning::kThreads;
      if (i < chunks) v[k].bits = __ldg(s4 + i);
    }
#pragma unroll
    for (int k = 0; k < PointTuning::kChunksPerThread; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k) * PointTuning::kThreads;
      if (i < chunks) {
        // The channel of the chunk's first sample, in 32-bit arithmetic (chunks < 2^31).
        const unsigned c0 = (head_samples % C + static_cast<unsigned>(i) % C * (kSamplesPerChunk % C)) % C;
        apply<T, C>(v[k], static_cast<int>(c0), mask, all, fn);
        d4[i] = v[k].bits;
      }
    }
    if (blockIdx.x == 0) {
      const unsigned tail_samples = static_cast<unsigned>((row_bytes - body_end) / sizeof(T));
      const T* st = reinterpret_cast<const T*>(s);
      T* dt = reinterpret_cast<T*>(d);
      if (threadIdx.x < head_samples) {
        const unsigned e = threadIdx.x;
        dt[e] = changes<C>(mask, static_cast<int>(e % C)) ? fn(st[e]) : st[e];
      }
      if (threadIdx.x < tail_samples) {
        const std::size_t e = body_end / sizeof(T) + threadIdx.x;
        dt[e] = changes<C>(mask, static_cast<int>(e % C)) ? fn(st[e]) : st[e];
      }
    }
  }
}

template <class Launch>
void visit_math(const PointPlanes& planes, PointMath math, Launch&& launch) {
  visit_format(planes.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    switch (math) {
      case PointMath::Invert: return launch.template run<T, C, PointMath::Invert>();
      case PointMath::Add: return launch.template run<T, C, PointMath::Add>();
      case PointMath::Linear: return launch.template run<T, C, PointMath::Linear>();
      case PointMath::Gamma: return launch.template run<T, C, PointMath::Gamma>();
      case PointMath::Table:
        if constexpr (std::is_same_v<T, std::uint8_t>) return launch.template run<T, C, PointMath::Table>();
        break;
    }
    throw Error(ErrorCode::UnsupportedFormat, "point op: no kernel for " + planes.format.name() + " with this math");
  });
}

struct ScalarLaunch {
  const PointPlanes& planes;
  const PointFunction& f;
  const ExecContext& ctx;
  template <class T, int C, PointMath kMath>
  void run() const {
    const long long samples = static_cast<long long>(planes.width) * C;
    const dim3 block(PointTuning::kScalarBlockX, PointTuning::kScalarBlockY);
    const dim3 grid(grid_x(blocks_for(samples, PointTuning::kScalarBlockX), "point_scalar_kernel"),
                    grid_y(blocks_for(planes.height, PointTuning::kScalarBlockY)), static_cast<unsigned>(planes.count));
    point_scalar_kernel<T, C, kMath><<<grid, block, 0, ctx.stream>>>(planes, f);
  }
};

struct VectorLaunch {
  const PointPlanes& planes;
  const PointFunction& f;
  const ExecContext& ctx;
  template <class T, int C, PointMath kMath>
  void run() const {
    constexpr int kPerBlock = PointTuning::kThreads * PointTuning::kChunksPerThread;
    const std::size_t row_bytes = static_cast<std::size_t>(planes.width) * C * sizeof(T);
    const long long max_chunks = static_cast<long long>(row_bytes / 16 + 1);
    const dim3 grid(grid_x(blocks_for(max_chunks, kPerBlock), "point_vec16_kernel"), grid_y(planes.height),
                    static_cast<unsigned>(planes.count));
    point_vec16_kernel<T, C, kMath><<<grid, PointTuning::kThreads, 0, ctx.stream>>>(planes, f);
  }
};

// Every row of src and dst starts at the same offset mod 16 in each plane.
bool rows_share_alignment(const PointPlanes& planes) {
  if ((planes.src_pitch - planes.dst_pitch) % 16 != 0) return false;
  for (int p = 0; p < planes.count; ++p) {
    const auto s = reinterpret_cast<std::uintptr_t>(planes.src[p]);
    const auto d = reinterpret_cast<std::uintptr_t>(planes.dst[p]);
    if ((s - d) % 16 != 0) return false;
  }
  return true;
}

}  // namespace

void launch_point_scalar(const PointPlanes& planes, const PointFunction& function, const ExecContext& ctx) {
  visit_math(planes, function.math, ScalarLaunch{planes, function, ctx});
  check_launch("point_scalar_kernel", ctx);
}

void launch_point_vectorized(const PointPlanes& planes, const PointFunction& function, const ExecContext& ctx) {
  if (!rows_share_alignment(planes)) return launch_point_scalar(planes, function, ctx);
  visit_math(planes, function.math, VectorLaunch{planes, function, ctx});
  check_launch("point_vec16_kernel", ctx);
}

}  // namespace gpufilter::kernels
