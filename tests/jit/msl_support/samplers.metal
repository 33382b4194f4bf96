// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void blur(texture2d<float, access::sample> in [[texture(0)]], texture2d<half, access::write> out [[texture(1)]],
                 sampler argument_sampler [[sampler(0)]], uint2 gid [[thread_position_in_grid]]) {
    constexpr sampler linear(coord::normalized, address::clamp_to_edge, filter::linear);
    const float2 size = float2(out.get_width(), out.get_height());
    const float2 uv = (float2(gid) + 0.5f) / size;
    out.write(half4(in.sample(linear, uv) * 0.5f + in.sample(argument_sampler, uv) * 0.5f), gid);
    // Mip levels: by level of detail, bias, gradients, clamped by the sampler.
    constexpr sampler mips(filter::linear, mip_filter::linear, lod_clamp(0.0f, 3.0f));
    const float4 pyramid = in.sample(mips, uv, level(1.5f)) + in.sample(mips, uv, bias(1.0f)) +
                           in.sample(mips, uv, gradient2d(float2(0.25f, 0.0f), float2(0.0f, 0.25f))) +
                           in.sample(mips, uv, level(2.0f), min_lod_clamp(1.0f));
    if (gid.x == 0 && gid.y == 0) out.write(half4(pyramid), gid);
}
