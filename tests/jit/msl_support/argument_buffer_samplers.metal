// expect: compiles
#include <metal_stdlib>
using namespace metal;

// An argument buffer a host fills with MTL::ArgumentEncoder or with gpuResourceID()s: buffers,
// a texture, samplers (8-byte IDs here, as on Metal) and constant data, ids written or following on.
struct Material {
    device float* out [[id(0)]];
    texture2d<float> albedo [[id(1)]];
    sampler linear [[id(2)]];
    metal::sampler modes[2];
    array<sampler, 2> more;
    float gain [[id(7)]];
};
kernel void shade(constant Material& m [[buffer(0)]], uint2 gid [[thread_position_in_grid]]) {
    const float2 uv = float2(gid) / 16.0f;
    sampler chosen = m.modes[gid.x % 2];
    m.out[gid.y * 16 + gid.x] = m.gain * (m.albedo.sample(m.linear, uv).x + m.albedo.sample(chosen, uv).y +
                                          m.albedo.sample(m.more[1], uv).z);
}
