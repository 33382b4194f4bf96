// Tests of integer division that never traps (metalcpu/stdlib/division.h) and of the helpers
// the front end's rewrite of `/` and `%` calls (metalcpu/division.h), run on the host: a
// division that trapped would end this process with SIGFPE.
#include <gtest/gtest.h>

#include <metal_stdlib>
#include <metalcpu/division.h>

#include "stdlib/test_util.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace {

using metalcpu_stdlib::integer_quotient;
using metalcpu_stdlib::integer_remainder;
using metalcpu_test::expect_vec_eq;

template <class T>
class IntegerDivision : public ::testing::Test {};
using IntegerTypes = ::testing::Types<int, unsigned, long, unsigned long, long long>;
TYPED_TEST_SUITE(IntegerDivision, IntegerTypes);

// Test the documented answers for every promoted integer type: x / 0 == 0, x % 0 == x,
// MIN / -1 == MIN, MIN % -1 == 0, and C++'s answers everywhere else.
TYPED_TEST(IntegerDivision, DocumentedValues) {
    using T = TypeParam;
    constexpr T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
    for (T x : {T(0), T(1), T(7), max, min}) {
        EXPECT_EQ(integer_quotient<T>(x, T(0)), T(0)) << x;
        EXPECT_EQ(integer_remainder<T>(x, T(0)), x) << x;
    }
    EXPECT_EQ(integer_quotient<T>(T(7), T(2)), T(3));
    EXPECT_EQ(integer_remainder<T>(T(7), T(2)), T(1));
    EXPECT_EQ(integer_quotient<T>(max, max), T(1));
    if constexpr (std::is_signed_v<T>) {
        EXPECT_EQ(integer_quotient<T>(min, T(-1)), min);
        EXPECT_EQ(integer_remainder<T>(min, T(-1)), T(0));
        EXPECT_EQ(integer_quotient<T>(T(-7), T(-1)), T(7));
        EXPECT_EQ(integer_quotient<T>(T(-7), T(2)), T(-3));
        EXPECT_EQ(integer_remainder<T>(T(-7), T(2)), T(-1));
    }
}

struct Converts {
    int v;
    constexpr operator int() const { return v; }
};
struct OwnOperators {
    int v;
};
constexpr int operator/(OwnOperators a, int d) { return a.v * 100 + d; }
constexpr int operator%(OwnOperators a, int d) { return a.v * 1000 + d; }

// Test the rewritten forms on what is not a built-in integer division: a user type's own
// operators get the divisor unchanged even when they return an integer (they used to get the
// converted dividend's checked quotient, or not compile); a class that only converts divides
// checked; __int128 and unsigned __int128 divide checked.
TEST(Division, UserOperatorsAndInt128) {
    static_assert(OwnOperators{3} / (__mc_div->*2) == 302 && OwnOperators{3} % (__mc_div->*2) == 3002);
    static_assert(Converts{9} / (__mc_div->*0) == 0 && Converts{9} % (__mc_div->*0) == 9);
    constexpr __int128 min = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
    static_assert(__int128(7) / (__mc_div->*__int128(0)) == 0 && __int128(7) % (__mc_div->*__int128(0)) == 7);
    static_assert(min / (__mc_div->*__int128(-1)) == min && min % (__mc_div->*__int128(-1)) == 0);
    static_assert((unsigned __int128)7 / (__mc_div->*(unsigned __int128)0) == 0);
    volatile int zero = 0;
    __int128 q = 7;
    q /= __mc_div = __int128(zero);
    EXPECT_TRUE(q == 0);
}

// Test that the answers are constant expressions.
TEST(Division, Constexpr) {
    static_assert(integer_quotient(7, 0) == 0 && integer_remainder(7, 0) == 7);
    static_assert(integer_quotient(INT32_MIN, -1) == INT32_MIN && integer_remainder(INT32_MIN, -1) == 0);
    static_assert(8 / (__mc_div->*0) == 0 && 8 % (__mc_div->*0) == 8 && 8 / (__mc_div->*2) == 4);
    int bounds[16 / (__mc_div->*2)] = {};
    EXPECT_EQ(sizeof bounds, 8 * sizeof(int));
}

// Test that vector division and remainder never trap, for each element type, and that the
// compound forms and swizzles do the same.
TEST(Division, Vectors) {
    expect_vec_eq(metal::int4(7, -7, INT32_MIN, 9) / metal::int4(0, 2, -1, 3), {0, -3, INT32_MIN, 3});
    expect_vec_eq(metal::int4(7, -7, INT32_MIN, 9) % metal::int4(0, 2, -1, 3), {7, -1, 0, 0});
    expect_vec_eq(metal::uint2(7, 0xffffffffu) / metal::uint2(0, 0), {0u, 0u});
    expect_vec_eq(metal::uint2(7, 0xffffffffu) % metal::uint2(0, 0), {7u, 0xffffffffu});
    expect_vec_eq(metal::short2(-32768, 5) / metal::short2(-1, 0), {short(-32768), short(0)});
    expect_vec_eq(metal::char2(-128, 5) % metal::char2(-1, 0), {char(0), char(5)});
    expect_vec_eq(metal::long2(INT64_MIN, 3) / metal::long2(-1, 0), {INT64_MIN, 0l});
    metal::int4 v(8, 9, 10, 11);
    v /= 0;
    expect_vec_eq(v, {0, 0, 0, 0});
    metal::int4 w(8, 9, 10, 11);
    w.xz %= 0;
    w.yw /= 0;
    expect_vec_eq(w, {8, 0, 10, 0});
    expect_vec_eq(metal::float2(1, -1) / metal::float2(0, 0),
                  {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()});
}

enum Small { kZero = 0, kTwo = 2 };
struct Fraction {
    int n;
};
Fraction operator/(Fraction f, int d) { return {f.n * 100 + d}; }
struct Bits {
    unsigned low : 4;
};

// Test the helpers of the rewrite `a / b` -> `a /__mc_div->*b`, `a /= b` -> `a /=__mc_div=b`:
// built-in result types are kept, integer divisors are checked (also enums and bit-fields),
// floating-point and vector divisors and user operators pass through.
TEST(Division, RewriteHelpers) {
    int a = 7, zero = 0, minusOne = -1;
    short s = 9;
    unsigned char c = 200;
    EXPECT_TRUE((std::is_same_v<decltype(s / (__mc_div->*s)), int>));
    EXPECT_TRUE((std::is_same_v<decltype(a / (__mc_div->*2u)), unsigned>));
    EXPECT_TRUE((std::is_same_v<decltype(a / (__mc_div->*2.0f)), float>));
    EXPECT_EQ(a / (__mc_div->*zero), 0);
    EXPECT_EQ(a % (__mc_div->*zero), 7);
    EXPECT_EQ(INT32_MIN / (__mc_div->*minusOne), INT32_MIN);
    EXPECT_EQ(a / (__mc_div->*kZero), 0);
    EXPECT_EQ(a / (__mc_div->*kTwo), 3);
    Bits bits{0};
    EXPECT_EQ(a / (__mc_div->*bits.low), 0);
    EXPECT_EQ(1.0f / (__mc_div->*0.5f), 2.0f);
    EXPECT_EQ((Fraction{3} / (__mc_div->*4)).n, 304);
    expect_vec_eq(metal::int2(6, 8) / (__mc_div->*metal::int2(0, 2)), {0, 4});
    expect_vec_eq(metal::int2(6, 8) / (__mc_div->*zero), {0, 0});
    expect_vec_eq(12 / (__mc_div->*metal::int2(0, 4)), {0, 3});

    s /= __mc_div = zero;
    EXPECT_EQ(s, 0);
    c %= __mc_div = 7;
    EXPECT_EQ(c, 4);
    int m = INT32_MIN;
    m /= __mc_div = minusOne;
    EXPECT_EQ(m, INT32_MIN);
    float f = 3.0f;
    f /= __mc_div = 2;
    EXPECT_EQ(f, 1.5f);
    metal::int4 v(4, 5, 6, 7);
    v %= __mc_div = zero;
    expect_vec_eq(v, {4, 5, 6, 7});
    v.xy /= __mc_div = zero;
    expect_vec_eq(v, {0, 0, 6, 7});
}

} // namespace
