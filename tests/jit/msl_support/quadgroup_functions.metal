// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void quads(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]],
                  ushort quad_lane [[thread_index_in_quadgroup]], ushort width [[thread_execution_width]],
                  uint quads [[quadgroups_per_threadgroup]], uint dispatch_quads [[dispatch_quadgroups_per_threadgroup]]) {
    float v = data[i];
    float total = quad_sum(v);
    simd_vote vote = simd_ballot(v > 0.0f);
    bool first = simd_is_first();
    simdgroup_barrier(mem_flags::mem_none);
    data[i] = total + quad_shuffle_xor(v, 1) + float(quad_lane) + float(width) + (first ? 1.0f : 0.0f) +
              (static_cast<simd_vote::vote_t>(vote) != 0 ? 1.0f : 0.0f) + float(dispatch_quads - quads);
}
