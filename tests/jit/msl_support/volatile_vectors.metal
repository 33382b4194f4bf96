// expect: compiles
#include <metal_stdlib>
using namespace metal;

// GLSL's coherent and volatile buffers, as SPIRV-Cross writes them.
struct SSBO { int4 value; };
kernel void coherent(volatile device SSBO& s [[buffer(0)]], volatile device float4* p [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    float4 v = p[i + 1];
    p[i] = v * 2.0f;
    s.value = int4(v);
}
