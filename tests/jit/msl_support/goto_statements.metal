// expect: error: goto is not supported
#include <metal_stdlib>
using namespace metal;

kernel void jumps(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i == 0) goto done;
    out[i] = 1;
done:
    return;
}
