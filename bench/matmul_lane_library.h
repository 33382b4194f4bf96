// The 8x4 kernel's body written by hand the way the translator is to emit it for a row of
// threads (docs/compiler.md, "Threads as vector lanes"): the kernel's statements one for one,
// per-thread values as metalcpu_kernel::varying (src/stdlib/include/metalcpu/lane_vectors.h),
// values the same for the row (i, k, the rows of A) kept as the kernel's own types. Included
// by one file per x86-64 level, each compiled with that level's -march as a kernel library's
// image is, so the registers' width is the level's (the compiler's macros); each exports one
// function and nothing else (everything of the kernel stdlib is inlined: `nm` shows no weak
// symbol in either object, so no inline function compiled for one level serves the other).
#pragma once

#include "matmul_lane_vectors.h"

#include <metal_stdlib>
#include <metalcpu/lane_vectors.h>

namespace lane_vectors {

using namespace metal;
using metalcpu_kernel::linear;
using metalcpu_kernel::linear_pointer;
using metalcpu_kernel::varying;

namespace {

/// Lanes threads of one row, in the image's registers. Inlined into each level's entry, as the
/// group function's `flatten` inlines everything of a kernel.
template <int Lanes, int RegisterBytes = metalcpu_kernel::lane_detail::register_bytes>
[[gnu::always_inline]] inline bool rowOfThreads(const float* A, const float* B, float* C, unsigned gidY,
                                                unsigned firstGidX, unsigned rows, unsigned cols, unsigned inner) {
    using lane_uint = linear<uint, Lanes, RegisterBytes>;
    using lane_float4x4 = varying<float4x4, Lanes, RegisterBytes>;
    using lane_pointer = linear_pointer<const float, uint, Lanes, RegisterBytes>;
    using lane_target = linear_pointer<float, uint, Lanes, RegisterBytes>;
    const uint i = gidY * 8;
    const lane_uint j = lane_uint::lane_index(firstGidX) * 4u;
    // `if (i >= params.rows || j >= params.cols) return;`: the row takes this form only when
    // no lane returns here (the translator's other forms take the rest).
    if (i >= rows || any(varying<uint, Lanes, RegisterBytes>(j) >= cols)) return false;
    lane_float4x4 top(float4x4(0.0f));
    lane_float4x4 bottom(float4x4(0.0f));
    for (uint k = 0; k < inner; k += 4) {
        // `*(device const float4*)(B + (k + m) * params.cols + j)`: B and the offset's uniform
        // part the same for every lane, `j` stepping by 4 from lane to lane (gid.x * 4).
        lane_float4x4 bt(lane_pointer::at(B + (k + 0) * cols, j).template as<const float4>().load(),
                         lane_pointer::at(B + (k + 1) * cols, j).template as<const float4>().load(),
                         lane_pointer::at(B + (k + 2) * cols, j).template as<const float4>().load(),
                         lane_pointer::at(B + (k + 3) * cols, j).template as<const float4>().load());
        float4x4 upper(*(const float4*)(A + (i + 0) * inner + k), *(const float4*)(A + (i + 1) * inner + k),
                       *(const float4*)(A + (i + 2) * inner + k), *(const float4*)(A + (i + 3) * inner + k));
        float4x4 lower(*(const float4*)(A + (i + 4) * inner + k), *(const float4*)(A + (i + 5) * inner + k),
                       *(const float4*)(A + (i + 6) * inner + k), *(const float4*)(A + (i + 7) * inner + k));
        top += bt * upper;
        bottom += bt * lower;
    }
    for (uint r = 0; r < 4; ++r) {
        lane_target::at(C + (i + r) * cols, j).template as<float4>().store(top[r]);
        lane_target::at(C + (i + 4 + r) * cols, j).template as<float4>().store(bottom[r]);
    }
    return true;
}

} // namespace

} // namespace lane_vectors
