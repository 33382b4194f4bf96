// expect: error: type 'float' is not valid for attribute 'thread_position_in_grid'
#include <metal_stdlib>
using namespace metal;

kernel void scale(device float* out [[buffer(0)]], float i [[thread_position_in_grid]]) {
    out[uint(i)] = i;
}
