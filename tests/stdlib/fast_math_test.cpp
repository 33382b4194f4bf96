// Tests compiled with -ffast-math, as kernels are by default: metal:: then names the fast::
// functions, and classification still works (it does not rely on isnan(), which GCC folds to
// false under fast math).
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#ifndef __FAST_MATH__
#error "fast_math_test.cpp must be compiled with -ffast-math"
#endif

namespace {

using namespace metal;

// A NaN and an infinity made from bits at run time, so the optimiser cannot reason them away.
volatile uint g_nan_bits = 0x7fc00000u;
volatile uint g_inf_bits = 0x7f800000u;

// Test that isnan, isinf and isfinite see NaN and infinity under fast math.
TEST(FastMath, ClassificationStillWorks) {
    const float nan = as_type<float>(uint(g_nan_bits));
    const float inf = as_type<float>(uint(g_inf_bits));
    EXPECT_TRUE(metal::isnan(nan));
    EXPECT_FALSE(metal::isnan(inf));
    EXPECT_TRUE(metal::isinf(inf));
    EXPECT_FALSE(metal::isfinite(inf));
    EXPECT_TRUE(metal::isunordered(nan, 1.0f));
    metalcpu_test::expect_vec_eq(metal::isnan(float2(nan, 1.0f)), {true, false});
    EXPECT_TRUE(metal::precise::isnan(metal::precise::fmax(nan, nan)));
    EXPECT_EQ(metal::precise::fmax(nan, 2.0f), 2.0f);
}

// Test that the unqualified min/max family are the fast ones under fast math.
TEST(FastMath, UnqualifiedNamesAreFast) {
    EXPECT_TRUE((&metal::fmax<float, float> == &metal::fast::fmax<float, float>));
    EXPECT_TRUE((&metal::clamp<float, float, float> == &metal::fast::clamp<float, float, float>));
    EXPECT_FALSE((&metal::fmax<float, float> == &metal::precise::fmax<float, float>));
    EXPECT_EQ(metal::fmax(1.0f, 2.0f), 2.0f);
    metalcpu_test::expect_vec_eq(metal::clamp(float4(-1.0f, 0.5f, 2.0f, 0.0f), 0.0f, 1.0f), {0.0f, 0.5f, 1.0f, 0.0f});
}

// Test that vector, math and matrix results stay exact under fast math.
TEST(FastMath, Arithmetic) {
    const float4 v(1.0f, 4.0f, 9.0f, 16.0f);
    metalcpu_test::expect_vec_eq(sqrt(v), {1.0f, 2.0f, 3.0f, 4.0f});
    EXPECT_NEAR(length(float2(3.0f, 4.0f)), 5.0f, 1e-6f);
    const float4x4 m(2.0f);
    metalcpu_test::expect_vec_eq(m * v, {2.0f, 8.0f, 18.0f, 32.0f});
}

} // namespace
