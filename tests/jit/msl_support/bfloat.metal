// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void widen(device const bfloat* in [[buffer(0)]], device float* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    bfloat4 v = bfloat4(in[i]);
    out[i] = float(v.x * in[i]) + float(v.y);
}
