// expect: error: render functions are not supported
#include <metal_stdlib>
using namespace metal;

vertex float4 position(uint id [[vertex_id]]) { return float4(float(id), 0.0f, 0.0f, 1.0f); }
