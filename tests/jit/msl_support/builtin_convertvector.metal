// expect: compiles
#include <metal_stdlib>
using namespace metal;

// tinygrad's vector casts, over element types and widths, from a swizzle and a packed vector too.
kernel void casts(device float4* f [[buffer(0)]], device half4* h [[buffer(1)]], device int4* i [[buffer(2)]],
                  device packed_float3* p [[buffer(3)]], uint gid [[thread_position_in_grid]]) {
    f[gid] = __builtin_convertvector(h[gid], float4);
    i[gid] = __builtin_convertvector(f[gid], int4);
    h[gid] = __builtin_convertvector(__builtin_convertvector(i[gid], uchar4), half4);
    const long2 l = __builtin_convertvector(f[gid].xy, long2);
    const bool3 b = __builtin_convertvector(p[gid], bool3);
    const ushort2 u = __builtin_convertvector(l, ushort2);
    const char3 c = __builtin_convertvector(uint3(b), char3);
    const bfloat4 bf = __builtin_convertvector(f[gid], bfloat4);
    const ulong3 ul = __builtin_convertvector(c, ulong3);
    const short4 s = __builtin_convertvector(bf, short4);
    f[gid].x += float(u.x) + float(ul.y) + float(s.z);
}
