// Tests of Apple's __metal_* math builtins (metalcpu/stdlib/builtins.h), used the way MLX's
// bf16_math.h uses them: bfloat overloads of the math functions in metal::, metal::fast:: and
// metal::precise:: written over __metal_<name>(float, mode), next to the library's own.
#include <metal_stdlib>

#include <cmath>
#include <type_traits>

#include <gtest/gtest.h>

typedef bfloat bfloat16_t;

// As MLX writes them (not copied): non-template bfloat overloads over the builtins.
#define BFLOAT_MATH(mode)                                                                       \
    METAL_FUNC bfloat16_t exp(bfloat16_t x) { return static_cast<bfloat16_t>(__metal_exp(static_cast<float>(x), mode)); } \
    METAL_FUNC bfloat16_t fmax(bfloat16_t x, bfloat16_t y) {                                     \
        return static_cast<bfloat16_t>(__metal_fmax(static_cast<float>(x), static_cast<float>(y), mode)); \
    }                                                                                           \
    METAL_FUNC bfloat16_t fmedian3(bfloat16_t x, bfloat16_t y, bfloat16_t z) {                   \
        return static_cast<bfloat16_t>(                                                         \
            __metal_fmedian3(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), mode)); \
    }                                                                                           \
    METAL_FUNC bfloat16_t fma(bfloat16_t x, bfloat16_t y, bfloat16_t z) {                        \
        return static_cast<bfloat16_t>(__metal_fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z))); \
    }                                                                                           \
    METAL_FUNC bfloat16_t frexp(bfloat16_t x, int& e) {                                          \
        return static_cast<bfloat16_t>(__metal_frexp(static_cast<float>(x), &e));               \
    }                                                                                           \
    METAL_FUNC bfloat16_t ldexp(bfloat16_t x, int k) {                                           \
        return static_cast<bfloat16_t>(__metal_ldexp(static_cast<float>(x), k, mode));          \
    }                                                                                           \
    METAL_FUNC bfloat16_t nextafter(bfloat16_t x, bfloat16_t y) {                                \
        return static_cast<bfloat16_t>(__metal_nextafter(static_cast<float>(x), static_cast<float>(y))); \
    }
namespace metal {
BFLOAT_MATH(__METAL_MAYBE_FAST_MATH__)
namespace fast {
BFLOAT_MATH(__METAL_FAST_MATH__)
} // namespace fast
namespace precise {
BFLOAT_MATH(__METAL_PRECISE_MATH__)
} // namespace precise
} // namespace metal

namespace {

float f(bfloat16_t b) { return static_cast<float>(b); }

// Test that kernel-defined overloads over the builtins compile next to the library's functions,
// are the ones called for bfloat, and compute what the library computes.
TEST(Builtins, MlxStyleBfloatOverloads) {
    using namespace metal;
    const bfloat16_t x = bfloat16_t(1.5f), y = bfloat16_t(-2.0f), z = bfloat16_t(4.0f);
    EXPECT_EQ(f(metal::exp(x)), f(bfloat16_t(std::exp(1.5f))));
    EXPECT_EQ(f(metal::precise::fmax(x, y)), 1.5f);
    EXPECT_EQ(f(metal::fast::fmedian3(x, y, z)), 1.5f);
    EXPECT_EQ(f(metal::fma(x, y, z)), 1.0f);
    int e = 0;
    EXPECT_EQ(f(metal::frexp(z, e)), 0.5f);
    EXPECT_EQ(e, 3);
    EXPECT_EQ(f(metal::ldexp(x, 3)), 12.0f);
    EXPECT_EQ(f(metal::nextafter(bfloat16_t(1.0f), z)), 1.0f) << "float's next value rounds back to 1 in bfloat";
    EXPECT_EQ(f(metal::exp2(x)), f(bfloat16_t(std::exp2(1.5f)))) << "the library's own template for what the kernel lacks";
}

// Test the builtins on float, with the modes: the precise fmax/fmin family ignores a NaN
// argument, the mode may be left out, and the others take it and ignore it.
TEST(Builtins, FloatAndModes) {
    EXPECT_EQ(__metal_fmax(1.0f, NAN, __METAL_PRECISE_MATH__), 1.0f);
    EXPECT_EQ(__metal_fmin(NAN, 2.0f, __METAL_PRECISE_MATH__), 2.0f);
    EXPECT_EQ(__metal_fmax3(1.0f, NAN, 3.0f, __METAL_PRECISE_MATH__), 3.0f);
    EXPECT_EQ(__metal_sqrt(16.0f, __METAL_FAST_MATH__), 4.0f);
    EXPECT_EQ(__metal_sqrt(16.0f), 4.0f);
    EXPECT_EQ(__metal_fabs(-2.5f, __METAL_MAYBE_FAST_MATH__), 2.5f);
    EXPECT_EQ(__metal_divide(1.0f, 4.0f, __METAL_FAST_MATH__), 0.25f);
    EXPECT_EQ(__metal_fmod(7.0f, 4.0f, __METAL_PRECISE_MATH__), 3.0f);
    EXPECT_EQ(__metal_pow(2.0f, 10.0f, __METAL_PRECISE_MATH__), 1024.0f);
    static_assert(std::is_same_v<decltype(__metal_exp(metal::float2(1.0f))), metal::float2>);
    static_assert(std::is_same_v<decltype(__metal_exp(static_cast<half>(1.0f), __METAL_FAST_MATH__)), half>);
}

} // namespace
