// Tests of metal::vec<T, N>: construction, components, operators and half rounding.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <type_traits>

namespace {

using namespace metal;

template <class T, int N> void expect_vec(const vec<T, N>& v, std::initializer_list<T> expected) {
    int i = 0;
    for (T e : expected) {
        EXPECT_EQ(v[i], e) << "component " << i;
        ++i;
    }
    EXPECT_EQ(i, N);
}

// Test that brace initialisation with fewer scalars than components zero-fills the rest, as
// in MSL (MLX's `uint4 ks = {a, b, c};`), while one scalar still broadcasts.
TEST(Vec, BraceInitialisationZeroFillsTheRest) {
    uint4 three = {1u, 2u, 3u};
    expect_vec(three, {1u, 2u, 3u, 0u});
    float4 two = {1.5f, -2.5f};
    expect_vec(two, {1.5f, -2.5f, 0.0f, 0.0f});
    int3 mixed = {7, short(8)};
    expect_vec(mixed, {7, 8, 0});
    float4 one = {2.0f};
    expect_vec(one, {2.0f, 2.0f, 2.0f, 2.0f});
}

// Test that a vector broadcasts a scalar, and takes its components one by one.
TEST(Vec, BroadcastAndElementwiseConstruction) {
    expect_vec(float4(1.5f), {1.5f, 1.5f, 1.5f, 1.5f});
    float4 zero = 0;
    expect_vec(zero, {0.0f, 0.0f, 0.0f, 0.0f});
    expect_vec(float4(1, 2, 3, 4), {1.0f, 2.0f, 3.0f, 4.0f});
    float3 list = {1.0f, 2.0f, 3.0f};
    expect_vec(list, {1.0f, 2.0f, 3.0f});
    const uint a = 7, b = 9;
    uint2 braced = {a, b};
    expect_vec(braced, {7u, 9u});
    expect_vec(int2(-1), {-1, -1});
    float4 value_initialised{};
    expect_vec(value_initialised, {0.0f, 0.0f, 0.0f, 0.0f});
}

// Test that vectors compose from scalars and smaller vectors whose component counts add up.
TEST(Vec, Composition) {
    const float2 xy(1.0f, 2.0f);
    const float3 xyz(1.0f, 2.0f, 3.0f);
    expect_vec(float4(xy, 0, 1), {1.0f, 2.0f, 0.0f, 1.0f});
    expect_vec(float4(xyz, 4.0f), {1.0f, 2.0f, 3.0f, 4.0f});
    expect_vec(float4(0.5f, xy, 9), {0.5f, 1.0f, 2.0f, 9.0f});
    expect_vec(float4(xy, xy), {1.0f, 2.0f, 1.0f, 2.0f});
    expect_vec(float3(xy, 3), {1.0f, 2.0f, 3.0f});
    expect_vec(int4(int2(1, 2), int2(3, 4)), {1, 2, 3, 4});
    expect_vec(float4(packed_float3(xyz), 7.0f), {1.0f, 2.0f, 3.0f, 7.0f});
    EXPECT_FALSE((std::is_constructible_v<float4, float2, float>)) << "3 components for a float4";
    EXPECT_FALSE((std::is_constructible_v<float2, float, float, float>));
}

// Test that element-type conversions are explicit and convert each component as C++ does.
TEST(Vec, ExplicitConversion) {
    expect_vec(float4(int4(1, -2, 3, -4)), {1.0f, -2.0f, 3.0f, -4.0f});
    expect_vec(int4(float4(1.9f, -1.9f, 0.4f, 7.0f)), {1, -1, 0, 7});
    expect_vec(static_cast<uint2>(int2(3, 4)), {3u, 4u});
    expect_vec(float4(bool4(true, false, true, false)), {1.0f, 0.0f, 1.0f, 0.0f});
    const half4 h = static_cast<half4>(float4(0.5f, 2.0f, -1.0f, 65504.0f));
    EXPECT_EQ(static_cast<float>(h.w), 65504.0f);
    EXPECT_EQ(static_cast<float>(h.x), 0.5f);
    EXPECT_FALSE((std::is_convertible_v<int4, float4>)) << "no implicit conversion between vector types";
    EXPECT_FALSE((std::is_convertible_v<float4, half4>));
    EXPECT_TRUE((std::is_convertible_v<float, float4>)) << "scalars broadcast implicitly";
}

// Test that packed vectors and swizzles convert explicitly to vectors of another element type:
// float4(packed_char4), float2(i.xy), half3(packed_float3).
TEST(Vec, ExplicitConversionFromPackedVectorsAndSwizzles) {
    const packed_char4 bytes(char(1), char(-2), char(3), char(-128));
    expect_vec(float4(bytes), {1.0f, -2.0f, 3.0f, -128.0f});
    const int4 i(5, 6, 7, 8);
    expect_vec(float2(i.wy), {8.0f, 6.0f});
    const packed_float3 p(0.5f, 1.5f, 2.5f);
    const half3 h = half3(p);
    EXPECT_EQ(static_cast<float>(h.z), 2.5f);
    EXPECT_FALSE((std::is_convertible_v<packed_char4, float4>)) << "explicit, as between vectors";
}

// Test that .xyzw, .rgba and subscripts name the same components and are assignable lvalues.
TEST(Vec, ComponentAccess) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    EXPECT_EQ(v.x, 1.0f);
    EXPECT_EQ(v.w, 4.0f);
    EXPECT_EQ(v.r, 1.0f);
    EXPECT_EQ(v.a, 4.0f);
    v.y = 20.0f;
    EXPECT_EQ(v[1], 20.0f);
    EXPECT_EQ(v.g, 20.0f);
    v[2] = 30.0f;
    EXPECT_EQ(v.z, 30.0f);
    v.a += 1.0f;
    EXPECT_EQ(v.w, 5.0f);
    EXPECT_EQ(&v.x, &v[0]);
    EXPECT_EQ(&v.w, &v[3]);
    float& ref = v.z;
    ref = -1.0f;
    EXPECT_EQ(v[2], -1.0f);
    uint3 u(1u, 2u, 3u);
    u.z++;
    EXPECT_EQ(u.z, 4u);
}

// Test that the arithmetic operators work component by component.
TEST(Vec, Arithmetic) {
    const float4 a(1.0f, 2.0f, 3.0f, 4.0f);
    const float4 b(0.5f, -2.0f, 6.0f, 8.0f);
    expect_vec(a + b, {1.5f, 0.0f, 9.0f, 12.0f});
    expect_vec(a - b, {0.5f, 4.0f, -3.0f, -4.0f});
    expect_vec(a * b, {0.5f, -4.0f, 18.0f, 32.0f});
    expect_vec(a / b, {2.0f, -1.0f, 0.5f, 0.5f});
    expect_vec(-a, {-1.0f, -2.0f, -3.0f, -4.0f});
    expect_vec(+a, {1.0f, 2.0f, 3.0f, 4.0f});
    const int4 i(7, -7, 9, 12);
    const int4 j(2, 2, -4, 5);
    expect_vec(i % j, {1, -1, 1, 2});
    expect_vec(i / j, {3, -3, -2, 2});
}

// Test that a scalar on either side of an operator is converted to the element type and broadcast.
TEST(Vec, ScalarMixing) {
    const float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    expect_vec(v * 2.0f, {2.0f, 4.0f, 6.0f, 8.0f});
    expect_vec(2 * v, {2.0f, 4.0f, 6.0f, 8.0f});
    expect_vec(v + 1, {2.0f, 3.0f, 4.0f, 5.0f});
    expect_vec(1 - v, {0.0f, -1.0f, -2.0f, -3.0f});
    expect_vec(v / 2, {0.5f, 1.0f, 1.5f, 2.0f});
    expect_vec(12.0f / v, {12.0f, 6.0f, 4.0f, 3.0f});
    expect_vec(uint3(1u, 2u, 3u) * 2 + 1u, {3u, 5u, 7u});
    expect_vec(int2(5, -5) + 1u, {6, -4}); // the scalar takes the vector's element type
    const half4 h(1.0f, 2.0f, 3.0f, 4.0f);
    const half4 scaled = h * 0.5f;
    EXPECT_EQ(static_cast<float>(scaled.y), 1.0f);
    EXPECT_TRUE((std::is_same_v<decltype(h * 0.5f), half4>));
    EXPECT_TRUE((std::is_same_v<decltype(v * 2), float4>));
}

// Test that the bitwise, shift and negation operators work on integer vectors.
TEST(Vec, BitwiseAndShifts) {
    const uint4 a(0xf0u, 0x0fu, 0xffu, 0x1u);
    const uint4 b(0xffu, 0xf0u, 0x0fu, 0x3u);
    expect_vec(a & b, {0xf0u, 0x00u, 0x0fu, 0x1u});
    expect_vec(a | b, {0xffu, 0xffu, 0xffu, 0x3u});
    expect_vec(a ^ b, {0x0fu, 0xffu, 0xf0u, 0x2u});
    expect_vec(a << 4, {0xf00u, 0xf0u, 0xff0u, 0x10u});
    expect_vec(a >> uint4(4, 0, 4, 1), {0xfu, 0x0fu, 0xfu, 0x0u});
    expect_vec(~uint2(0u, 0xffffffffu), {0xffffffffu, 0u});
    expect_vec(int2(-8, 8) >> 1, {-4, 4});
    expect_vec(bool2(true, false) ^ bool2(true, true), {false, true});
}

// Test that comparisons give bool vectors and that &&, || and ! work on them.
TEST(Vec, ComparisonsGiveBoolVectors) {
    const float4 a(1.0f, 2.0f, 3.0f, 4.0f);
    const float4 b(4.0f, 2.0f, 1.0f, 5.0f);
    EXPECT_TRUE((std::is_same_v<decltype(a < b), bool4>));
    expect_vec(a < b, {true, false, false, true});
    expect_vec(a <= b, {true, true, false, true});
    expect_vec(a > b, {false, false, true, false});
    expect_vec(a >= b, {false, true, true, false});
    expect_vec(a == b, {false, true, false, false});
    expect_vec(a != b, {true, false, true, true});
    expect_vec(a == 2.0f, {false, true, false, false});
    expect_vec(3 > a, {true, true, false, false});
    const bool4 p(true, true, false, false);
    const bool4 q(true, false, true, false);
    expect_vec(p && q, {true, false, false, false});
    expect_vec(p || q, {true, true, true, false});
    expect_vec(!p, {false, false, true, true});
    expect_vec(!int2(0, 5), {true, false});
}

// Test that compound assignments and increments work, including with scalars.
TEST(Vec, CompoundAssignmentAndIncrement) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    v += 1;
    expect_vec(v, {2.0f, 3.0f, 4.0f, 5.0f});
    v *= float4(2.0f, 0.5f, 1.0f, 0.0f);
    expect_vec(v, {4.0f, 1.5f, 4.0f, 0.0f});
    v -= 0.5f;
    v /= 2;
    expect_vec(v, {1.75f, 0.5f, 1.75f, -0.25f});
    int3 i(1, 2, 3);
    i <<= 2;
    i |= 1;
    i %= 5;
    expect_vec(i, {0, 4, 3});
    int2 k(5, -5);
    EXPECT_EQ((k++).x, 5);
    EXPECT_EQ(k.x, 6);
    EXPECT_EQ((--k).y, -5);
}

// Test that narrow integer vectors wrap like their scalars.
TEST(Vec, NarrowIntegersWrap) {
    expect_vec(char2(127, -128) + char2(1, -1), {static_cast<char>(-128), static_cast<char>(127)});
    expect_vec(uchar2(250, 0) + uchar2(10, 0), {static_cast<uchar>(4), static_cast<uchar>(0)});
    expect_vec(ushort2(0, 1) - ushort2(1, 1), {static_cast<ushort>(65535), static_cast<ushort>(0)});
}

// Test that half arithmetic rounds every operation to half, as the GPU does.
TEST(Vec, HalfArithmeticRoundsToHalf) {
    // half(0.1) = 1638/16384 exactly; its square is 0.0099951177..., whose nearest half is
    // 1310 * 2^-17 (bits 0x211E). Rounding the float product 0.1f * 0.1f instead would give 0x211F.
    const half tenth = static_cast<half>(0.1f);
    EXPECT_EQ(as_type<ushort>(tenth), 0x2e66u);
    const half square = tenth * tenth;
    EXPECT_EQ(as_type<ushort>(square), 0x211eu);
    const half4 v4 = half4(tenth) * half4(tenth);
    EXPECT_EQ(as_type<ushort>(v4.w), 0x211eu);
    // 2049 is not a half: 2048 + 1 rounds (to even) back to 2048, also in a vector.
    const half big = static_cast<half>(2048.0f);
    EXPECT_EQ(static_cast<float>(big + static_cast<half>(1.0f)), 2048.0f);
    const half2 sums = half2(big) + half2(1.0f, 2.0f);
    EXPECT_EQ(static_cast<float>(sums.x), 2048.0f);
    EXPECT_EQ(static_cast<float>(sums.y), 2050.0f);
    // half * float is computed in float, as in MSL.
    EXPECT_TRUE((std::is_same_v<decltype(tenth * 0.1f), float>));
}

// Test that packed vectors convert to and from vectors and take part in vector arithmetic.
TEST(Vec, PackedVectors) {
    packed_float3 p = float3(1.0f, 2.0f, 3.0f);
    EXPECT_EQ(p.x, 1.0f);
    EXPECT_EQ(p[2], 3.0f);
    p.y = 5.0f;
    const float3 doubled = p * 2.0f;
    expect_vec(doubled, {2.0f, 10.0f, 6.0f});
    p += float3(1.0f);
    EXPECT_EQ(p.z, 4.0f);
    const float3 back = p;
    expect_vec(back, {2.0f, 6.0f, 4.0f});
    const packed_float3 composed(1.0f, float2(2.0f, 3.0f));
    EXPECT_EQ(composed.z, 3.0f);
    packed_half4 ph = half4(1.0f);
    EXPECT_EQ(static_cast<float>(ph.w), 1.0f);
    const packed_float3 from_swizzle = float4(1, 2, 3, 4).wzy;
    EXPECT_EQ(from_swizzle.x, 4.0f);
    EXPECT_EQ(from_swizzle.z, 2.0f);
    // An array of packed_float3 is tightly packed, as the host writes it.
    packed_float3 array[2] = {float3(1.0f), float3(2.0f)};
    EXPECT_EQ(reinterpret_cast<const float*>(array)[3], 2.0f);
}

// Test that vectors can be constructed in constant expressions.
TEST(Vec, ConstantExpressions) {
    constexpr float4 k(1.0f, 2.0f, 3.0f, 4.0f);
    static_assert(k[2] == 3.0f);
    constexpr float4 k2 = k * 2.0f + 1.0f;
    static_assert(k2[3] == 9.0f);
    constexpr int4 c = int4(int2(1, 2), 3, 4);
    static_assert(c[1] == 2);
    EXPECT_EQ(k2[0], 3.0f);
}

} // namespace
