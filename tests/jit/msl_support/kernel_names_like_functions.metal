// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void dot(device const float4* a [[buffer(0)]], device const float4* b [[buffer(1)]], device float* out [[buffer(2)]],
                uint i [[thread_position_in_grid]]) {
    out[i] = metal::dot(a[i], b[i]);
}

kernel void clamp(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = metal::clamp(data[i], 0.0f, 1.0f);
}
