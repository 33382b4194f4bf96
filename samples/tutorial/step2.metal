#include <metal_stdlib>
using namespace metal;

// Each threadgroup adds up its slice of `values` in threadgroup memory and writes one
// partial sum, partials[group]; the host adds the partial sums up.
kernel void partial_sums(device const float* values [[buffer(0)]],
                         device float* partials [[buffer(1)]],
                         constant uint& count [[buffer(2)]],
                         threadgroup float* scratch [[threadgroup(0)]],
                         uint index [[thread_position_in_grid]],
                         uint local [[thread_position_in_threadgroup]],
                         uint group [[threadgroup_position_in_grid]],
                         uint groupSize [[threads_per_threadgroup]]) {
    // The last threadgroup may reach past the end of the array: its extra threads add 0.
    scratch[local] = index < count ? values[index] : 0.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    // Pairwise sums, twice as far apart each round; any group size works.
    for (uint stride = 1; stride < groupSize; stride *= 2) {
        if (local % (2 * stride) == 0 && local + stride < groupSize)
            scratch[local] += scratch[local + stride];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (local == 0)
        partials[group] = scratch[0];
}
