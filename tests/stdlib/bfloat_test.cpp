// Tests of MSL's bfloat (metalcpu/stdlib/bfloat.h): rounding of every conversion against a
// reference computed in double, NaN and infinity, which conversions are implicit, the type of
// mixed arithmetic, as_type, numeric_limits, traits, vectors, matrices and the math,
// relational and common functions on bfloat.
#include "test_util.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include <gtest/gtest.h>

namespace {

using namespace metal;

std::uint16_t bits(bfloat b) { return as_type<ushort>(b); }
float float_from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

// The bfloat nearest to a finite x (ties to the even one), found by comparing distances in
// double to the two candidates around it: independent of the library's bit manipulation.
std::uint16_t reference_bits(double x) {
    if (x == 0) return std::signbit(x) ? 0x8000 : 0;
    const std::uint16_t sign = x < 0 ? 0x8000 : 0;
    const double a = std::fabs(x);
    std::uint16_t lo = 0; // largest magnitude <= a
    for (int step = 1 << 14; step > 0; step >>= 1)
        if (lo + step <= 0x7f80 && double(float_from_bits(std::uint32_t(lo + step) << 16)) <= a) lo += step;
    if (lo == 0x7f80) return sign | 0x7f80;
    const double below = float_from_bits(std::uint32_t(lo) << 16);
    const double above = lo + 1 == 0x7f80 ? std::ldexp(1.0, 128) : double(float_from_bits(std::uint32_t(lo + 1) << 16));
    const double d_below = a - below, d_above = above - a;
    const bool up = d_above < d_below || (d_above == d_below && (lo & 1));
    return sign | std::uint16_t(up ? lo + 1 : lo);
}

// Test that float -> bfloat rounds to nearest even for every bfloat interval: at the tie, just
// below and above it, and at the interval's ends, for all 65536 upper halves.
TEST(Bfloat, FloatConversionRoundsToNearestEven) {
    int failures = 0;
    for (std::uint32_t high = 0; high < 0x10000 && failures < 10; ++high) {
        if ((high & 0x7f80) == 0x7f80) continue; // infinities and NaNs: below
        for (std::uint32_t low : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
            const float f = float_from_bits(high << 16 | low);
            const std::uint16_t got = bits(bfloat(f)), want = reference_bits(f);
            if (got != want) {
                ADD_FAILURE() << std::hexfloat << f << ": got 0x" << std::hex << got << ", want 0x" << want;
                ++failures;
            }
        }
    }
}

// Test that NaNs stay NaN, also those whose payload is only in the low 16 bits (truncating
// them would give infinity), and that infinities and overflow give infinity.
TEST(Bfloat, NanStaysNanAndOverflowGivesInfinity) {
    for (std::uint32_t nan : {0x7f800001u, 0xff800001u, 0x7fc00000u, 0x7fbfffffu, 0xffffffffu}) {
        const bfloat b = bfloat(float_from_bits(nan));
        EXPECT_TRUE(isnan(b)) << std::hex << nan;
        EXPECT_EQ(bits(b) & 0x8000, (nan >> 16) & 0x8000) << "sign kept";
        EXPECT_TRUE(std::isnan(float(b)));
    }
    EXPECT_EQ(bits(bfloat(INFINITY)), 0x7f80);
    EXPECT_EQ(bits(bfloat(-INFINITY)), 0xff80);
    EXPECT_EQ(bits(bfloat(FLT_MAX)), 0x7f80) << "FLT_MAX is past bfloat's largest value + half an ulp";
    EXPECT_EQ(bits(bfloat(float_from_bits(0x7f7f7fff))), 0x7f7f) << "just below the tie stays finite";
    EXPECT_EQ(bits(bfloat(-0.0f)), 0x8000);
}

// Test that integers (also 64-bit ones past 2^53) and doubles round once, not twice through
// float: 1 + 2^-8 + 2^-40 is just above a tie, but as a float it is the tie itself.
TEST(Bfloat, IntegerAndDoubleConversionsRoundOnce) {
    EXPECT_EQ(bits(bfloat(1.0 + 0x1p-8 + 0x1p-40)), 0x3f81);
    EXPECT_EQ(bits(bfloat(1.0 + 0x1p-8 - 0x1p-40)), 0x3f80);
    EXPECT_EQ(bits(bfloat(-(1.0 + 0x1p-8 + 0x1p-40))), 0xbf81);
    EXPECT_EQ(bits(bfloat(1e300)), 0x7f80);
    EXPECT_EQ(bits(bfloat(1e-300)), 0x0000);
    // 2^24 + 2^16 + 1 is just above a bfloat tie; float rounds it to the tie.
    EXPECT_EQ(bits(bfloat(0x1010001)), reference_bits(double(0x1010001)));
    EXPECT_EQ(bits(bfloat(0x1010001)), 0x4b81);
    std::mt19937_64 random(10);
    for (int i = 0; i < 20000; ++i) {
        const std::int64_t v = std::int64_t(random()) >> (random() % 63);
        const std::uint64_t u = random() >> (random() % 64);
        const std::int32_t w = std::int32_t(random());
        // long double holds 64-bit integers exactly, so the reference sees the exact value.
        ASSERT_EQ(bits(bfloat(v)), reference_bits(double(static_cast<long double>(v)))) << v;
        ASSERT_EQ(bits(bfloat(u)), reference_bits(double(static_cast<long double>(u)))) << u;
        ASSERT_EQ(bits(bfloat(w)), reference_bits(double(w))) << w;
        const double d = std::ldexp(double(random() >> 11), int(random() % 200) - 150);
        ASSERT_EQ(bits(bfloat(d)), reference_bits(d)) << std::hexfloat << d;
    }
    EXPECT_EQ(bits(bfloat(true)), 0x3f80);
    EXPECT_EQ(bits(bfloat(half(1.5f))), 0x3fc0);
    EXPECT_EQ(bits(bfloat(std::int64_t(INT64_MIN))), 0xdf00);
}

// Test which conversions are implicit, as MSL defines them: bfloat -> float only; integers
// convert to bfloat as to any floating type; float and half only explicitly.
TEST(Bfloat, ImplicitConversionsAreMsls) {
    static_assert(std::is_convertible_v<bfloat, float>);
    static_assert(!std::is_convertible_v<float, bfloat>);
    static_assert(!std::is_convertible_v<half, bfloat>);
    static_assert(!std::is_convertible_v<double, bfloat>);
    static_assert(std::is_convertible_v<int, bfloat>);
    static_assert(std::is_constructible_v<bfloat, float> && std::is_constructible_v<bfloat, half>);
    static_assert(std::is_constructible_v<half, bfloat>);
    const float f = bfloat(2.5f);
    EXPECT_EQ(f, 2.5f);
    bfloat zero = 0;
    EXPECT_EQ(float(zero), 0.0f);
    EXPECT_EQ(static_cast<int>(bfloat(-3.75f)), -3);
    EXPECT_EQ(static_cast<uint>(bfloat(7.0f)), 7u);
    EXPECT_TRUE(bool(bfloat(0.5f)));
    EXPECT_FALSE(bool(bfloat(-0.0f)));
    // To bool and to the integer types but int implicitly (MLX's arg-sort stores a bfloat into
    // a uint32_t); to int and half only explicitly (`half h = b;` is an error, and
    // `c ? b : 0` must stay a bfloat).
    static_assert(std::is_convertible_v<bfloat, bool>);
    static_assert(std::is_convertible_v<bfloat, uint> && std::is_convertible_v<bfloat, ushort> &&
                  std::is_convertible_v<bfloat, long> && std::is_convertible_v<bfloat, ulong> &&
                  std::is_convertible_v<bfloat, char>);
    static_assert(!std::is_convertible_v<bfloat, int> && !std::is_convertible_v<bfloat, half>);
    const uint stored = bfloat(-0.0f) + bfloat(41.75f); // 41.75 is exact in bfloat; the conversion truncates
    EXPECT_EQ(stored, 41u);
    const ulong wide = bfloat(65536.0f);
    EXPECT_EQ(wide, 65536ul);
    const bool flag = false;
    const auto ternary = flag ? bfloat(2.0f) : 0;
    static_assert(std::is_same_v<decltype(ternary), const bfloat>);
    EXPECT_EQ(float(ternary), 0.0f);
    static_assert(!std::is_convertible_v<bool, bfloat> && std::is_constructible_v<bfloat, bool>);
    const bool any = bfloat(0.25f);
    EXPECT_TRUE(any);
}

struct TrueMask {
    constexpr operator bool() const { return true; }
};

// Test the forms MLX and PyTorch kernels write with bfloat as T: `c ? x : 0` and
// `c ? x : flag` (MLX's gemv load_safe, reduce_all), `T(mask)` of a class that converts to
// bool (gemv_masked), and a bfloat scalar times a float vector (PyTorch's int4pack_mm).
TEST(Bfloat, LibraryIdioms) {
    const bfloat x = bfloat(2.5f);
    for (bool c : {true, false}) {
        auto r = c ? x : 0;
        static_assert(std::is_same_v<decltype(r), bfloat>);
        EXPECT_EQ(float(r), c ? 2.5f : 0.0f);
        const bool flag = true;
        bool b = c ? x : flag;
        EXPECT_TRUE(b);
    }
    EXPECT_EQ(float(bfloat(TrueMask{})), 1.0f);
    const float4 v = x * float4(1.0f, 2.0f, 3.0f, 4.0f);
    EXPECT_EQ(v.y, 5.0f);
    EXPECT_EQ(v.w, 10.0f);
    static_assert(std::is_same_v<decltype(x * 2.0f), float> && std::is_same_v<decltype(2.0 < x), bool>);
    EXPECT_TRUE(x > 2.0f && 2.5 == x);
    float acc = 1.0f; // accumulating bfloats into a float, as every reduction does
    acc += x;
    acc *= x;
    acc -= x;
    acc /= x;
    EXPECT_EQ(acc, ((1.0f + 2.5f) * 2.5f - 2.5f) / 2.5f);
}

template <class A, class B> using sum_t = decltype(std::declval<A>() + std::declval<B>());
template <class A, class B, class = void> struct can_add : std::false_type {};
template <class A, class B> struct can_add<A, B, std::void_t<sum_t<A, B>>> : std::true_type {};

// Test the types of mixed arithmetic (bfloat with bfloat or an integer stays bfloat, with
// float it is float, with half it does not compile) and that results are rounded to bfloat.
TEST(Bfloat, ArithmeticPromotesToFloatAndRoundsTheResult) {
    static_assert(std::is_same_v<sum_t<bfloat, bfloat>, bfloat>);
    static_assert(std::is_same_v<sum_t<bfloat, int>, bfloat>);
    static_assert(std::is_same_v<sum_t<uint, bfloat>, bfloat>);
    static_assert(std::is_same_v<sum_t<bfloat, float>, float>);
    static_assert(std::is_same_v<decltype(bfloat(1) * 2.0f), float>);
    static_assert(std::is_same_v<decltype(-bfloat(1)), bfloat>);
    static_assert(!can_add<bfloat, half>::value && !can_add<half, bfloat>::value);
    const bfloat one = 1, tiny = bfloat(0x1p-9f), step = bfloat(0x1p-7f);
    EXPECT_EQ(bits(one + tiny), 0x3f80) << "1 + 2^-9 rounds back to 1";
    EXPECT_EQ(bits(one + step), 0x3f81);
    EXPECT_EQ(bits(one + bfloat(0x1p-8f)), 0x3f80) << "a tie rounds to even";
    EXPECT_EQ(bits(bfloat(0x1.02p0f) + bfloat(0x1p-8f)), 0x3f82) << "a tie rounds to even (up)";
    EXPECT_EQ(float(bfloat(3) * bfloat(5)), 15.0f);
    EXPECT_EQ(float(bfloat(1) / bfloat(3)), float(bfloat(1.0f / 3.0f)));
    EXPECT_EQ(float(bfloat(10) - 4), 6.0f);
    EXPECT_EQ(float(1 - bfloat(4)), -3.0f);
    EXPECT_EQ(1.0f + bfloat(0x1p-9f), 1.0f + 0x1p-9f) << "with float, the sum is a float";
    bfloat acc = 0;
    for (int i = 0; i < 300; ++i) acc += bfloat(1);
    EXPECT_EQ(float(acc), 256.0f) << "256 + 1 rounds back to 256 in bfloat";
    acc = 3;
    acc *= 2.5f;
    EXPECT_EQ(float(acc), 7.5f);
    ++acc;
    acc--;
    acc /= 2;
    EXPECT_EQ(float(acc), 3.75f);
    EXPECT_EQ(bits(-bfloat(0.0f)), 0x8000);
    EXPECT_TRUE(bfloat(1) < bfloat(2) && bfloat(2) == 2 && bfloat(2) >= 1.5f && bfloat(2) != bfloat(3));
    EXPECT_FALSE(bfloat(NAN) == bfloat(NAN));
    constexpr bfloat folded = bfloat(1.5f) * 2; // usable in constant expressions
    static_assert(float(folded) == 3.0f);
}

// Test as_type to and from the 16-bit types, and of bfloat vectors.
TEST(Bfloat, AsTypeReinterpretsTheBits) {
    EXPECT_EQ(as_type<ushort>(bfloat(1.0f)), 0x3f80);
    EXPECT_EQ(as_type<short>(bfloat(-2.0f)), short(0xc000));
    EXPECT_EQ(float(as_type<bfloat>(ushort(0x4049))), 3.140625f);
    EXPECT_EQ(float(as_type<bfloat>(short(0x3f80))), 1.0f);
    EXPECT_EQ(as_type<ushort>(as_type<half>(bfloat(1.0f))), 0x3f80);
    EXPECT_EQ(as_type<uint>(bfloat2(bfloat(1.0f), bfloat(-2.0f))), 0xc0003f80u);
    const bfloat4 v = as_type<bfloat4>(ulong(0x3f80400040404080ul));
    EXPECT_EQ(float(v.x), 4.0f);
    EXPECT_EQ(float(v.w), 1.0f);
}

// Test numeric_limits<bfloat> against the format's definition.
TEST(Bfloat, NumericLimits) {
    using L = numeric_limits<bfloat>;
    static_assert(L::is_specialized && L::is_signed && !L::is_integer && L::digits == 8);
    EXPECT_EQ(float(L::max()), 0x1.fep127f);
    EXPECT_EQ(float(L::lowest()), -0x1.fep127f);
    EXPECT_EQ(float(L::min()), 0x1p-126f);
    EXPECT_EQ(float(L::denorm_min()), 0x1p-133f);
    EXPECT_EQ(float(L::epsilon()), 0x1p-7f);
    EXPECT_EQ(float(L::infinity()), INFINITY);
    EXPECT_TRUE(isnan(L::quiet_NaN()) && isnan(L::signaling_NaN()));
    EXPECT_EQ(float(-L::infinity()), -INFINITY);
    EXPECT_EQ(L::max_exponent, 128);
}

// Test that bfloat is a floating-point arithmetic scalar for the type traits, so generic
// templates (vectors, the math functions, other parts' SIMD functions) accept it.
TEST(Bfloat, TypeTraits) {
    static_assert(is_floating_point_v<bfloat> && is_arithmetic_v<bfloat> && is_scalar_v<bfloat>);
    static_assert(is_signed_v<bfloat> && !is_integral_v<bfloat> && !is_unsigned_v<bfloat>);
    static_assert(is_floating_point_v<const bfloat>);
    static_assert(is_same_v<make_scalar_t<bfloat4>, bfloat> && vec_elements<bfloat3>::value == 3);
    static_assert(is_same_v<bfloat2, vec<bfloat, 2>> && is_same_v<metal::bfloat, ::bfloat>);
    static_assert(sizeof(bfloat3) == 8 && alignof(bfloat4) == 8 && sizeof(packed_bfloat3) == 6);
    static_assert(sizeof(bfloat4x4) == 32 && sizeof(bfloat2x3) == 16);
    static_assert(std::is_trivially_copyable_v<bfloat> && std::is_trivial_v<bfloat>);
#ifndef __HAVE_BFLOAT__
    ADD_FAILURE() << "__HAVE_BFLOAT__ is not defined";
#endif
}

// Test bfloat vectors: element-wise arithmetic rounded per component, explicit conversions to
// and from float vectors, comparisons, and a bfloat matrix product.
TEST(Bfloat, VectorsAndMatrices) {
    const bfloat4 a(bfloat(1.0f), bfloat(2.0f), bfloat(3.0f), bfloat(0x1p-9f));
    const bfloat4 b = a * 2 + bfloat4(bfloat(1.0f));
    EXPECT_EQ(float(b.x), 3.0f);
    EXPECT_EQ(float(b.w), 1.0f) << "2^-8 + 1 rounds (a tie) to 1";
    const float4 f = float4(a);
    EXPECT_EQ(f.w, 0x1p-9f);
    const bfloat4 back = bfloat4(float4(1.0f + 0x1p-9f));
    EXPECT_EQ(float(back.y), 1.0f);
    EXPECT_TRUE(all(a < bfloat4(bfloat(4.0f))));
    EXPECT_TRUE(any(a == bfloat4(bfloat(2.0f))));
    const bfloat2x2 m(bfloat2(bfloat(1.0f), bfloat(2.0f)), bfloat2(bfloat(3.0f), bfloat(4.0f)));
    const bfloat2 mv = m * bfloat2(bfloat(1.0f), bfloat(1.0f));
    EXPECT_EQ(float(mv.x), 4.0f);
    EXPECT_EQ(float(mv.y), 6.0f);
    bfloat2 s = a.zy;
    EXPECT_EQ(float(s.x), 3.0f);
}

// Test the math, common and relational functions on bfloat: computed in float, rounded to
// bfloat, and correct on NaN and infinity (classification is on the bits).
TEST(Bfloat, MathFunctions) {
    const bfloat x = bfloat(0.75f);
    static_assert(std::is_same_v<decltype(metal::exp(x)), bfloat>);
    static_assert(std::is_same_v<decltype(metal::precise::sqrt(bfloat2(x))), bfloat2>);
    static_assert(std::is_same_v<decltype(metal::max(x, x)), bfloat>);
    for (float v : {0.75f, -2.5f, 100.0f, 0x1p-100f}) {
        const bfloat b = bfloat(v);
        EXPECT_EQ(bits(metal::exp(b)), bits(bfloat(std::exp(float(b))))) << v;
        EXPECT_EQ(bits(metal::fast::sin(b)), bits(bfloat(std::sin(float(b))))) << v;
        EXPECT_EQ(bits(metal::precise::log(metal::abs(b))), bits(bfloat(std::log(std::fabs(float(b)))))) << v;
        EXPECT_EQ(bits(metal::fabs(b)), bits(b) & 0x7fff);
        EXPECT_EQ(bits(metal::floor(b)), bits(bfloat(std::floor(float(b)))));
    }
    EXPECT_EQ(float(metal::fract(bfloat(-0x1p-20f))), 0x1.fep-1f) << "fract stays below 1 in bfloat";
    EXPECT_EQ(float(metal::max(bfloat(1.0f), bfloat(2.0f))), 2.0f);
    EXPECT_EQ(float(metal::clamp(bfloat(5.0f), bfloat(0.0f), bfloat(1.0f))), 1.0f);
    EXPECT_EQ(float(metal::fma(bfloat(2.0f), bfloat(3.0f), bfloat(1.0f))), 7.0f);
    EXPECT_EQ(bits(metal::nextafter(bfloat(1.0f), bfloat(2.0f))), 0x3f81);
    EXPECT_EQ(bits(metal::nextafter(bfloat(0.0f), bfloat(-1.0f))), 0x8001);
    EXPECT_TRUE(metal::isnan(bfloat(NAN)));
    EXPECT_TRUE(metal::isinf(bfloat(-INFINITY)));
    EXPECT_FALSE(metal::isinf(numeric_limits<bfloat>::max()));
    EXPECT_TRUE(metal::isfinite(numeric_limits<bfloat>::max()));
    EXPECT_TRUE(metal::signbit(bfloat(-0.0f)));
    EXPECT_TRUE(metal::isnormal(bfloat(1.0f)));
    EXPECT_FALSE(metal::isnormal(numeric_limits<bfloat>::denorm_min()));
    EXPECT_TRUE(all(metal::isnan(bfloat2(bfloat(NAN), bfloat(NAN)))));
    EXPECT_EQ(float(metal::select(bfloat(1.0f), bfloat(2.0f), true)), 2.0f);
    EXPECT_EQ(float(metal::mix(bfloat(0.0f), bfloat(4.0f), bfloat(0.25f))), 1.0f);
    EXPECT_EQ(float(metal::dot(bfloat2(bfloat(1.0f), bfloat(2.0f)), bfloat2(bfloat(3.0f), bfloat(4.0f)))), 11.0f);
}

} // namespace

// A kernel's own `typedef bfloat bfloat16_t;` (MLX, llama.cpp) and overloads of Metal
// functions for bfloat in namespace metal (MLX's bf16_math.h) must coexist with ours.
typedef bfloat bfloat16_t;
namespace metal {
inline bfloat16_t exp10(bfloat16_t x) { return static_cast<bfloat16_t>(x * 0.0f + 42.0f); }
} // namespace metal

namespace {
// Test that a user's bfloat16_t typedef and a user's non-template bfloat overload in metal::
// compile next to the library, and that the user's overload is the one called.
TEST(Bfloat, UserTypedefAndOverloadsCoexist) {
    using namespace metal;
    const bfloat16_t x = bfloat16_t(2.0f);
    EXPECT_EQ(float(exp10(x)), 42.0f);
    EXPECT_EQ(float(metal::exp2(x)), 4.0f);
}
} // namespace
