// expect: compiles
#include <metal_stdlib>
using namespace metal;

union Block {
    struct {
        half d, m;
    };
    half2 dm;
};

kernel void vectors(device float4* v [[buffer(0)]], device int2* n [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float4 a = v[i];
    a.xy = a.yx * 2.0f;
    float3 b = a.rgb + float3(1.0f);
    vec<float, 4> c = float4(b, a.w);
    n[i] = int2(c.zw) + n[i][0];
    uint4 keys = {i, i + 1, i ^ 7u}; // the last component is zero
    Block block, copy;
    block.dm = half2(a.xy);
    copy = block;
    a.zw = c.zw;
    v[i] = c + float(keys.w) + float(copy.m) + a;
}
