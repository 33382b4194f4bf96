// Threadgroup memory sized by the host ([[threadgroup(0)]]), a helper that synchronises, and a
// half-precision literal.
#include <metal_stdlib>
using namespace metal;

static void store_and_sync(threadgroup float* scratch, uint slot, float value)
{
    scratch[slot] = value;
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

kernel void reverse_in_group(device float* data [[buffer(0)]],
                             threadgroup float* scratch [[threadgroup(0)]],
                             uint gid [[thread_position_in_grid]],
                             uint lid [[thread_position_in_threadgroup]],
                             uint count [[threads_per_threadgroup]])
{
    store_and_sync(scratch, lid, data[gid] * float(1.0h));
    data[gid] = scratch[count - 1 - lid];
}
