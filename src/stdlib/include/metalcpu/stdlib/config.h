// Shared by every kernel-side header: compiler checks and the function attribute.
//
// Everything under src/stdlib/include is compiled freestanding (-nostdinc): it may include
// only other files from this directory and must use compiler builtins, never host headers.
#pragma once

#if !defined(__GNUC__) || !defined(__cplusplus) || __cplusplus < 202002L
#error "metalcpu's <metal_stdlib> needs GCC or Clang in C++20 mode"
#endif

// Small functions of the standard library are always inlined, also in large kernels, so that
// vector and matrix code compiles to the same instructions as hand-written loops.
#define METALCPU_INLINE inline __attribute__((always_inline))

// Loops over the components of a vector or the columns of a matrix (at most 4 iterations) carry
// _Pragma("GCC unroll 4"): at -O2, GCC would otherwise keep them as loops, and a float4x4
// product would go through memory instead of staying in registers.
