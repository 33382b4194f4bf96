// expect: error: variable-length arrays are not supported in Metal: the size of 'tmp' uses parameter 'n'
#include <metal_stdlib>
using namespace metal;

kernel void last(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float tmp[n];
    for (uint j = 0; j < n; ++j) tmp[j] = float(j);
    out[i] = tmp[n - 1];
}
