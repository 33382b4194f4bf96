// expect: error: texturecube
#include <metal_stdlib>
using namespace metal;

kernel void faces(texturecube<float, access::read> cube [[texture(0)]], device float4* out [[buffer(0)]]) {
    out[0] = cube.read(uint2(0), 0);
}
