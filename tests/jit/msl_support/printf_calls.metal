// expect: error: 'printf' is not available in Metal: log with os_log
#include <metal_stdlib>
using namespace metal;

kernel void trace(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    printf("%f\n", out[i]);
}
