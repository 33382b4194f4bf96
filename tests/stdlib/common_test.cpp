// Tests of <metal_common> and the min/max family: clamp, mix, saturate, sign, smoothstep,
// step, min, max, min3, max3, median3 on scalars, vectors and mixed arguments.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#include <cmath>
#include <type_traits>

// A user's own min and max templates, of the shape PyTorch's c10/metal/utils.h has: a kernel
// brings them in beside `using namespace metal`. Each returns a mark, to see which is called.
namespace user_minmax {
template <class T, class U>
metal::enable_if_t<metal::is_integral_v<T> && metal::is_integral_v<U>, T> min(T, U) {
    return T(100);
}
template <class T, class U>
metal::enable_if_t<metal::is_integral_v<T> && metal::is_integral_v<U>, T> max(T, U) {
    return T(100);
}
} // namespace user_minmax

// SPIRV-Cross's helper for GLSL's sign(int) (glsl.std450.comp), which it writes beside
// `using namespace metal`: it must be the only candidate for an integer, as with Apple's
// metal::sign, declared for half and float only.
namespace spirv_cross_sign {
using namespace metal;
template <typename T, typename E = typename enable_if<is_integral<T>::value>::type>
inline T sign(T x) {
    return select(select(select(x, T(0), x == T(0)), T(1), x > T(0)), T(-1), x < T(0));
}
using metal::sign; // both in one overload set, as at the global scope of SPIRV-Cross's file
inline int of(int x) { return sign(x); }
inline float of(float x) { return sign(x); }
} // namespace spirv_cross_sign

namespace {

using namespace metal;
using metalcpu_test::expect_vec_eq;

// Test that min and max of two values of one type are plain overloads, as Metal declares them:
// they win over a user's templates of the same name instead of being ambiguous with them.
TEST(Common, MinMaxOfOneTypeWinOverUserTemplates) {
    using namespace user_minmax;
    int a = 3, b = 7;
    EXPECT_EQ(min(a, b), 3);
    EXPECT_EQ(max(a, b), 7);
    EXPECT_EQ(min(short(-2), short(5)), -2);
    EXPECT_EQ(max(uchar(2), uchar(250)), 250);
    EXPECT_EQ(min(char(-4), char(4)), -4);
    EXPECT_EQ(max(3u, 9u), 9u);
    EXPECT_EQ(min(-5l, 6l), -5l);
    EXPECT_EQ(max(5ul, 6ul), 6ul);
    EXPECT_EQ(min(1.5f, -2.5f), -2.5f);
    EXPECT_EQ(static_cast<float>(max(half(1.0f), half(2.0f))), 2.0f);
    EXPECT_TRUE((std::is_same_v<decltype(min(short(1), short(2))), short>));
}

// Test that clamp limits floats, integers and vectors, with scalar or vector bounds.
TEST(Common, Clamp) {
    EXPECT_EQ(clamp(1.5f, 0.0f, 1.0f), 1.0f);
    EXPECT_EQ(clamp(-0.5f, 0.0f, 1.0f), 0.0f);
    EXPECT_EQ(clamp(0.25f, 0.0f, 1.0f), 0.25f);
    EXPECT_EQ(clamp(7, 0, 5), 5);
    EXPECT_EQ(clamp(-7, -3, 5), -3);
    EXPECT_EQ(clamp(9u, 2u, 4u), 4u);
    expect_vec_eq(clamp(float4(-1.0f, 0.5f, 2.0f, 1.0f), 0.0f, 1.0f), {0.0f, 0.5f, 1.0f, 1.0f});
    expect_vec_eq(clamp(int3(-5, 5, 50), int3(0), int3(10, 4, 100)), {0, 4, 50});
    EXPECT_TRUE((std::is_same_v<decltype(clamp(float4(0), 0, 1)), float4>));
    EXPECT_TRUE((std::is_same_v<decltype(clamp(half2(0.0f), 0.0f, 1.0f)), half2>));
}

// Test that mix is x + (y - x) * a, with scalar and vector weights.
TEST(Common, Mix) {
    EXPECT_EQ(mix(2.0f, 4.0f, 0.25f), 2.5f);
    EXPECT_EQ(mix(2.0f, 4.0f, 0.0f), 2.0f);
    EXPECT_EQ(mix(2.0f, 4.0f, 1.0f), 4.0f);
    expect_vec_eq(mix(float2(0.0f, 10.0f), float2(10.0f, 20.0f), 0.5f), {5.0f, 15.0f});
    expect_vec_eq(mix(float2(0.0f), float2(8.0f), float2(0.25f, 0.75f)), {2.0f, 6.0f});
}

// Test that saturate clamps to [0, 1].
TEST(Common, Saturate) {
    EXPECT_EQ(saturate(1.5f), 1.0f);
    EXPECT_EQ(saturate(-2.0f), 0.0f);
    EXPECT_EQ(saturate(0.75f), 0.75f);
    EXPECT_EQ(static_cast<float>(saturate(static_cast<half>(3.0f))), 1.0f);
    expect_vec_eq(saturate(float3(-1.0f, 0.5f, 9.0f)), {0.0f, 0.5f, 1.0f});
}

// Test that sign gives 1, -1, or the (signed) zero itself, and 0 for NaN.
TEST(Common, Sign) {
    EXPECT_EQ(sign(3.5f), 1.0f);
    EXPECT_EQ(sign(-0.001f), -1.0f);
    EXPECT_EQ(sign(0.0f), 0.0f);
    EXPECT_TRUE(std::signbit(sign(-0.0f)));
    EXPECT_EQ(sign(NAN), 0.0f);
    expect_vec_eq(sign(float4(-2.0f, 2.0f, 0.0f, -7.0f)), {-1.0f, 1.0f, 0.0f, -1.0f});
}

template <class X> concept has_metal_sign = requires(X x) { metal::sign(x); };

// Test that metal::sign takes half and float (and a double literal, as float) but no integer,
// so that SPIRV-Cross's integer sign() helper beside it is not ambiguous.
TEST(Common, SignIsForFloatingTypesOnly) {
    static_assert(has_metal_sign<float> && has_metal_sign<half> && has_metal_sign<float3> && has_metal_sign<double>);
    static_assert(!has_metal_sign<int> && !has_metal_sign<uint> && !has_metal_sign<short> && !has_metal_sign<int2>);
    EXPECT_EQ(spirv_cross_sign::of(-5), -1);
    EXPECT_EQ(spirv_cross_sign::of(0), 0);
    EXPECT_EQ(spirv_cross_sign::of(9), 1);
    EXPECT_EQ(spirv_cross_sign::of(-2.5f), -1.0f);
}

// Test that smoothstep follows the Hermite polynomial 3t^2 - 2t^3 and clamps outside the edges.
TEST(Common, Smoothstep) {
    EXPECT_EQ(smoothstep(0.0f, 1.0f, -1.0f), 0.0f);
    EXPECT_EQ(smoothstep(0.0f, 1.0f, 2.0f), 1.0f);
    EXPECT_EQ(smoothstep(0.0f, 1.0f, 0.5f), 0.5f);
    EXPECT_FLOAT_EQ(smoothstep(0.0f, 2.0f, 0.5f), 3.0f * 0.0625f - 2.0f * 0.015625f);
    expect_vec_eq(smoothstep(float2(0.0f), float2(1.0f), float2(0.25f, 0.75f)),
                  {0.15625f, 0.84375f});
}

// Test that step gives 0 below the edge and 1 at and above it.
TEST(Common, Step) {
    EXPECT_EQ(step(1.0f, 0.5f), 0.0f);
    EXPECT_EQ(step(1.0f, 1.0f), 1.0f);
    EXPECT_EQ(step(1.0f, 3.0f), 1.0f);
    expect_vec_eq(step(float3(0.0f, 1.0f, 2.0f), float3(1.0f)), {1.0f, 1.0f, 0.0f});
    expect_vec_eq(step(0.5f, float2(0.0f, 1.0f)), {0.0f, 1.0f});
}

// Test that min and max work on integers, floats, vectors and mixed scalar types, with MSL's result types.
TEST(Common, MinMax) {
    EXPECT_EQ(max(3, 7), 7);
    EXPECT_EQ(min(-3, 7), -3);
    EXPECT_EQ(max(3u, 7u), 7u);
    EXPECT_EQ(min(2.5f, -1.0f), -1.0f);
    EXPECT_EQ(max(static_cast<short>(-2), static_cast<short>(5)), 5);
    EXPECT_TRUE((std::is_same_v<decltype(max(short(1), short(2))), short>)) << "no promotion to int";
    EXPECT_TRUE((std::is_same_v<decltype(max(2.0f, 1)), float>)) << "a float with an int literal stays float";
    EXPECT_TRUE((std::is_same_v<decltype(min(2.0f, 1.0)), float>)) << "a double literal does not widen";
    EXPECT_TRUE((std::is_same_v<decltype(min(7u, 32)), uint>));
    EXPECT_EQ(max(2.0f, 3), 3.0f);
    expect_vec_eq(max(int4(1, 5, -3, 0), int4(2, 4, -4, 0)), {2, 5, -3, 0});
    expect_vec_eq(min(float2(1.0f, 5.0f), 2.0f), {1.0f, 2.0f});
    expect_vec_eq(max(0, uint2(3u, 0u)), {3u, 0u});
    EXPECT_EQ(static_cast<float>(max(static_cast<half>(1.0f), static_cast<half>(2.0f))), 2.0f);
}

// Test that half min and max (which compare bits, not widened floats) pick what a float
// comparison picks, for every half against zeros, ones, the largest finite halves,
// infinities and the smallest subnormals; NaNs are unspecified in the fast flavour and
// ignored in the precise one.
TEST(Common, HalfMinMaxOrderEveryHalf) {
    const float others[] = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, -65504.0f, INFINITY, -INFINITY, 0x1p-24f, -0x1p-24f};
    for (unsigned bits = 0; bits < 0x10000u; ++bits) {
        const half a = __builtin_bit_cast(half, static_cast<unsigned short>(bits));
        for (const float other : others) {
            const half b = static_cast<half>(other);
            if (std::isnan(float(a))) {
                EXPECT_EQ(float(metal::precise::max(a, b)), float(b)) << bits;
                EXPECT_EQ(float(metal::precise::min(b, a)), float(b)) << bits;
                continue;
            }
            const half wantMax = float(a) > float(b) ? a : b, wantMin = float(a) < float(b) ? a : b;
            ASSERT_EQ(__builtin_bit_cast(unsigned short, half(metal::fast::max(a, b))),
                      __builtin_bit_cast(unsigned short, wantMax)) << bits << " vs " << other;
            ASSERT_EQ(__builtin_bit_cast(unsigned short, half(metal::fast::min(a, b))),
                      __builtin_bit_cast(unsigned short, wantMin)) << bits << " vs " << other;
            ASSERT_EQ(__builtin_bit_cast(unsigned short, half(metal::precise::max(a, b))),
                      __builtin_bit_cast(unsigned short, wantMax)) << bits << " vs " << other;
        }
    }
}

// Test that max3, min3, median3 and their float forms pick the right one of three values.
TEST(Common, ThreeArgumentMinMax) {
    EXPECT_EQ(max3(1, 9, 5), 9);
    EXPECT_EQ(min3(4.0f, -2.0f, 3.0f), -2.0f);
    EXPECT_EQ(median3(4, 1, 3), 3);
    EXPECT_EQ(median3(1.0f, 2.0f, 3.0f), 2.0f);
    EXPECT_EQ(median3(3.0f, 2.0f, 1.0f), 2.0f);
    EXPECT_EQ(fmax3(1.0f, 7.0f, 2.0f), 7.0f);
    EXPECT_EQ(fmin3(1.0f, 7.0f, 2.0f), 1.0f);
    EXPECT_EQ(fmedian3(1.0f, 7.0f, 2.0f), 2.0f);
    expect_vec_eq(median3(int2(1, 9), int2(5, 5), int2(3, 0)), {3, 5});
}

// Test that metal::abs works on floats, integers and vectors (qualified: the C library has an ::abs).
TEST(Common, Abs) {
    EXPECT_EQ(metal::abs(-2.5f), 2.5f);
    EXPECT_EQ(metal::abs(-7), 7);
    EXPECT_EQ(metal::abs(7u), 7u);
    EXPECT_EQ(metal::abs(static_cast<char>(-5)), 5);
    EXPECT_TRUE((std::is_same_v<decltype(metal::abs(-7)), int>));
    expect_vec_eq(metal::abs(float3(-1.0f, 2.0f, -0.0f)), {1.0f, 2.0f, 0.0f});
    expect_vec_eq(metal::abs(int2(-3, 3)), {3, 3});
    EXPECT_EQ(static_cast<float>(metal::abs(static_cast<half>(-0.5f))), 0.5f);
    EXPECT_EQ(metal::fabs(-3.0f), 3.0f);
}

} // namespace
