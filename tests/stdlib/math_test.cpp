// Tests of <metal_math> against the C library (<cmath>, evaluated in double) with ulp
// tolerances: float results within a few ulp, half results the correctly rounded half of the
// reference or its neighbour.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#include <cmath>
#include <functional>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using metalcpu_test::ulp_distance;

// Inputs inside every function's domain of interest; each test filters what it needs.
const std::vector<float> kInputs = {-7.25f, -3.0f, -1.0f, -0.75f, -0.5f, -1e-3f, 0.0f, 1e-4f, 0.1f,  0.3f,
                                    0.5f,   0.99f, 1.0f,  1.5f,   2.0f,  2.5f,   3.0f, 10.0f, 42.5f, 100.0f};

// Checks metal_fn(float) and metal_fn(half) and a float4 against reference(double).
void check_unary(const char* name, float (*metal_float)(float), half (*metal_half)(half),
                 metal::float4 (*metal_vec)(metal::float4), double (*reference)(double),
                 bool (*in_domain)(float), int float_ulps = 2) {
    for (float x : kInputs) {
        if (!in_domain(x)) continue;
        const float expected = static_cast<float>(reference(x));
        EXPECT_LE(ulp_distance(metal_float(x), expected), float_ulps) << name << "(" << x << ") = " << metal_float(x)
                                                                      << ", expected " << expected;
        const half hx = static_cast<half>(x);
        const double href = reference(static_cast<double>(static_cast<float>(hx)));
        if (std::isfinite(href) && std::fabs(href) < 65504.0) {
            const half hexpected = static_cast<half>(static_cast<float>(href));
            EXPECT_LE(ulp_distance(metal_half(hx), hexpected), 1)
                << name << "(half " << static_cast<float>(hx) << ") = " << static_cast<float>(metal_half(hx))
                << ", expected " << static_cast<float>(hexpected);
        }
        const metal::float4 v = metal_vec(metal::float4(x));
        EXPECT_EQ(v.x, metal_float(x)) << name << " of a vector is the function of each component";
        EXPECT_EQ(v.w, metal_float(x));
    }
}

bool all_reals(float) { return true; }
bool unit_interval(float x) { return x >= -1.0f && x <= 1.0f; }
bool positive(float x) { return x > 0.0f; }
bool at_least_one(float x) { return x >= 1.0f; }
bool open_unit_interval(float x) { return x > -1.0f && x < 1.0f; }
bool moderate(float x) { return std::fabs(x) <= 10.0f; }

#define CHECK_UNARY(fn, ref, domain, ...)                                                       \
    check_unary(#fn, [](float x) -> float { return metal::fn(x); }, [](half x) -> half { return metal::fn(x); }, \
                [](metal::float4 x) -> metal::float4 { return metal::fn(x); }, [](double x) -> double { return ref; }, \
                domain, ##__VA_ARGS__)

// Test that the trigonometric and hyperbolic functions and their inverses match the C library.
TEST(Math, Trigonometric) {
    CHECK_UNARY(sin, std::sin(x), all_reals);
    CHECK_UNARY(cos, std::cos(x), all_reals);
    CHECK_UNARY(tan, std::tan(x), moderate);
    CHECK_UNARY(asin, std::asin(x), unit_interval);
    CHECK_UNARY(acos, std::acos(x), unit_interval);
    CHECK_UNARY(atan, std::atan(x), all_reals);
    CHECK_UNARY(sinh, std::sinh(x), moderate);
    CHECK_UNARY(cosh, std::cosh(x), moderate);
    CHECK_UNARY(tanh, std::tanh(x), all_reals);
    CHECK_UNARY(asinh, std::asinh(x), all_reals);
    CHECK_UNARY(acosh, std::acosh(x), at_least_one);
    CHECK_UNARY(atanh, std::atanh(x), open_unit_interval);
}

// sin(pi x) and cos(pi x) in double, exact where the result is 0 or +-1 (std::sin(M_PI * x)
// is not: M_PI is not pi).
double sinpi_reference(double x) {
    const double r = std::fmod(x, 2.0); // exact, in (-2, 2)
    if (r == std::trunc(r)) return 0.0;
    if (std::fabs(r) == 0.5) return r > 0 ? 1.0 : -1.0;
    if (std::fabs(r) == 1.5) return r > 0 ? -1.0 : 1.0;
    return std::sin(M_PI * r);
}
double cospi_reference(double x) {
    const double r = std::fmod(std::fabs(x), 2.0);
    if (r == 0.0) return 1.0;
    if (r == 1.0) return -1.0;
    if (r == 0.5 || r == 1.5) return 0.0;
    return std::cos(M_PI * r);
}

// Test that sinpi, cospi and tanpi are exact at integers and half-integers and accurate elsewhere.
TEST(Math, PiMultiples) {
    CHECK_UNARY(sinpi, sinpi_reference(x), all_reals);
    CHECK_UNARY(cospi, cospi_reference(x), all_reals);
    CHECK_UNARY(tanpi, sinpi_reference(x) / cospi_reference(x),
                [](float x) { return std::fabs(std::fmod(x, 1.0f)) != 0.5f; });
    EXPECT_EQ(std::fabs(metal::sinpi(1.0f)), 0.0f);
    EXPECT_EQ(std::fabs(metal::sinpi(-3.0f)), 0.0f);
    EXPECT_EQ(metal::sinpi(0.5f), 1.0f);
    EXPECT_EQ(metal::sinpi(-0.5f), -1.0f);
    EXPECT_EQ(metal::cospi(1.0f), -1.0f);
    EXPECT_EQ(metal::cospi(2.0f), 1.0f);
    EXPECT_EQ(std::fabs(metal::cospi(0.5f)), 0.0f);
    EXPECT_EQ(metal::tanpi(0.25f), 1.0f);
}

// Test that the exponential, logarithm and square root functions match the C library.
TEST(Math, ExponentialAndLogarithm) {
    CHECK_UNARY(exp, std::exp(x), moderate);
    CHECK_UNARY(exp2, std::exp2(x), moderate);
    CHECK_UNARY(exp10, std::pow(10.0, x), [](float x) { return std::fabs(x) <= 4.0f; });
    CHECK_UNARY(log, std::log(x), positive);
    CHECK_UNARY(log2, std::log2(x), positive);
    CHECK_UNARY(log10, std::log10(x), positive);
    CHECK_UNARY(sqrt, std::sqrt(x), [](float x) { return x >= 0.0f; });
    CHECK_UNARY(rsqrt, 1.0 / std::sqrt(x), positive);
    EXPECT_EQ(metal::exp2(10.0f), 1024.0f);
    EXPECT_EQ(metal::log2(1024.0f), 10.0f);
    EXPECT_EQ(metal::sqrt(16.0f), 4.0f);
}

// Test that the rounding functions handle halfway cases (rint to even, round away from zero).
TEST(Math, Rounding) {
    CHECK_UNARY(floor, std::floor(x), all_reals, 0);
    CHECK_UNARY(ceil, std::ceil(x), all_reals, 0);
    CHECK_UNARY(trunc, std::trunc(x), all_reals, 0);
    CHECK_UNARY(round, std::round(x), all_reals, 0);
    CHECK_UNARY(rint, std::nearbyint(x), all_reals, 0);
    CHECK_UNARY(fabs, std::fabs(x), all_reals, 0);
    EXPECT_EQ(metal::rint(2.5f), 2.0f);
    EXPECT_EQ(metal::rint(3.5f), 4.0f);
    EXPECT_EQ(metal::round(2.5f), 3.0f);
    EXPECT_EQ(metal::round(-2.5f), -3.0f);
    EXPECT_EQ(metal::floor(-0.5f), -1.0f);
    EXPECT_EQ(metal::trunc(-0.5f), -0.0f);
    const metal::float4 f = metal::floor(metal::float4(1.5f, -1.5f, 2.0f, -0.0f));
    metalcpu_test::expect_vec_eq(f, {1.0f, -2.0f, 2.0f, -0.0f});
}

// Test that fract stays below 1 even when x - floor(x) would round to 1.
TEST(Math, Fract) {
    EXPECT_EQ(metal::fract(1.25f), 0.25f);
    EXPECT_EQ(metal::fract(-1.25f), 0.75f);
    EXPECT_EQ(metal::fract(3.0f), 0.0f);
    EXPECT_LT(metal::fract(-1e-10f), 1.0f);
    EXPECT_EQ(metal::fract(-1e-10f), 0x1.fffffep-1f);
    EXPECT_LT(static_cast<float>(metal::fract(static_cast<half>(-1e-7f))), 1.0f);
    EXPECT_EQ(static_cast<float>(metal::fract(static_cast<half>(2.75f))), 0.75f);
}

// Test that atan2, copysign, fdim, fmod, pow, powr, fmax, fmin and divide match the C library.
TEST(Math, Binary) {
    for (float y : kInputs) {
        for (float x : kInputs) {
            EXPECT_LE(ulp_distance(metal::atan2(y, x), static_cast<float>(std::atan2(double(y), double(x)))), 2);
            EXPECT_EQ(metal::copysign(x, y), std::copysign(x, y));
            EXPECT_EQ(metal::fdim(x, y), std::fdim(x, y));
            if (y != 0.0f) {
                EXPECT_EQ(metal::fmod(x, y), std::fmod(x, y)) << x << " fmod " << y;
            }
            if (x > 0.0f && std::fabs(y) < 10.0f) {
                EXPECT_LE(ulp_distance(metal::pow(x, y), static_cast<float>(std::pow(double(x), double(y)))), 2)
                    << x << " pow " << y;
            }
            EXPECT_EQ(metal::fmax(x, y), std::fmax(x, y));
            EXPECT_EQ(metal::fmin(x, y), std::fmin(x, y));
        }
    }
    EXPECT_EQ(metal::pow(-2.0f, 3.0f), -8.0f);
    EXPECT_TRUE(std::isnan(metal::powr(-2.0f, 3.0f))) << "powr is defined for x >= 0 only";
    EXPECT_EQ(metal::powr(4.0f, 0.5f), 2.0f);
    EXPECT_EQ(metal::divide(1.0f, 4.0f), 0.25f);
    EXPECT_EQ(metal::fast::divide(3.0f, 2.0f), 1.5f);
    const metal::float2 p = metal::pow(metal::float2(2.0f, 3.0f), 2.0f);
    metalcpu_test::expect_vec_eq(p, {4.0f, 9.0f});
}

// Test that fma rounds the exact a * b + c once.
TEST(Math, Fma) {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 exactly. Rounded to float first, the product loses
    // the 2^-24 (a tie, to even); fused, subtracting 1 keeps it: 2^-11 + 2^-24 is a float.
    const float a = 1.0f + 0x1p-12f;
    EXPECT_EQ(metal::fma(a, a, -1.0f), 0x1p-11f + 0x1p-24f);
    volatile float unfused_product = a * a;
    EXPECT_EQ(unfused_product - 1.0f, 0x1p-11f) << "the case really needs the fused operation";
    // Results that need the sticky part of a far smaller addend, and cancellation.
    EXPECT_EQ(metal::fma(1.0f + 0x1p-23f, 1.0f, 0x1p-60f), std::fma(1.0f + 0x1p-23f, 1.0f, 0x1p-60f));
    EXPECT_EQ(metal::fma(1.5f, 1.0f + 0x1p-23f, -0x1p-90f), std::fma(1.5f, 1.0f + 0x1p-23f, -0x1p-90f));
    EXPECT_EQ(metal::fma(3.0f, 1.0f / 3.0f, -1.0f), std::fma(3.0f, 1.0f / 3.0f, -1.0f));
    EXPECT_EQ(metal::fma(-2.0f, 2.0f, 4.0f), 0.0f);
    EXPECT_EQ(metal::fma(1e30f, 1e30f, -1.0f), std::numeric_limits<float>::infinity());
    EXPECT_EQ(metal::fma(2.0f, 3.0f, 4.0f), 10.0f);
    const metal::float3 v = metal::fma(metal::float3(1.0f, 2.0f, 3.0f), 2.0f, metal::float3(1.0f));
    metalcpu_test::expect_vec_eq(v, {3.0f, 5.0f, 7.0f});
}

// Test that frexp, ldexp, ilogb, modf and sincos split and build floats correctly.
TEST(Math, DecompositionFunctions) {
    int e = 0;
    EXPECT_EQ(metal::frexp(48.0f, e), 0.75f);
    EXPECT_EQ(e, 6);
    metal::int2 e2;
    const metal::float2 m2 = metal::frexp(metal::float2(1.0f, -0.375f), e2);
    metalcpu_test::expect_vec_eq(m2, {0.5f, -0.75f});
    metalcpu_test::expect_vec_eq(e2, {1, -1});
    EXPECT_EQ(metal::ldexp(0.75f, 6), 48.0f);
    metalcpu_test::expect_vec_eq(metal::ldexp(metal::float2(1.0f), metal::int2(3, -1)), {8.0f, 0.5f});
    EXPECT_EQ(metal::ilogb(48.0f), 5);
    EXPECT_EQ(metal::ilogb(0.3f), -2);
    metalcpu_test::expect_vec_eq(metal::ilogb(metal::float2(1.0f, 1024.0f)), {0, 10});
    float whole = 0.0f;
    EXPECT_EQ(metal::modf(-3.25f, whole), -0.25f);
    EXPECT_EQ(whole, -3.0f);
    metal::float2 wholes;
    metalcpu_test::expect_vec_eq(metal::modf(metal::float2(2.5f, INFINITY), wholes), {0.5f, 0.0f});
    metalcpu_test::expect_vec_eq(wholes, {2.0f, INFINITY});
    float c = 0.0f;
    const float s = metal::sincos(0.5f, c);
    EXPECT_LE(ulp_distance(s, static_cast<float>(std::sin(0.5))), 1);
    EXPECT_LE(ulp_distance(c, static_cast<float>(std::cos(0.5))), 1);
    half hc;
    const half hs = metal::sincos(static_cast<half>(0.5f), hc);
    EXPECT_EQ(static_cast<float>(hs), static_cast<float>(static_cast<half>(std::sin(0.5f))));
    EXPECT_EQ(static_cast<float>(hc), static_cast<float>(static_cast<half>(std::cos(0.5f))));
}

// Test that nextafter steps by one ulp of the argument's own type.
TEST(Math, Nextafter) {
    EXPECT_EQ(metal::nextafter(1.0f, 2.0f), std::nextafter(1.0f, 2.0f));
    EXPECT_EQ(metal::nextafter(1.0f, 0.0f), std::nextafter(1.0f, 0.0f));
    EXPECT_EQ(metal::nextafter(-1.0f, 0.0f), std::nextafter(-1.0f, 0.0f));
    EXPECT_EQ(metal::nextafter(0.0f, -1.0f), -std::numeric_limits<float>::denorm_min());
    EXPECT_EQ(metal::nextafter(2.0f, 2.0f), 2.0f);
    const half one = static_cast<half>(1.0f);
    EXPECT_EQ(static_cast<float>(metal::nextafter(one, static_cast<half>(2.0f))), 1.0f + 0x1p-10f);
    EXPECT_EQ(static_cast<float>(metal::nextafter(one, static_cast<half>(0.0f))), 1.0f - 0x1p-11f);
}

// Test that integer and double scalar arguments are taken as float, and half with float gives float.
TEST(Math, ArgumentTypes) {
    EXPECT_TRUE((std::is_same_v<decltype(metal::sqrt(4)), float>));
    EXPECT_EQ(metal::sqrt(4), 2.0f);
    EXPECT_TRUE((std::is_same_v<decltype(metal::sin(0.5)), float>));
    EXPECT_TRUE((std::is_same_v<decltype(metal::sin(half(0.5f))), half>));
    EXPECT_TRUE((std::is_same_v<decltype(metal::pow(half(2.0f), 2.0f)), float>));
    EXPECT_TRUE((std::is_same_v<decltype(metal::pow(metal::half4(2.0f), 2.0f)), metal::half4>));
    EXPECT_TRUE((std::is_same_v<decltype(metal::fmax(metal::float3(1.0f), 2)), metal::float3>));
}

// Test that fast:: and precise:: provide every function, agree on ordinary values, and differ only on NaN for min/max.
TEST(Math, FastAndPreciseNamespaces) {
    EXPECT_EQ(metal::fast::sin(0.5f), metal::precise::sin(0.5f));
    EXPECT_EQ(metal::fast::exp(1.0f), metal::precise::exp(1.0f));
    EXPECT_EQ(metal::fast::pow(2.0f, 0.5f), metal::precise::pow(2.0f, 0.5f));
    EXPECT_EQ(metal::fast::fmax(1.0f, 2.0f), 2.0f);
    EXPECT_EQ(metal::precise::fmax(NAN, 2.0f), 2.0f);
    EXPECT_EQ(metal::precise::fmin(3.0f, NAN), 3.0f);
    EXPECT_EQ(metal::precise::max(NAN, -1.0f), -1.0f);
    EXPECT_TRUE(std::isnan(metal::precise::fmax(NAN, NAN)));
    // Without -ffast-math (this test), the unqualified functions are the precise ones.
    EXPECT_EQ(metal::fmax(NAN, 2.0f), 2.0f);
}

enum class Spread { uniform, magnitudes, positive_magnitudes };

// Checks a float function on `count` random arguments: uniform over [lo, hi], or spread over
// the magnitudes between lo and hi (logarithmically), with both signs or positive only.
void sweep(const char* name, float (*metal_fn)(float), double (*reference)(double), float lo, float hi,
           Spread spread, int max_ulps = 1, int count = 20000) {
    const bool log_spread = spread != Spread::uniform;
    std::mt19937 random(1234);
    std::uniform_real_distribution<double> uniform(log_spread ? std::log(lo) : lo, log_spread ? std::log(hi) : hi);
    std::int64_t worst = 0;
    float worst_x = 0.0f;
    for (int i = 0; i < count; ++i) {
        float x = static_cast<float>(uniform(random));
        if (log_spread) x = static_cast<float>(std::exp(double(x)));
        if (spread == Spread::magnitudes && (random() & 1)) x = -x;
        const std::int64_t error = ulp_distance(metal_fn(x), static_cast<float>(reference(x)));
        if (error > worst) {
            worst = error;
            worst_x = x;
        }
    }
    EXPECT_LE(worst, max_ulps) << name << " is " << worst << " ulp off at " << worst_x;
}

#define SWEEP(fn, ref, ...)                                                                     \
    sweep(#fn, [](float x) -> float { return metal::fn(x); }, [](double x) -> double { return ref; }, __VA_ARGS__)

// sin/cos/tan are swept up to FLT_MAX, where the argument reduction needs hundreds of bits of 2/pi.
// MSL's precise functions may be 4 ulp off; these are held to 1 ulp of the correctly rounded float.

// Test that every transcendental function is within 1 ulp of the correctly rounded result over the float range.
TEST(Math, AccuracyOverTheFloatRange) {
    SWEEP(sin, std::sin(x), 1e-30f, 3e38f, Spread::magnitudes);
    SWEEP(cos, std::cos(x), 1e-30f, 3e38f, Spread::magnitudes);
    SWEEP(tan, std::tan(x), 1e-30f, 3e38f, Spread::magnitudes);
    SWEEP(sin, std::sin(x), -100.0f, 100.0f, Spread::uniform);
    SWEEP(exp, std::exp(x), -104.0f, 89.0f, Spread::uniform);
    SWEEP(exp2, std::exp2(x), -150.0f, 128.0f, Spread::uniform);
    SWEEP(exp10, std::pow(10.0, x), -45.0f, 38.0f, Spread::uniform);
    SWEEP(log, std::log(x), 1e-45f, 3e38f, Spread::positive_magnitudes);
    SWEEP(log2, std::log2(x), 1e-45f, 3e38f, Spread::positive_magnitudes);
    SWEEP(log10, std::log10(x), 1e-45f, 3e38f, Spread::positive_magnitudes);
    SWEEP(atan, std::atan(x), 1e-30f, 3e38f, Spread::magnitudes);
    SWEEP(asin, std::asin(x), -1.0f, 1.0f, Spread::uniform);
    SWEEP(acos, std::acos(x), -1.0f, 1.0f, Spread::uniform);
    SWEEP(sinh, std::sinh(x), 1e-30f, 89.0f, Spread::magnitudes);
    SWEEP(cosh, std::cosh(x), 1e-30f, 89.0f, Spread::magnitudes);
    SWEEP(tanh, std::tanh(x), 1e-30f, 20.0f, Spread::magnitudes);
    SWEEP(asinh, std::asinh(x), 1e-30f, 3e38f, Spread::magnitudes);
    SWEEP(acosh, std::acosh(x), 1.0f, 3e38f, Spread::positive_magnitudes);
    SWEEP(atanh, std::atanh(x), -1.0f, 1.0f, Spread::uniform);
    SWEEP(sinpi, sinpi_reference(x), -1000.0f, 1000.0f, Spread::uniform);
    SWEEP(cospi, cospi_reference(x), -1000.0f, 1000.0f, Spread::uniform);
    SWEEP(rint, std::nearbyint(x), -20.0f, 20.0f, Spread::uniform, 0);
    SWEEP(round, std::round(x), 1e-10f, 1e10f, Spread::magnitudes, 0);
    SWEEP(floor, std::floor(x), 1e-10f, 1e10f, Spread::magnitudes, 0);
    SWEEP(ceil, std::ceil(x), 1e-10f, 1e10f, Spread::magnitudes, 0);
}

// Test that pow, atan2, fmod and fma are accurate on random arguments of all magnitudes.
TEST(Math, TwoArgumentAccuracy) {
    std::mt19937 random(99);
    std::uniform_real_distribution<double> magnitude(-30.0, 30.0);
    auto any_float = [&] { return static_cast<float>(std::exp(magnitude(random))) * ((random() & 1) ? -1.0f : 1.0f); };
    for (int i = 0; i < 20000; ++i) {
        const float x = std::fabs(any_float());
        const float y = static_cast<float>(std::uniform_real_distribution<double>(-40.0, 40.0)(random));
        EXPECT_LE(ulp_distance(metal::pow(x, y), static_cast<float>(std::pow(double(x), double(y)))), 1)
            << x << " pow " << y;
        const float a = any_float(), b = any_float(), c = any_float();
        EXPECT_EQ(metal::fmod(a, b), std::fmod(a, b)) << a << " fmod " << b;
        EXPECT_LE(ulp_distance(metal::atan2(a, b), static_cast<float>(std::atan2(double(a), double(b)))), 1);
        EXPECT_EQ(metal::fma(a, b, c), std::fma(a, b, c)) << "fma(" << a << ", " << b << ", " << c << ")";
        // Nearly cancelling fused sums, where rounding the product first would be far off.
        const float p = 1.0f + static_cast<float>(random() % 4096) * 0x1p-23f;
        const float q = 1.0f + static_cast<float>(random() % 4096) * 0x1p-23f;
        const float r = -(p * q) + static_cast<float>(static_cast<int>(random() % 64) - 32) * 0x1p-40f;
        EXPECT_EQ(metal::fma(p, q, r), std::fma(p, q, r)) << "fma(" << p << ", " << q << ", " << r << ")";
    }
}

// Test that pow gives the special values of C's Annex F, which Metal's precise pow follows.
TEST(Math, PowSpecialCases) {
    const float inf = std::numeric_limits<float>::infinity();
    const float cases[][2] = {{0.0f, -1.0f}, {-0.0f, -1.0f}, {-0.0f, -2.0f}, {0.0f, 3.0f}, {-0.0f, 3.0f}, {-0.0f, 2.0f},
                              {-1.0f, inf}, {-1.0f, -inf}, {0.5f, -inf}, {2.0f, -inf}, {0.5f, inf}, {2.0f, inf},
                              {-inf, -3.0f}, {-inf, -2.0f}, {-inf, 3.0f}, {-inf, 2.0f}, {inf, -1.0f}, {inf, 0.5f},
                              {-2.0f, 0.5f}, {-8.0f, 3.0f}, {-2.0f, -2.0f}, {5.0f, 0.0f}, {1.0f, NAN}, {NAN, 0.0f}};
    for (const auto& c : cases) {
        const float got = metal::pow(c[0], c[1]);
        const float want = std::pow(c[0], c[1]);
        if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(got)) << "pow(" << c[0] << ", " << c[1] << ")";
        } else {
            EXPECT_EQ(got, want) << "pow(" << c[0] << ", " << c[1] << ")";
            EXPECT_EQ(std::signbit(got), std::signbit(want)) << "pow(" << c[0] << ", " << c[1] << ")";
        }
    }
}

// Test that the math constants are their values in double rounded to float (or half).
TEST(Math, Constants) {
    EXPECT_EQ(M_PI_F, static_cast<float>(M_PI));
    EXPECT_EQ(M_PI_2_F, static_cast<float>(M_PI_2));
    EXPECT_EQ(M_PI_4_F, static_cast<float>(M_PI_4));
    EXPECT_EQ(M_1_PI_F, static_cast<float>(M_1_PI));
    EXPECT_EQ(M_2_PI_F, static_cast<float>(M_2_PI));
    EXPECT_EQ(M_2_SQRTPI_F, static_cast<float>(M_2_SQRTPI));
    EXPECT_EQ(M_E_F, static_cast<float>(M_E));
    EXPECT_EQ(M_LOG2E_F, static_cast<float>(M_LOG2E));
    EXPECT_EQ(M_LOG10E_F, static_cast<float>(M_LOG10E));
    EXPECT_EQ(M_LN2_F, static_cast<float>(M_LN2));
    EXPECT_EQ(M_LN10_F, static_cast<float>(M_LN10));
    EXPECT_EQ(M_SQRT2_F, static_cast<float>(M_SQRT2));
    EXPECT_EQ(M_SQRT1_2_F, static_cast<float>(M_SQRT1_2));
    EXPECT_EQ(static_cast<float>(M_PI_H), 3.140625f);
    EXPECT_EQ(static_cast<float>(M_SQRT2_H), 1.4140625f);
    EXPECT_EQ(static_cast<float>(MAXHALF), 65504.0f);
    EXPECT_TRUE(std::isinf(static_cast<float>(HUGE_VALH)));
    EXPECT_TRUE(std::isinf(INFINITY) && INFINITY > 0);
    EXPECT_TRUE(std::isnan(NAN));
    EXPECT_EQ(MAXFLOAT, std::numeric_limits<float>::max());
    EXPECT_TRUE(std::isinf(HUGE_VALF));
}

} // namespace
