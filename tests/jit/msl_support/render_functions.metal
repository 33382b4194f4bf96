// expect: compiles
// A library may hold vertex and fragment functions, as Tint, SPIRV-Cross and naga write every
// entry point of a module into one file: its kernels work, and newFunction() of a render
// function gives nil and an error saying render functions are not supported.
#include <metal_stdlib>
using namespace metal;

struct VOut { float4 position [[position]]; };

vertex VOut position(uint id [[vertex_id]]) { VOut o; o.position = float4(float(id), 0.0f, 0.0f, 1.0f); return o; }
fragment float4 shade(VOut in [[stage_in]]) { return in.position; }

kernel void fill(device uint* o [[buffer(0)]], uint i [[thread_position_in_grid]]) { o[i] = i; }
