// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void blur(texture2d<float, access::sample> in [[texture(0)]], texture2d<half, access::write> out [[texture(1)]],
                 sampler argument_sampler [[sampler(0)]], uint2 gid [[thread_position_in_grid]]) {
    constexpr sampler linear(coord::normalized, address::clamp_to_edge, filter::linear);
    const float2 size = float2(out.get_width(), out.get_height());
    const float2 uv = (float2(gid) + 0.5f) / size;
    out.write(half4(in.sample(linear, uv) * 0.5f + in.sample(argument_sampler, uv) * 0.5f), gid);
}
