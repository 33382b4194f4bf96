// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void packed(device packed_float3* p [[buffer(0)]], device float3* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float3 v = p[i];
    out[i] = v + float3(p[i].x);
}
