// Barrier kernels that become coroutines (a template in a namespace with qualified barrier
// names and early returns, a lambda that does not synchronise, and a `break` out of the loop
// that holds the barriers, which keeps it from becoming work-item loops) next to one that
// keeps the fibers because its barrier is inside a lambda.
#include <metal_stdlib>
using namespace metal;

namespace scan {

template <typename T, uint N>
[[kernel]] void block_prefix(device T* data [[buffer(0)]],
                             constant uint& count [[buffer(1)]],
                             uint gid [[thread_position_in_grid]],
                             uint lid [[thread_index_in_threadgroup]])
{
    threadgroup T partial[N];
    auto load = [&](uint i) -> T { return i < count ? data[i] : T(0); };
    partial[lid] = load(gid);
    for (uint stride = 1;; stride *= 2) {
        if (stride >= N) break;
        metal::threadgroup_barrier(mem_flags::mem_threadgroup);
        T value = lid >= stride ? partial[lid - stride] : T(0);
        ::metal::simdgroup_barrier(mem_flags::mem_threadgroup);
        partial[lid] += value;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gid >= count) {
        return;
    }
    data[gid] = partial[lid];
}

} // namespace scan

template [[host_name("block_prefix_float_64")]] [[kernel]] decltype(scan::block_prefix<float, 64>) scan::block_prefix<float, 64>;

kernel void reverse_by_lambda(device float* data [[buffer(0)]],
                              uint lid [[thread_index_in_threadgroup]],
                              uint size [[threads_per_threadgroup]])
{
    threadgroup float tile[256];
    auto exchange = [&](float x) {
        tile[lid] = x;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        return tile[size - 1 - lid];
    };
    data[lid] = exchange(data[lid]);
}
