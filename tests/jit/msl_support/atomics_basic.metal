// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void histogram(device const uint* values [[buffer(0)]], device atomic_uint* bins [[buffer(1)]],
                      device atomic_float* total [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    threadgroup atomic_int local_count;
    atomic_store_explicit(&local_count, 0, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_fetch_add_explicit(&bins[values[i] % 16], 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(total, float(values[i]), memory_order_relaxed);
    atomic_fetch_add_explicit(&local_count, 1, memory_order_relaxed);
}

kernel void extremes(device atomic_ulong* range [[buffer(0)]], device const ulong* values [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    atomic_min_explicit(&range[0], values[i], memory_order_relaxed);
    atomic_max_explicit(&range[1], values[i], memory_order_relaxed);
}
