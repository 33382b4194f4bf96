#include "matmul_lane_vectors.h"

#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>

namespace lane_vectors {
namespace {

// 16 floats, loaded from and stored to any float's address.
typedef float Lanes16 __attribute__((vector_size(64), aligned(4), may_alias));

// One row of a group's threads: rows i..i+7 of C, columns j..j+31 (thread x's float4 at
// columns j + 4x). Each element sees exactly its thread's operations: the float4x4 product
// `bt * upper` sums bt's columns times upper's elements in column order (<metal_matrix>),
// then the product is added to the tile. Nothing is reassociated, so the bits are the
// kernel's wherever the host compiler contracts the same multiply-adds.
__attribute__((target("arch=x86-64-v4"))) void rowOfThreads(const float* a, const float* b, float* c, unsigned i,
                                                            unsigned j, unsigned cols, unsigned inner) {
    Lanes16 tile[8][2] = {};
    for (unsigned k = 0; k < inner; k += 4) {
        Lanes16 bt[4][2];
#pragma GCC unroll 4
        for (int m = 0; m < 4; ++m)
            for (int h = 0; h < 2; ++h) bt[m][h] = *reinterpret_cast<const Lanes16*>(b + (k + m) * cols + j + 16 * h);
#pragma GCC unroll 8
        for (int r = 0; r < 8; ++r) {
            const float* row = a + (i + r) * inner + k;
#pragma GCC unroll 2
            for (int h = 0; h < 2; ++h) {
                Lanes16 product = bt[0][h] * row[0];
                product += bt[1][h] * row[1];
                product += bt[2][h] * row[2];
                product += bt[3][h] * row[3];
                tile[r][h] += product;
            }
        }
    }
    for (int r = 0; r < 8; ++r)
        for (int h = 0; h < 2; ++h) *reinterpret_cast<Lanes16*>(c + (i + r) * cols + j + 16 * h) = tile[r][h];
}

} // namespace

bool available() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma");
}

namespace {

/// C = A * B one row of a group's threads at a time (row(ty, gx) for thread row ty and group
/// column gx), the 8 x 8 groups spread over the cores as the twins spread theirs.
template <class Row> bool byRowsOfThreads(bool runs, unsigned rows, unsigned cols, unsigned inner, Row row) {
    if (rows % 8 || cols % 32 || inner % 4 || !runs) return false;
    const unsigned threadRows = rows / 8, groupsX = cols / 32, groupsY = (threadRows + 7) / 8;
    tbb::parallel_for(tbb::blocked_range2d<unsigned>(0, groupsY, 0, groupsX), [&](const tbb::blocked_range2d<unsigned>& r) {
        for (unsigned gy = r.rows().begin(); gy != r.rows().end(); ++gy)
            for (unsigned gx = r.cols().begin(); gx != r.cols().end(); ++gx)
                for (unsigned ty = gy * 8; ty < threadRows && ty < gy * 8 + 8; ++ty) row(ty, gx);
    });
    return true;
}

} // namespace

bool availableV3() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v3") != 0;
}

bool register8x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner) {
    return byRowsOfThreads(available(), rows, cols, inner,
                           [&](unsigned ty, unsigned gx) { rowOfThreads(a, b, c, ty * 8, gx * 32, cols, inner); });
}

bool register8x4ThroughLibraryV4(const float* a, const float* b, float* c, unsigned rows, unsigned cols,
                                 unsigned inner) {
    return byRowsOfThreads(available(), rows, cols, inner, [&](unsigned ty, unsigned gx) {
        rowOfThreadsThroughLibraryV4(a, b, c, ty, gx * 8, rows, cols, inner);
    });
}

bool register8x4ThroughLibraryV3(const float* a, const float* b, float* c, unsigned rows, unsigned cols,
                                 unsigned inner) {
    // A group's row of eight threads is two blocks of four lanes.
    return byRowsOfThreads(availableV3(), rows, cols, inner, [&](unsigned ty, unsigned gx) {
        rowOfThreadsThroughLibraryV3(a, b, c, ty, gx * 8, rows, cols, inner);
        rowOfThreadsThroughLibraryV3(a, b, c, ty, gx * 8 + 4, rows, cols, inner);
    });
}

} // namespace lane_vectors
