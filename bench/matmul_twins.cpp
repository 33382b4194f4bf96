#include "matmul_twins.h"

#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>

#include <algorithm>

namespace twins {
namespace {

constexpr unsigned kTile = 16; // the kernels' threadgroup edge (mat_mul_tiled's TILE)

/// Runs `group(gx, gy)` for every group of a gx x gy grid, in parallel.
template <class Group>
void forEachGroup(unsigned groupsX, unsigned groupsY, Group group) {
    tbb::parallel_for(tbb::blocked_range2d<unsigned>(0, groupsY, 0, groupsX), [&](const tbb::blocked_range2d<unsigned>& r) {
        for (unsigned gy = r.rows().begin(); gy != r.rows().end(); ++gy)
            for (unsigned gx = r.cols().begin(); gx != r.cols().end(); ++gx) group(gx, gy);
    });
}

/// A column-major 4x4 matrix with the one operation the register kernels use.
struct Mat4 {
    float m[4][4]; // m[column][row]
};

// Unrolled as <metal_stdlib>'s float4x4 product is, so both sides get the same code quality.
inline void multiplyAdd(Mat4& acc, const Mat4& x, const Mat4& y) {
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c)
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k)
#pragma GCC unroll 4
            for (int r = 0; r < 4; ++r) acc.m[c][r] += x.m[k][r] * y.m[c][k];
}

} // namespace

void naive(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner) {
    forEachGroup((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile, [&](unsigned gx, unsigned gy) {
        for (unsigned y = gy * kTile; y < std::min(rows, (gy + 1) * kTile); ++y)
            for (unsigned x = gx * kTile; x < std::min(cols, (gx + 1) * kTile); ++x) {
                float sum = 0.0f;
                for (unsigned k = 0; k < inner; ++k) sum += a[y * inner + k] * b[k * cols + x];
                c[y * cols + x] = sum;
            }
    });
}

// The tiled kernel with its barriers turned into loop boundaries, as a C++ programmer
// writes it: per tile step, fill both tiles, then accumulate every thread's element.
void tiled(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner) {
    forEachGroup((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile, [&](unsigned gx, unsigned gy) {
        float tileA[kTile][kTile], tileB[kTile][kTile], sum[kTile][kTile] = {};
        for (unsigned t = 0; t < inner; t += kTile) {
            for (unsigned ly = 0; ly < kTile; ++ly)
                for (unsigned lx = 0; lx < kTile; ++lx) {
                    unsigned row = gy * kTile + ly, col = gx * kTile + lx;
                    tileA[ly][lx] = (row < rows && t + lx < inner) ? a[row * inner + t + lx] : 0.0f;
                    tileB[ly][lx] = (t + ly < inner && col < cols) ? b[(t + ly) * cols + col] : 0.0f;
                }
            for (unsigned ly = 0; ly < kTile; ++ly)
                for (unsigned lx = 0; lx < kTile; ++lx)
                    for (unsigned k = 0; k < kTile; ++k) sum[ly][lx] += tileA[ly][k] * tileB[k][lx];
        }
        for (unsigned ly = 0; ly < kTile; ++ly)
            for (unsigned lx = 0; lx < kTile; ++lx) {
                unsigned row = gy * kTile + ly, col = gx * kTile + lx;
                if (row < rows && col < cols) c[row * cols + col] = sum[ly][lx];
            }
    });
}

// One 4x4 block of C per "thread", threads in 8x8 groups as the sample dispatches them.
void register4x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner) {
    const unsigned threadsX = cols / 4, threadsY = rows / 4;
    forEachGroup((threadsX + 7) / 8, (threadsY + 7) / 8, [&](unsigned gx, unsigned gy) {
        for (unsigned ty = gy * 8; ty < std::min(threadsY, gy * 8 + 8); ++ty)
            for (unsigned tx = gx * 8; tx < std::min(threadsX, gx * 8 + 8); ++tx) {
                const unsigned i = ty * 4, j = tx * 4;
                Mat4 acc{};
                for (unsigned k = 0; k < inner; k += 4) {
                    Mat4 at, bt;
#pragma GCC unroll 4
                    for (int r = 0; r < 4; ++r)
                        for (int e = 0; e < 4; ++e) {
                            at.m[r][e] = a[(i + r) * inner + k + e];
                            bt.m[r][e] = b[(k + r) * cols + j + e];
                        }
                    multiplyAdd(acc, bt, at);
                }
                for (int r = 0; r < 4; ++r)
                    for (int e = 0; e < 4; ++e) c[(i + r) * cols + j + e] = acc.m[r][e];
            }
    });
}

// Two stacked 4x4 blocks per "thread", sharing the block of B.
void register8x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner) {
    const unsigned threadsX = cols / 4, threadsY = rows / 8;
    forEachGroup((threadsX + 7) / 8, (threadsY + 7) / 8, [&](unsigned gx, unsigned gy) {
        for (unsigned ty = gy * 8; ty < std::min(threadsY, gy * 8 + 8); ++ty)
            for (unsigned tx = gx * 8; tx < std::min(threadsX, gx * 8 + 8); ++tx) {
                const unsigned i = ty * 8, j = tx * 4;
                Mat4 top{}, bottom{};
                for (unsigned k = 0; k < inner; k += 4) {
                    Mat4 bt, upper, lower;
#pragma GCC unroll 4
                    for (int r = 0; r < 4; ++r)
                        for (int e = 0; e < 4; ++e) {
                            bt.m[r][e] = b[(k + r) * cols + j + e];
                            upper.m[r][e] = a[(i + r) * inner + k + e];
                            lower.m[r][e] = a[(i + 4 + r) * inner + k + e];
                        }
                    multiplyAdd(top, bt, upper);
                    multiplyAdd(bottom, bt, lower);
                }
                for (int r = 0; r < 4; ++r)
                    for (int e = 0; e < 4; ++e) {
                        c[(i + r) * cols + j + e] = top.m[r][e];
                        c[(i + 4 + r) * cols + j + e] = bottom.m[r][e];
                    }
            }
    });
}

} // namespace twins
