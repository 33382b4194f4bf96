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

/// Whether this CPU runs x86-64-v3 code (AVX2, FMA).
bool availableV3();

/// The same through the kernel stdlib's lane vectors (matmul_lane_library.cpp): the kernel's
/// body as the translator is to emit it for a row of threads, the rows of 8 x 8 groups spread
/// over the cores alike. V4: eight threads as the lanes of 512-bit registers (where `available()`);
/// V3: four threads in 256-bit registers (where `availableV3()`), the AVX2 image's form. False,
/// with nothing written, where the shape does not fit or the CPU lacks the level.
bool register8x4ThroughLibraryV4(const float* a, const float* b, float* c, unsigned rows, unsigned cols,
                                 unsigned inner);
bool register8x4ThroughLibraryV3(const float* a, const float* b, float* c, unsigned rows, unsigned cols,
                                 unsigned inner);

/// One row of a group's threads, gid (firstGidX + l, gidY) for lane l, through the library at
/// each level; false where a lane would return at the kernel's bounds test (nothing written).
bool rowOfThreadsThroughLibraryV4(const float* a, const float* b, float* c, unsigned gidY, unsigned firstGidX,
                                  unsigned rows, unsigned cols, unsigned inner);
bool rowOfThreadsThroughLibraryV3(const float* a, const float* b, float* c, unsigned gidY, unsigned firstGidX,
                                  unsigned rows, unsigned cols, unsigned inner);

} // namespace lane_vectors
