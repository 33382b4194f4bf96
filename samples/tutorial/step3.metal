#include <metal_stdlib>
using namespace metal;

// Multiplies each of `values` by `factor`. The bug: nothing stops the threads of the last
// threadgroup that lie past the end of the buffer.
kernel void scale(device float* values [[buffer(0)]],
                  constant float& factor [[buffer(1)]],
                  uint index [[thread_position_in_grid]]) {
    values[index] = values[index] * factor;
}

// The fix: threads past the end do nothing.
kernel void scale_checked(device float* values [[buffer(0)]],
                          constant float& factor [[buffer(1)]],
                          constant uint& count [[buffer(2)]],
                          uint index [[thread_position_in_grid]]) {
    if (index < count)
        values[index] = values[index] * factor;
}
