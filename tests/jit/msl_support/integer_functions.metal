// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void integers(device uint* u [[buffer(0)]], device int* s [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    u[i] = popcount(u[i]) + clz(u[i]) + ctz(u[i]) + mulhi(u[i], 3u) + rotate(u[i], 4u) + extract_bits(u[i], 2, 4);
    s[i] = abs(s[i]) + min(s[i], 3) + addsat(s[i], 7) + absdiff(s[i], 2);
}
