#include <metal_stdlib>
using namespace metal;

// SIMD-group functions as whole statements split the kernel into work-item loops: a
// declaration, an assignment and a compound assignment, one in a loop; the threadgroup
// version needs a barrier too.
kernel void reduce(device const float* in [[buffer(0)]],
                   device float* out [[buffer(1)]],
                   uint gid [[thread_position_in_grid]],
                   uint group [[threadgroup_position_in_grid]],
                   uint lane [[thread_index_in_simdgroup]],
                   uint sg [[simdgroup_index_in_threadgroup]]) {
    threadgroup float partial[32];
    float s = in[gid];
    float total = simd_sum(s);
    for (ushort offset = 16; offset > 0; offset /= 2) {
        s += metal::simd_shuffle_down(s, offset);
    }
    if (lane == 0) partial[sg] = total + s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s = simd_max(partial[lane % 4]);
    if (gid == 0) out[group] = s;
}

// A collective as an operand keeps the fibers.
kernel void operand(device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    out[gid] = 2.0f * simd_sum(out[gid]);
}
