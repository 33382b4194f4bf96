// expect: error: 'double' is not supported in Metal
#include <metal_stdlib>
using namespace metal;

kernel void widen(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    double x = out[i];
    out[i] = float(x * 0.5);
}
