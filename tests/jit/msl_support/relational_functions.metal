// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void relational(device float4* v [[buffer(0)]], device int* flags [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float4 a = v[i];
    bool4 bad = isnan(a) || isinf(a);
    flags[i] = any(bad) ? 1 : (all(a > 0.0f) ? 2 : 0);
    v[i] = select(a, float4(0.0f), bad);
}
