// expect: compiles
#include <metal_stdlib>
using namespace metal;

// metal-flash-attention's 'metal_simdgroup_event' header reaches Apple's async copies through
// their AIR intrinsics, declared with __asm labels: metalcpu binds exactly these labels to its
// own copies (each shared out among the SIMD-group's lanes; the wait is its barrier).
struct _simdgroup_event_t;
thread _simdgroup_event_t* __metal_simdgroup_async_copy_1d(ulong, ulong, threadgroup void*, const device void*, ulong)
    __asm("air.simdgroup_async_copy_1d.p3i8.p1i8");
thread _simdgroup_event_t* __metal_simdgroup_async_copy_2d(ulong, ulong, device void*, ulong, ulong, ulong2,
                                                           const threadgroup void*, ulong, ulong, ulong2, long2, int)
    __asm("air.simdgroup_async_copy_2d.p1i8.p3i8");
void __metal_wait_simdgroup_events(int, thread _simdgroup_event_t**) __asm("air.wait_simdgroup_events");

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[32];
    thread _simdgroup_event_t* event = __metal_simdgroup_async_copy_1d(
        sizeof(float), alignof(float), (threadgroup void*)tile, (const device void*)out, 32);
    __metal_wait_simdgroup_events(1, &event);
    tile[lid] += 1;
    simdgroup_barrier(mem_flags::mem_threadgroup);
    __metal_simdgroup_async_copy_2d(sizeof(float), alignof(float), (device void*)out, 8, 1, ulong2(8, 4),
                                    (const threadgroup void*)tile, 8, 1, ulong2(8, 4), long2(0), 0);
}
