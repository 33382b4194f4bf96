// Tests of vector swizzles: reading every kind, writing those with distinct components.
#include <gtest/gtest.h>

#include <metal_stdlib>
#include <metalcpu/swizzle_assignments.h>

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

float4 make(float x, float y, float z, float w) { return float4(x, y, z, w); }

// Test that swizzles of 2, 3 and 4 components read the named components, with repeats, in both name sets.
TEST(Swizzle, Read) {
    const float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    expect_vec<float, 2>(v.xy, {1.0f, 2.0f});
    expect_vec<float, 2>(v.wx, {4.0f, 1.0f});
    expect_vec<float, 3>(v.zyx, {3.0f, 2.0f, 1.0f});
    expect_vec<float, 4>(v.xxyy, {1.0f, 1.0f, 2.0f, 2.0f});
    expect_vec<float, 4>(v.wwww, {4.0f, 4.0f, 4.0f, 4.0f});
    expect_vec<float, 4>(v.abgr, {4.0f, 3.0f, 2.0f, 1.0f});
    expect_vec<float, 3>(v.rgb, {1.0f, 2.0f, 3.0f});
    const int2 i(5, 6);
    expect_vec<int, 4>(i.yxyx, {6, 5, 6, 5});
    expect_vec<int, 3>(i.xxy, {5, 5, 6});
    const uint3 u(7u, 8u, 9u);
    expect_vec<uint, 2>(u.zx, {9u, 7u});
    expect_vec<uint, 4>(u.xyzz, {7u, 8u, 9u, 9u});
    const half4 h(1.0f, 2.0f, 3.0f, 4.0f);
    const half2 hz = h.zw;
    EXPECT_EQ(static_cast<float>(hz.x), 3.0f);
}

// Test that a swizzle with distinct components can be assigned, writing only its components.
TEST(Swizzle, Write) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    v.xy = float2(10.0f, 20.0f);
    expect_vec(v, {10.0f, 20.0f, 3.0f, 4.0f});
    v.zyx = float3(7.0f, 8.0f, 9.0f);
    expect_vec(v, {9.0f, 8.0f, 7.0f, 4.0f});
    v.wz = 0.0f;
    expect_vec(v, {9.0f, 8.0f, 0.0f, 0.0f});
    v.bgra = float4(1.0f, 2.0f, 3.0f, 4.0f);
    expect_vec(v, {3.0f, 2.0f, 1.0f, 4.0f});
    int3 i(1, 2, 3);
    i.zx = int2(30, 10);
    expect_vec(i, {10, 2, 30});
}

// Test that a same-pattern swizzle assignment copies only its components, from any source
// that is not a const lvalue (C++ that is not translated; a const one does not compile).
TEST(Swizzle, SamePatternSources) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float4 c(5.0f, 6.0f, 7.0f, 8.0f);
    v.xy = float2(c.xy);
    expect_vec(v, {5.0f, 6.0f, 3.0f, 4.0f});
    float4 m(9.0f, 9.0f, 9.0f, 9.0f);
    v.zw = m.zw;
    expect_vec(v, {5.0f, 6.0f, 9.0f, 9.0f});
    v.yz = make(0.0f, -1.0f, -2.0f, 0.0f).yz;
    expect_vec(v, {5.0f, -1.0f, -2.0f, 9.0f});
    v.xw = (c + 1.0f).yx;
    expect_vec(v, {7.0f, -1.0f, -2.0f, 6.0f});
    packed_float4 p(1.0f, 2.0f, 3.0f, 4.0f), q(5.0f, 6.0f, 7.0f, 8.0f);
    p.zw = q.zw;
    expect_vec(float4(p), {1.0f, 2.0f, 7.0f, 8.0f});
}

// Test the assignments as kernel code has them (`v.xy->*__mc_swz = e`, compiler/passes/
// swizzle_assignments.h): only the swizzle's components are written, from a const vector of
// the same type too, from the vector itself, from braces and scalars; anything that is not a
// swizzle is assigned as it is.
TEST(Swizzle, TranslatedAssignments) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float4 c(5.0f, 6.0f, 7.0f, 8.0f);
    v.xy->*__mc_swz = c.xy;
    expect_vec(v, {5.0f, 6.0f, 3.0f, 4.0f});
    v.yx->*__mc_swz = v.xy;
    expect_vec(v, {6.0f, 5.0f, 3.0f, 4.0f});
    v.zw->*__mc_swz = {9.0f, 10.0f};
    v.xy->*__mc_swz = 0.5f;
    expect_vec(v, {0.5f, 0.5f, 9.0f, 10.0f});
    const packed_float3 cp(1.0f, 2.0f, 3.0f);
    packed_float3 p(4.0f, 5.0f, 6.0f);
    p.zx->*__mc_swz = cp.zx;
    EXPECT_EQ(p.x, 1.0f);
    EXPECT_EQ(p.y, 5.0f);
    EXPECT_EQ(p.z, 3.0f);
    const float2 chained = (v.zw->*__mc_swz = v.xy->*__mc_swz = c.zw);
    expect_vec(chained, {7.0f, 8.0f});
    expect_vec(v, {7.0f, 8.0f, 7.0f, 8.0f});
    struct Named { int xy; } n{1};
    n.xy->*__mc_swz = 5;
    EXPECT_EQ(n.xy, 5);
}

// Test that swizzle assignments between overlapping components of one vector read before writing.
TEST(Swizzle, SelfAssignment) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    v.xy = v.yx;
    expect_vec(v, {2.0f, 1.0f, 3.0f, 4.0f});
    v.xyz = v.zxy;
    expect_vec(v, {3.0f, 2.0f, 1.0f, 4.0f});
    v.wzyx = v;
    expect_vec(v, {4.0f, 1.0f, 2.0f, 3.0f});
}

// Test that compound assignment to a swizzle works with vectors, scalars and other swizzles.
TEST(Swizzle, CompoundAssignment) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    v.xy += 1.0f;
    expect_vec(v, {2.0f, 3.0f, 3.0f, 4.0f});
    v.zw *= v.xy;
    expect_vec(v, {2.0f, 3.0f, 6.0f, 12.0f});
    v.wx -= float2(2.0f, 2.0f);
    expect_vec(v, {0.0f, 3.0f, 6.0f, 10.0f});
    uint4 u(1u, 2u, 3u, 4u);
    u.yw <<= 4u;
    u.xz |= uint2(0x10u, 0x20u);
    expect_vec(u, {0x11u, 0x20u, 0x23u, 0x40u});
}

// Test that swizzles take part in arithmetic, comparisons and function calls as the vectors they read.
TEST(Swizzle, InExpressions) {
    const float4 v(3.0f, 4.0f, 1.0f, 2.0f);
    expect_vec(v.xy + v.zw, {4.0f, 6.0f});
    expect_vec(v.xy * 2.0f, {6.0f, 8.0f});
    expect_vec(1.0f - v.zw, {0.0f, -1.0f});
    expect_vec(v.xy > v.zw, {true, true});
    EXPECT_FLOAT_EQ(length(v.xy), 5.0f);
    EXPECT_FLOAT_EQ(dot(v.xyz, v.zyx), 3.0f + 16.0f + 3.0f);
    expect_vec(max(v.zw, 1.5f), {1.5f, 2.0f});
    const float4 composed(v.zw, v.xy);
    expect_vec(composed, {1.0f, 2.0f, 3.0f, 4.0f});
    float2 assigned = v.wz;
    expect_vec(assigned, {2.0f, 1.0f});
}

// Test that a copy of a swizzle (auto) keeps reading the components of the vector it was taken from.
TEST(Swizzle, CopiedSwizzleKeepsItsValue) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    auto s = v.wy;
    v = float4(0.0f);
    const float2 read = s;
    expect_vec(read, {4.0f, 2.0f});
}

template <class V> concept can_assign_repeated = requires(V v) { v.xx = vec<float, 2>(1.0f); };
template <class V> concept can_assign_repeated_from_swizzle = requires(V v, V w) { v.xx = w.xx; };
template <class V> concept can_assign_distinct = requires(V v, V w) { v.xy = w.yx; };
template <class V> concept can_assign_same_from_const = requires(V v, const V c) { v.xy = c.xy; };
template <class V> concept can_assign_repeated_translated = requires(V v, V w) { v.xx->*__mc_swz = w.xx; };
template <class V> concept can_assign_through_const = requires(const V v) { v.xy = vec<float, 2>(1.0f); };
template <class V> concept has_w = requires(V v) { v.w; };
template <class V> concept has_mixed_names = requires(V v) { v.xg; };

// Test that repeated-component swizzles and swizzles of const vectors are not assignable, and names are valid.
TEST(Swizzle, InvalidWritesDoNotCompile) {
    EXPECT_FALSE(can_assign_repeated<float4>);
    EXPECT_FALSE(can_assign_repeated_from_swizzle<float4>);
    EXPECT_TRUE(can_assign_distinct<float4>);
    EXPECT_FALSE(can_assign_same_from_const<float4>);
    EXPECT_FALSE(can_assign_same_from_const<packed_float4>);
    EXPECT_FALSE(can_assign_repeated_translated<float4>);
    EXPECT_FALSE(can_assign_through_const<float4>);
    EXPECT_FALSE(has_w<float3>);
    EXPECT_TRUE(has_w<float4>);
    EXPECT_FALSE(has_mixed_names<float4>);
}

// Test that packed vectors have the same swizzles as vectors.
TEST(Swizzle, PackedVectors) {
    packed_float3 p = float3(1.0f, 2.0f, 3.0f);
    expect_vec<float, 2>(p.zx, {3.0f, 1.0f});
    p.xy = float2(7.0f, 8.0f);
    EXPECT_EQ(p.x, 7.0f);
    EXPECT_EQ(p.y, 8.0f);
    EXPECT_EQ(p.z, 3.0f);
}

} // namespace
