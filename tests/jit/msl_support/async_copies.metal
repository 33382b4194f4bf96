// expect: error: kernel code cannot contain assembly
#include <metal_stdlib>
using namespace metal;

// metal-flash-attention's 'metal_simdgroup_event' header reaches Apple's async copies through
// their AIR intrinsics, declared with __asm labels; metalcpu has neither those nor
// simdgroup_event.
struct _simdgroup_event_t;
thread _simdgroup_event_t* __metal_simdgroup_async_copy_1d(ulong, ulong, threadgroup void*, const device void*, ulong)
    __asm("air.simdgroup_async_copy_1d.p3i8.p1i8");

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[32];
    __metal_simdgroup_async_copy_1d(sizeof(float), alignof(float), (threadgroup void*)tile, (const device void*)out, 32);
    out[lid] = tile[lid];
}
