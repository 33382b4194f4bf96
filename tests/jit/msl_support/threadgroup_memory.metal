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

// SPIRV-Cross's array-copy helpers for shared memory (array-copy-threadgroup-memory.comp):
// `threadgroup const T (&src)[A]` deduces T from a threadgroup array under shader validation too.
template <typename T, uint A>
inline void spvArrayCopyFromThreadGroupToStack1(thread T (&dst)[A], threadgroup const T (&src)[A]) {
    for (uint i = 0; i < A; i++) dst[i] = src[i];
}
template <typename T, uint A>
inline void spvArrayCopyFromThreadGroupToThreadGroup1(threadgroup T (&dst)[A], threadgroup const T (&src)[A]) {
    for (uint i = 0; i < A; i++) dst[i] = src[i];
}
kernel void array_copies(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup float shared_group[8];
    threadgroup float shared_copy[8];
    shared_group[l % 8] = float(l);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float local[8];
    spvArrayCopyFromThreadGroupToStack1(local, shared_group);
    spvArrayCopyFromThreadGroupToThreadGroup1(shared_copy, shared_group);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[l] = local[l % 8] + shared_copy[(l + 1) % 8];
}
