// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void reverse(device float* data [[buffer(0)]], threadgroup float* scratch [[threadgroup(0)]],
                    uint local [[thread_position_in_threadgroup]], uint size [[threads_per_threadgroup]],
                    uint gid [[thread_position_in_grid]]) {
    threadgroup float fixed[64];
    // As tinygrad's renderer writes its local buffers, and the other places an alignment may stand.
    threadgroup __attribute__((aligned(16))) float buf0[16];
    alignas(16) threadgroup float buf1[16];
    threadgroup float buf2[16] __attribute__((aligned(16)));
    scratch[local] = data[gid];
    fixed[local % 64] = data[gid];
    buf0[local % 16] = buf1[local % 16] = buf2[local % 16] = 0.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    data[gid] = scratch[size - 1 - local] + fixed[0] * 0.0f + buf0[0] + buf1[0] + buf2[0];
}
