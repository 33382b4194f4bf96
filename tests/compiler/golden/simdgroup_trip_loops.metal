#include <metal_stdlib>
using namespace metal;

// Loops whose trips are uniform across each SIMD-group only, around SIMD-group functions:
// divergent loops. MLX's sdpa_vector key loop (each SIMD-group from its own index, the score a
// simd_sum over an expression), and trips from a const set up from the SIMD-group's index.
kernel void keys(device const float* queries [[buffer(0)]],
                 device const float* keys [[buffer(1)]],
                 device float* out [[buffer(2)]],
                 constant uint& count [[buffer(3)]],
                 uint gid [[thread_position_in_grid]],
                 uint lid [[thread_index_in_threadgroup]],
                 uint simd_gid [[simdgroup_index_in_threadgroup]],
                 uint simd_lid [[thread_index_in_simdgroup]]) {
    constexpr uint BN = 4;
    threadgroup float partial[BN];
    const float q = queries[gid];
    float best = -1e30f;
    for (uint i = simd_gid; i < count; i += BN) {
        const float k = keys[i * 32 + simd_lid];
        float score = simd_sum(q * k);
        if (score > best) best = score;
    }
    if (simd_lid == 0) partial[simd_gid] = best;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = partial[lid % BN];
}

kernel void rounds(device float* out [[buffer(0)]],
                   uint gid [[thread_position_in_grid]],
                   uint sg [[simdgroup_index_in_threadgroup]]) {
    const uint left = sg + 1;
    float x = out[gid];
    for (uint r = 0; r < left; ++r) {
        x = simd_sum(x * 0.5f);
    }
    out[gid] = x;
}
