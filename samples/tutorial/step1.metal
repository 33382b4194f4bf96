#include <metal_stdlib>
using namespace metal;

// One thread per element: thread `index` adds a[index] and b[index].
kernel void add_arrays(device const float* a [[buffer(0)]],
                       device const float* b [[buffer(1)]],
                       device float* sum [[buffer(2)]],
                       uint index [[thread_position_in_grid]]) {
    sum[index] = a[index] + b[index];
}
