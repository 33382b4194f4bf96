// Tests of <metal_limits>: numeric_limits against std::numeric_limits and the half format,
// and the limit macros against their definitions.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

namespace {

template <class T> void expect_integer_limits_match_std() {
    using M = metal::numeric_limits<T>;
    using S = std::numeric_limits<T>;
    EXPECT_TRUE(M::is_specialized);
    EXPECT_EQ(M::min(), S::min());
    EXPECT_EQ(M::max(), S::max());
    EXPECT_EQ(M::lowest(), S::lowest());
    EXPECT_EQ(M::digits, S::digits);
    EXPECT_EQ(M::digits10, S::digits10);
    EXPECT_EQ(M::is_signed, S::is_signed);
    EXPECT_TRUE(M::is_integer);
    EXPECT_FALSE(M::has_infinity);
}

// Test that the integer limits match the host's for every integer type.
TEST(Limits, Integers) {
    expect_integer_limits_match_std<bool>();
    expect_integer_limits_match_std<char>();
    expect_integer_limits_match_std<signed char>();
    expect_integer_limits_match_std<uchar>();
    expect_integer_limits_match_std<short>();
    expect_integer_limits_match_std<ushort>();
    expect_integer_limits_match_std<int>();
    expect_integer_limits_match_std<uint>();
    expect_integer_limits_match_std<long>();
    expect_integer_limits_match_std<ulong>();
}

// Test that the float limits match the host's.
TEST(Limits, Float) {
    using M = metal::numeric_limits<float>;
    using S = std::numeric_limits<float>;
    EXPECT_EQ(M::min(), S::min());
    EXPECT_EQ(M::max(), S::max());
    EXPECT_EQ(M::lowest(), S::lowest());
    EXPECT_EQ(M::epsilon(), S::epsilon());
    EXPECT_EQ(M::denorm_min(), S::denorm_min());
    EXPECT_EQ(M::infinity(), S::infinity());
    EXPECT_TRUE(std::isnan(M::quiet_NaN()));
    EXPECT_EQ(M::digits, 24);
    EXPECT_EQ(M::max_exponent, S::max_exponent);
    EXPECT_EQ(M::min_exponent, S::min_exponent);
}

// Test that the half limits are those of binary16: 65504, 2^-14, 2^-10, 2^-24.
TEST(Limits, Half) {
    using M = metal::numeric_limits<half>;
    EXPECT_EQ(static_cast<float>(M::max()), 65504.0f);
    EXPECT_EQ(static_cast<float>(M::lowest()), -65504.0f);
    EXPECT_EQ(static_cast<float>(M::min()), std::ldexp(1.0f, -14));
    EXPECT_EQ(static_cast<float>(M::epsilon()), std::ldexp(1.0f, -10));
    EXPECT_EQ(static_cast<float>(M::denorm_min()), std::ldexp(1.0f, -24));
    EXPECT_TRUE(std::isinf(static_cast<float>(M::infinity())));
    EXPECT_TRUE(std::isnan(static_cast<float>(M::quiet_NaN())));
    EXPECT_EQ(M::digits, 11);
    EXPECT_EQ(M::max_exponent, 16);
    EXPECT_EQ(M::min_exponent, -13);
    constexpr half m = metal::numeric_limits<half>::max();
    static_assert(static_cast<float>(m) == 65504.0f, "usable in constant expressions");
}

// Test that the MSL limit macros have the values they stand for.
TEST(Limits, Macros) {
    EXPECT_EQ(CHAR_BIT, 8);
    EXPECT_EQ(SCHAR_MAX, 127);
    EXPECT_EQ(SCHAR_MIN, -128);
    EXPECT_EQ(UCHAR_MAX, 255);
    EXPECT_EQ(CHAR_MAX, 127);
    EXPECT_EQ(CHAR_MIN, -128);
    EXPECT_EQ(SHRT_MAX, 32767);
    EXPECT_EQ(SHRT_MIN, -32768);
    EXPECT_EQ(USHRT_MAX, 65535);
    EXPECT_EQ(INT_MAX, 2147483647);
    EXPECT_EQ(INT_MIN, -2147483647 - 1);
    EXPECT_EQ(UINT_MAX, 4294967295u);
    EXPECT_EQ(LONG_MAX, 9223372036854775807l);
    EXPECT_EQ(ULONG_MAX, 18446744073709551615ul);
    EXPECT_EQ(FLT_MAX, std::numeric_limits<float>::max());
    EXPECT_EQ(FLT_MIN, std::numeric_limits<float>::min());
    EXPECT_EQ(FLT_EPSILON, std::ldexp(1.0f, -23));
    EXPECT_EQ(FLT_MANT_DIG, 24);
    EXPECT_EQ(static_cast<float>(HALF_MAX), 65504.0f);
    EXPECT_EQ(static_cast<float>(HALF_MIN), std::ldexp(1.0f, -14));
    EXPECT_EQ(static_cast<float>(HALF_EPSILON), std::ldexp(1.0f, -10));
    EXPECT_EQ(HALF_MANT_DIG, 11);
    EXPECT_EQ(HALF_DIG, 3);
    EXPECT_EQ(HALF_MAX_EXP, 16);
}

// A library type's limits: numeric_limits<T> derives from _numeric_limits_impl<T>, the template
// Apple's <metal_limits> has libraries specialise (candle's reduce.metal).
struct Ranked {
    int rank;
    float value;
};
} // namespace
template <> struct metal::_numeric_limits_impl<Ranked> {
    static constexpr bool is_specialized = true;
    static constexpr Ranked lowest() { return Ranked{-1, metal::numeric_limits<float>::lowest()}; }
};
namespace {

TEST(Limits, LibraryTypesSpecialiseTheImplementationTemplate) {
    static_assert(metal::numeric_limits<Ranked>::is_specialized && metal::numeric_limits<const Ranked>::is_specialized);
    EXPECT_EQ(metal::numeric_limits<Ranked>::lowest().rank, -1);
    EXPECT_EQ(metal::numeric_limits<Ranked>::lowest().value, -FLT_MAX);
    static_assert(!metal::numeric_limits<Ranked*>::is_specialized);
    static_assert(metal::numeric_limits<float>::is_specialized && metal::numeric_limits<bfloat>::digits == 8);
}

} // namespace
