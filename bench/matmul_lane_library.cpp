// The 8x4 kernel's body written by hand the way the translator is to emit it for a row of eight
// threads (docs/compiler.md, "Threads as vector lanes"): the kernel's statements one for one,
// per-thread values as metalcpu_kernel::varying (src/stdlib/include/metalcpu/lane_vectors.h),
// values the same for the row (i, k, the rows of A) kept as the kernel's own types. Compiled
// alone for x86-64-v4 (the kernel library's widest image) and with nothing but the kernel
// stdlib, so no inline function of another header is built here at that level.
#include "matmul_lane_vectors.h"

#include <metal_stdlib>
#include <metalcpu/lane_vectors.h>

namespace lane_vectors {

using namespace metal;
using metalcpu_kernel::varying;
using metalcpu_kernel::linear;
using metalcpu_kernel::linear_pointer;

namespace {

constexpr int lanes = 8;
using lane_uint = linear<uint, lanes>;
using lane_float4x4 = varying<float4x4, lanes>;

/// `*(device const float4*)(p + offset)` for the row: p and the offset's uniform part are
/// the same for every lane, `j` the lanes' own, stepping by 4 from lane to lane (gid.x * 4). Inlined, as the group function's `flatten`
/// inlines everything of a kernel.
[[gnu::always_inline]] inline varying<float4, lanes> loadFloat4(const float* p, const lane_uint& j) {
    return linear_pointer<const float, uint, lanes>::at(p, j).as<const float4>().load();
}

} // namespace

bool rowOfThreadsThroughLibrary(const float* A, const float* B, float* C, unsigned gidY, unsigned firstGidX,
                                unsigned rows, unsigned cols, unsigned inner) {
    const uint i = gidY * 8;
    const lane_uint j = lane_uint::lane_index(firstGidX) * 4u;
    // `if (i >= params.rows || j >= params.cols) return;`: the row takes this form only when
    // no lane returns here (the translator's other forms take the rest).
    if (i >= rows || any(varying<uint, lanes>(j) >= cols)) return false;
    lane_float4x4 top(float4x4(0.0f));
    lane_float4x4 bottom(float4x4(0.0f));
    for (uint k = 0; k < inner; k += 4) {
        lane_float4x4 bt(loadFloat4(B + (k + 0) * cols, j), loadFloat4(B + (k + 1) * cols, j),
                         loadFloat4(B + (k + 2) * cols, j), loadFloat4(B + (k + 3) * cols, j));
        float4x4 upper(*(const float4*)(A + (i + 0) * inner + k), *(const float4*)(A + (i + 1) * inner + k),
                       *(const float4*)(A + (i + 2) * inner + k), *(const float4*)(A + (i + 3) * inner + k));
        float4x4 lower(*(const float4*)(A + (i + 4) * inner + k), *(const float4*)(A + (i + 5) * inner + k),
                       *(const float4*)(A + (i + 6) * inner + k), *(const float4*)(A + (i + 7) * inner + k));
        top += bt * upper;
        bottom += bt * lower;
    }
    for (uint r = 0; r < 4; ++r) {
        linear_pointer<float, uint, lanes>::at(C + (i + r) * cols, j).as<float4>().store(top[r]);
        linear_pointer<float, uint, lanes>::at(C + (i + 4 + r) * cols, j).as<float4>().store(bottom[r]);
    }
    return true;
}

} // namespace lane_vectors
