// expect: compiles
#include <metal_stdlib>
using namespace metal;

// tinygrad's vector casts.
kernel void casts(device float4* f [[buffer(0)]], device half4* h [[buffer(1)]], device int4* i [[buffer(2)]],
                  uint gid [[thread_position_in_grid]]) {
    f[gid] = __builtin_convertvector(h[gid], float4);
    i[gid] = __builtin_convertvector(f[gid], int4);
    h[gid] = __builtin_convertvector(__builtin_convertvector(i[gid], uchar4), half4);
}
