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

// Metal 3 style, every id implied (image 0, pick 1, inner 2): the sampler is an 8-byte ID too.
// `inner` points at a further argument buffer (ArgumentEncoder::newArgumentEncoder(2)).
struct Inner {
    device const float* data [[id(0)]];
};
struct Bindless {
    texture2d<float> image;
    sampler pick;
    constant Inner* inner;
};
kernel void nested(constant Bindless& b [[buffer(1)]], device float* out [[buffer(2)]],
                   uint i [[thread_position_in_grid]]) {
    out[i] = b.image.sample(b.pick, float2(0.5f)).x + b.inner->data[i];
}
