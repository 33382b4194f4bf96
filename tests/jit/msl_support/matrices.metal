// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void matrices(device float4x4* m [[buffer(0)]], device float4* v [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float4x4 a = m[i];
    float4x4 b = transpose(a) * a + float4x4(1.0f);
    v[i] = b * v[i] + a[2];
    m[i] = b;
}
