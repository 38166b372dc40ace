#pragma once
// How the CPU path's loops are built for the CPU they run on.
//
// GPUFILTER_VECTOR_CLONES: a function built twice, for AVX2 with FMA (x86-64-v3) and for
// the baseline, the one the CPU has picked at load time (GCC's target_clones).
// GPUFILTER_INLINE: inlined into its caller, so that a caller built for a wider
// instruction set (a clone) runs it with that set too.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GPUFILTER_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define GPUFILTER_VECTOR_CLONES
#endif

#if defined(__GNUC__)
#define GPUFILTER_INLINE [[gnu::always_inline]] inline
#else
#define GPUFILTER_INLINE inline
#endif
