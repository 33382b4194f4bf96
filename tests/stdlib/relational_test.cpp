// Tests of <metal_relational>: classification of half and float values (and vectors),
// ordered/unordered, all, any and select.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#include <limits>
#include <type_traits>

namespace {

using metal::bool2;
using metal::bool3;
using metal::bool4;
using metal::float2;
using metal::float3;
using metal::float4;
using metal::half2;
using metalcpu_test::expect_vec_eq;

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kDenorm = std::numeric_limits<float>::denorm_min();

// Test that isnan, isinf, isfinite, isnormal and signbit agree with the C library on special floats.
TEST(Relational, FloatClassification) {
    const float values[] = {0.0f, -0.0f, 1.0f, -2.5f, kDenorm, kInf, -kInf, kNan, -kNan, FLT_MAX};
    for (float x : values) {
        EXPECT_EQ(metal::isnan(x), std::isnan(x)) << x;
        EXPECT_EQ(metal::isinf(x), std::isinf(x)) << x;
        EXPECT_EQ(metal::isfinite(x), std::isfinite(x)) << x;
        EXPECT_EQ(metal::isnormal(x), std::isnormal(x)) << x;
        EXPECT_EQ(metal::signbit(x), std::signbit(x)) << x;
    }
}

// Test that half values are classified as halves (subnormals, the largest half, infinity, NaN).
TEST(Relational, HalfClassification) {
    const half inf = std::numeric_limits<float>::infinity();
    const half nan = metal::numeric_limits<half>::quiet_NaN();
    const half subnormal = metal::numeric_limits<half>::denorm_min();
    const half largest = static_cast<half>(65504.0f);
    EXPECT_TRUE(metal::isinf(inf));
    EXPECT_FALSE(metal::isinf(largest));
    EXPECT_TRUE(metal::isnan(nan));
    EXPECT_FALSE(metal::isnan(inf));
    EXPECT_TRUE(metal::isfinite(largest));
    EXPECT_FALSE(metal::isfinite(nan));
    EXPECT_TRUE(metal::isnormal(largest));
    EXPECT_FALSE(metal::isnormal(subnormal)) << "6e-8 is a half subnormal though a normal float";
    EXPECT_FALSE(metal::isnormal(static_cast<half>(0.0f)));
    EXPECT_TRUE(metal::signbit(static_cast<half>(-0.0f)));
    EXPECT_FALSE(metal::signbit(static_cast<half>(1.0f)));
}

// Test that the classification of a vector is a bool vector, component by component.
TEST(Relational, VectorClassification) {
    const float4 v(1.0f, kNan, -kInf, -0.0f);
    EXPECT_TRUE((std::is_same_v<decltype(metal::isnan(v)), bool4>));
    expect_vec_eq(metal::isnan(v), {false, true, false, false});
    expect_vec_eq(metal::isinf(v), {false, false, true, false});
    expect_vec_eq(metal::isfinite(v), {true, false, false, true});
    expect_vec_eq(metal::signbit(v), {false, false, true, true});
    expect_vec_eq(metal::isnan(half2(kNan, 0.0f)), {true, false});
}

// Test that isordered and isunordered detect NaN arguments.
TEST(Relational, OrderedUnordered) {
    EXPECT_TRUE(metal::isordered(1.0f, 2.0f));
    EXPECT_FALSE(metal::isordered(kNan, 2.0f));
    EXPECT_TRUE(metal::isunordered(1.0f, kNan));
    EXPECT_FALSE(metal::isunordered(kInf, -kInf));
    expect_vec_eq(metal::isunordered(float2(kNan, 1.0f), 0.0f), {true, false});
}

// Test that all and any reduce bool vectors, bool scalars and comparison results.
TEST(Relational, AllAny) {
    EXPECT_TRUE(metal::all(bool4(true)));
    EXPECT_FALSE(metal::all(bool4(true, true, false, true)));
    EXPECT_TRUE(metal::any(bool3(false, false, true)));
    EXPECT_FALSE(metal::any(bool2(false)));
    EXPECT_TRUE(metal::all(float3(1.0f, 2.0f, 3.0f) > 0.0f));
    EXPECT_TRUE(metal::any(float2(-1.0f, 0.0f) == 0.0f));
    EXPECT_TRUE(metal::all(true));
    const bool4 b(true, false, true, true);
    EXPECT_TRUE(metal::all(b.xzw));
    EXPECT_FALSE(metal::all(b.xy));
}

// Test that select picks per component with a bool vector and as a whole with a bool.
TEST(Relational, Select) {
    EXPECT_EQ(metal::select(1.0f, 2.0f, true), 2.0f);
    EXPECT_EQ(metal::select(1.0f, 2.0f, false), 1.0f);
    EXPECT_EQ(metal::select(-3, 3, 1 > 0), 3);
    const float d = 0.5f;
    EXPECT_EQ(metal::select(-d, d, bool(0x04 & 0x04)), 0.5f);
    expect_vec_eq(metal::select(float4(0.0f), float4(1.0f, 2.0f, 3.0f, 4.0f), bool4(true, false, true, false)),
                  {1.0f, 0.0f, 3.0f, 0.0f});
    expect_vec_eq(metal::select(int2(1, 2), int2(3, 4), true), {3, 4});
    const float3 v(-1.0f, 2.0f, -3.0f);
    expect_vec_eq(metal::select(v, -v, v < 0.0f), {1.0f, 2.0f, 3.0f});
    expect_vec_eq(metal::select(v, 0.0f, v < 0.0f), {0.0f, 2.0f, 0.0f});
}

// Test that a scalar condition of an integer type converts to bool, as for MSL's
// select(T, T, bool): select(a, b, n & 1) with ints throughout.
TEST(Relational, SelectWithIntegerCondition) {
    EXPECT_EQ(metal::select(10, 20, 3 & 1), 20);
    EXPECT_EQ(metal::select(10, 20, 2 & 1), 10);
    EXPECT_EQ(metal::select(1.5f, 2.5f, 7u), 2.5f);
    expect_vec_eq(metal::select(int2(1, 2), int2(3, 4), 0), {1, 2});
}

} // namespace
