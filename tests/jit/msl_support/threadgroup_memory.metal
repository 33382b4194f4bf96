// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void reverse(device float* data [[buffer(0)]], threadgroup float* scratch [[threadgroup(0)]],
                    uint local [[thread_position_in_threadgroup]], uint size [[threads_per_threadgroup]],
                    uint gid [[thread_position_in_grid]]) {
    threadgroup float fixed[64];
    scratch[local] = data[gid];
    fixed[local % 64] = data[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    data[gid] = scratch[size - 1 - local] + fixed[0] * 0.0f;
}
