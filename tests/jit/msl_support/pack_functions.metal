// expect: compiles
#include <metal_stdlib>
using namespace metal;

// GLSL's packUnorm4x8 and friends as SPIRV-Cross and naga write them.
kernel void pack_unpack(device uint* words [[buffer(0)]], device float4* colours [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
    const float4 c = unpack_unorm4x8_to_float(words[i]) + unpack_snorm4x8_to_float(words[i]);
    const float2 p = unpack_unorm2x16_to_float(words[i]) * unpack_snorm2x16_to_float(words[i]);
    colours[i] = c + float4(p, unpack_unorm4x8_srgb_to_float(words[i]).xy) + float4(unpack_unorm10a2_to_float(words[i]));
    words[i] = pack_float_to_unorm4x8(c) ^ pack_float_to_snorm4x8(c) ^ pack_float_to_unorm2x16(p) ^
               pack_float_to_snorm2x16(p) ^ pack_float_to_srgb_unorm4x8(c) ^ pack_half_to_unorm4x8(half4(c)) ^
               pack_float_to_unorm10a2(c) ^ uint(pack_float_to_unorm565(c.xyz));
}
