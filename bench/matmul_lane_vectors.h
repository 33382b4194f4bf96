#pragma once

// The 8x4 register-tiled kernel (samples/matmul) as metalcpu would run it if the eight threads
// it interleaves were the lanes of one vector: the target of vectorising across threads
// (issue 14). Plain C++, the kernels' math flags, the threadgroup grid spread over the cores
// as the twins spread it. C = A * B, row-major.
namespace lane_vectors {

/// Whether this CPU runs the 512-bit code (AVX-512F/VL/BW/DQ and FMA, the x86-64-v4 image's level).
bool available();

/// C = A * B as mat_mul_register_8x4 with 8 x 8 threadgroups computes it, every row of a
/// group's threads (eight 8x4 tiles side by side) as one 8-row by 32-column tile held in
/// 512-bit registers, each element's operations those of its thread, in the same order.
/// False, with nothing written, where the shape does not fit (rows % 8, cols % 32,
/// inner % 4) or the CPU lacks the level.
bool register8x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner);

/// The same through the kernel stdlib's lane vectors (matmul_lane_library.cpp): the kernel's
/// body as the translator is to emit it for a row of eight threads, the rows of 8 x 8 groups
/// spread over the cores alike. False, with nothing written, where register8x4 is.
bool register8x4ThroughLibrary(const float* a, const float* b, float* c, unsigned rows, unsigned cols,
                               unsigned inner);

/// One row of a group's threads, gid (firstGidX + l, gidY) for lane l, through the library;
/// false where a lane would return at the kernel's bounds test (nothing written).
bool rowOfThreadsThroughLibrary(const float* a, const float* b, float* c, unsigned gidY, unsigned firstGidX,
                                unsigned rows, unsigned cols, unsigned inner);

} // namespace lane_vectors
