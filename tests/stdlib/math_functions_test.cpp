// Tests compiled with -ffast-math and METALCPU_MATH_FP32_FUNCTIONS=1, as the kernel compiler
// compiles a kernel with MTLMathModeFast and MTLMathFloatingPointFunctionsPrecise: the FP32
// function set is chosen apart from the math mode.
#include <gtest/gtest.h>

#include <metal_stdlib>

#if !defined(__FAST_MATH__) || METALCPU_MATH_FP32_FUNCTIONS != 1
#error "math_functions_test.cpp must be compiled with -ffast-math -DMETALCPU_MATH_FP32_FUNCTIONS=1"
#endif

namespace {

// Test that the unqualified min/max family are the precise ones, although fast math is on.
TEST(MathFunctions, PreciseUnderFastMath) {
    EXPECT_TRUE((&metal::fmax<float, float> == &metal::precise::fmax<float, float>));
    EXPECT_TRUE((&metal::clamp<float, float, float> == &metal::precise::clamp<float, float, float>));
    EXPECT_FALSE((&metal::fmax<float, float> == &metal::fast::fmax<float, float>));
    EXPECT_EQ(metal::fmax(1.0f, 2.0f), 2.0f);
}

} // namespace
