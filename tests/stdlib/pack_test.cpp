// Tests of <metal_pack>: each pack function against values worked out by hand from MSL's
// conversion rules (clamp, scale, round to nearest even, first component lowest), each unpack
// against the inverse rule, and round trips over every 8-bit code.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <cmath>
#include <cstdint>

namespace {

using namespace metal;

// Test unorm 4x8: 0.5 * 255 = 127.5 rounds to even (128), values outside [0, 1] clamp, NaN is 0.
TEST(Pack, FloatToUnorm4x8) {
    EXPECT_EQ(pack_float_to_unorm4x8(float4(0.0f, 0.5f, 1.0f, 2.0f)), 0xFFFF8000u);
    EXPECT_EQ(pack_float_to_unorm4x8(float4(-3.0f, NAN, 1.5f / 255.0f, 2.5f / 255.0f)), 0x02020000u);
    EXPECT_EQ(pack_half_to_unorm4x8(half4(0.0f, 0.5f, 1.0f, 2.0f)), 0xFFFF8000u);
}

// Test snorm 4x8: -1 is -127 (0x81), +-63.5 round to even (+-64), outside [-1, 1] clamps.
TEST(Pack, FloatToSnorm4x8) {
    EXPECT_EQ(pack_float_to_snorm4x8(float4(-1.0f, -0.5f, 0.5f, 1.0f)), 0x7F40C081u);
    EXPECT_EQ(pack_float_to_snorm4x8(float4(-9.0f, 9.0f, 0.0f, NAN)), 0x00007F81u);
    EXPECT_EQ(pack_half_to_snorm4x8(half4(-1.0f, -0.5f, 0.5f, 1.0f)), 0x7F40C081u);
}

// Test the 16-bit pairs: 0.5 * 65535 = 32767.5 rounds to 32768; 0.25 * 32767 = 8191.75 to 8192.
TEST(Pack, FloatTo2x16) {
    EXPECT_EQ(pack_float_to_unorm2x16(float2(0.5f, 1.0f)), 0xFFFF8000u);
    EXPECT_EQ(pack_float_to_snorm2x16(float2(-1.0f, 0.25f)), 0x20008001u);
    EXPECT_EQ(pack_half_to_unorm2x16(half2(0.5f, 1.0f)), 0xFFFF8000u);
    EXPECT_EQ(pack_half_to_snorm2x16(half2(-1.0f, 0.25f)), 0x20008001u);
}

// Test sRGB: linear 0.5 is sRGB 0.7354 (187.52 -> 188, 0xBC), alpha stays linear (128).
TEST(Pack, FloatToSrgbUnorm4x8) {
    EXPECT_EQ(pack_float_to_srgb_unorm4x8(float4(0.5f, 0.0f, 1.0f, 0.5f)), 0x80FF00BCu);
    EXPECT_EQ(pack_half_to_srgb_unorm4x8(half4(0.5f, 0.0f, 1.0f, 0.5f)), 0x80FF00BCu);
}

// Test 10a2 (511.5 rounds to 512; alpha 1 is 3) and 565 (0.5 * 63 = 31.5 rounds to 32).
TEST(Pack, FloatTo10a2And565) {
    EXPECT_EQ(pack_float_to_unorm10a2(float4(1.0f, 0.0f, 0.5f, 1.0f)), 0xE00003FFu);
    EXPECT_EQ(pack_float_to_unorm565(float3(1.0f, 0.5f, 0.0f)), 0xFC00u);
    EXPECT_EQ(pack_half_to_unorm10a2(half4(1.0f, 0.0f, 0.5f, 1.0f)), 0xE00003FFu);
    EXPECT_EQ(pack_half_to_unorm565(half3(1.0f, 0.5f, 0.0f)), 0xFC00u);
}

// Test the unpacks: c / 255, max(-1, c / 127) (so -128 and -127 are both -1), 16-bit pairs,
// sRGB decoding of colour only, 10a2 and 565.
TEST(Pack, Unpack) {
    const float4 u = unpack_unorm4x8_to_float(0xFF80FF00u);
    EXPECT_EQ(u.x, 0.0f);
    EXPECT_EQ(u.y, 1.0f);
    EXPECT_EQ(u.z, 128.0f / 255.0f);
    EXPECT_EQ(u.w, 1.0f);
    const float4 s = unpack_snorm4x8_to_float(0x7F408180u);
    EXPECT_EQ(s.x, -1.0f);
    EXPECT_EQ(s.y, -1.0f);
    EXPECT_EQ(s.z, 64.0f / 127.0f);
    EXPECT_EQ(s.w, 1.0f);
    const float2 u16 = unpack_unorm2x16_to_float(0xFFFF8000u);
    EXPECT_EQ(u16.x, 32768.0f / 65535.0f);
    EXPECT_EQ(u16.y, 1.0f);
    const float2 s16 = unpack_snorm2x16_to_float(0x20008000u);
    EXPECT_EQ(s16.x, -1.0f);
    EXPECT_EQ(s16.y, 8192.0f / 32767.0f);
    const float4 srgb = unpack_unorm4x8_srgb_to_float(0x80FF00BCu);
    EXPECT_NEAR(srgb.x, 0.50289f, 1e-5f); // ((188/255 + 0.055) / 1.055)^2.4
    EXPECT_EQ(srgb.y, 0.0f);
    EXPECT_EQ(srgb.z, 1.0f);
    EXPECT_EQ(srgb.w, 128.0f / 255.0f);
    const float4 ten = unpack_unorm10a2_to_float(0xE00003FFu);
    EXPECT_EQ(ten.x, 1.0f);
    EXPECT_EQ(ten.y, 0.0f);
    EXPECT_EQ(ten.z, 512.0f / 1023.0f);
    EXPECT_EQ(ten.w, 1.0f);
    const float3 rgb = unpack_unorm565_to_float(ushort(0xFC00u));
    EXPECT_EQ(rgb.x, 1.0f);
    EXPECT_EQ(rgb.y, 32.0f / 63.0f);
    EXPECT_EQ(rgb.z, 0.0f);
    const half4 h = unpack_unorm4x8_to_half(0xFF80FF00u);
    EXPECT_EQ(float(h.y), 1.0f);
    EXPECT_EQ(float(h.z), float(half(128.0f / 255.0f)));
    EXPECT_EQ(float(unpack_snorm2x16_to_half(0x7FFF8001u).x), -1.0f);
    EXPECT_EQ(float(unpack_unorm565_to_half(ushort(0x001Fu)).z), 1.0f);
    EXPECT_EQ(float(unpack_unorm10a2_to_half(0xC0000000u).w), 1.0f);
    EXPECT_EQ(float(unpack_unorm4x8_srgb_to_half(0xFF000000u).w), 1.0f);
    EXPECT_EQ(float(unpack_snorm4x8_to_half(0x0000007Fu).x), 1.0f);
    EXPECT_EQ(float(unpack_unorm2x16_to_half(0x0000FFFFu).x), 1.0f);
}

// Test that every 8-bit code survives unpack then pack, in each 4x8 encoding.
TEST(Pack, RoundTripsEveryCode) {
    for (std::uint32_t c = 0; c < 256; ++c) {
        const std::uint32_t x = c | (255 - c) << 8 | (c ^ 0x55u) << 16 | (c * 7 & 0xFFu) << 24;
        ASSERT_EQ(pack_float_to_unorm4x8(unpack_unorm4x8_to_float(x)), x) << c;
        ASSERT_EQ(pack_float_to_srgb_unorm4x8(unpack_unorm4x8_srgb_to_float(x)), x) << c;
        // -128 unpacks to -1, which packs as -127: the one code that does not survive.
        std::uint32_t expected = 0;
        for (int k = 0; k < 4; ++k) {
            const std::uint32_t byte = x >> (8 * k) & 0xFFu;
            expected |= (byte == 0x80u ? 0x81u : byte) << (8 * k);
        }
        ASSERT_EQ(pack_float_to_snorm4x8(unpack_snorm4x8_to_float(x)), expected) << c;
    }
}

} // namespace
