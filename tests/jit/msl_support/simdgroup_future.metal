// expect: compiles
#include <metal_stdlib>
using namespace metal;

// metal-flash-attention v1's 'metal_simdgroup_event' header takes Apple's async copies from
// <metal_simdgroup_future> when __HAVE_SIMDGROUP_FUTURE__ is defined (else its copies do
// nothing): metalcpu defines it and has the header.
#if !defined(__HAVE_SIMDGROUP_FUTURE__)
#error "__HAVE_SIMDGROUP_FUTURE__ is defined: <metal_simdgroup_future> is there"
#endif
#include <metal_simdgroup_future>

namespace metal {
struct simdgroup_event {
    template <typename T>
    METAL_FUNC void async_copy(threadgroup T* dst, ushort dst_elements_per_row, ushort2 dst_tile_dimensions,
                               const device T* src, uint src_elements_per_row, ushort2 src_tile_dimensions,
                               simdgroup_async_copy_clamp_mode clamp_mode = simdgroup_async_copy_clamp_mode::clamp_to_zero) thread {
        event = __metal_simdgroup_async_copy_2d(sizeof(T), alignof(T), reinterpret_cast<threadgroup void*>(dst),
                                                ushort(dst_elements_per_row), 1, ulong2(dst_tile_dimensions),
                                                reinterpret_cast<const device void*>(src), uint(src_elements_per_row), 1,
                                                ulong2(src_tile_dimensions), long2(0), static_cast<int>(clamp_mode));
    }
    METAL_FUNC static void wait(int count, thread simdgroup_event* events) {
        __metal_wait_simdgroup_events(count, reinterpret_cast<thread __metal_simdgroup_event_t*>(events));
    }
    __metal_simdgroup_event_t event;
};
} // namespace metal

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[64];
    simdgroup_event e;
    e.async_copy(tile, 8, ushort2(8, 8), out, 6, ushort2(6, 6));
    simdgroup_event::wait(1, &e);
    out[lid] = tile[lid];
}
