// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void checked_fill(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    assert(i < n && "the grid covers the buffer");
    out[i] = 1.0f;
}
