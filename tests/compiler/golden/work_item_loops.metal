// Barrier kernels split into work-item loops: a template in a namespace whose loop holds the
// barriers and whose threads may return early; a kernel whose loop runs while a per-thread
// variable (uniform, as Metal requires) says so, with a barrier under a uniform `if`, a const
// that sizes threadgroup memory, and a per-thread object that cannot be default-constructed
// or assigned.
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
    for (uint stride = 1; stride < N; stride *= 2) {
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

// A per-thread variable of a type without a default constructor or assignment.
struct Halves {
    const float weight;
    float total;
    Halves(float first) : weight(0.5f), total(first) {}
};

kernel void halve_until(device float* data [[buffer(0)]],
                        constant uint& rounds [[buffer(1)]],
                        uint2 lid [[thread_position_in_threadgroup]],
                        uint2 size [[threads_per_threadgroup]])
{
    const uint kWidth = 16;
    threadgroup float row[kWidth];
    uint left = rounds;
    float mine = data[lid.x];
    Halves sum(mine);
    while (left > 0) {
        row[lid.x % kWidth] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mine = sum.weight * (mine + row[(lid.x + 1) % kWidth]);
        sum.total += mine;
        left >>= 1;
        if (size.x > 1) {
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
    }
    data[lid.x] = sum.total;
}
