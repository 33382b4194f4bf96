// The float math functions behind <metal_math>, written out because kernel libraries cannot
// call the C library: they are linked with -nostdlib -Wl,-z,defs and only libgcc, and a
// __builtin_sinf() becomes a call to sinf() (the compiler inlines only the simplest builtins,
// and only under some options).
//
// Each function takes and returns float and computes in double, which leaves enough spare
// precision for results within a few ulp of the correctly rounded float (MSL's precise math
// allows 4 ulp for most functions); the tests compare against the C library. The code is
// written to stay accurate under -ffast-math: special values are recognised on the bits, and
// the sin/cos/tan argument reduction is done in integers.
#pragma once

#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/scalar.h>

namespace metalcpu_stdlib::libm {

using u32 = unsigned int;
using u64 = unsigned long;
using i64 = long;
using u128 = unsigned __int128;

// --- bits ------------------------------------------------------------------------------
METALCPU_INLINE constexpr u32 bits(float x) { return __builtin_bit_cast(u32, x); }
METALCPU_INLINE constexpr u64 bits(double x) { return __builtin_bit_cast(u64, x); }
METALCPU_INLINE constexpr float float_from(u32 b) { return __builtin_bit_cast(float, b); }
METALCPU_INLINE constexpr double double_from(u64 b) { return __builtin_bit_cast(double, b); }

METALCPU_INLINE constexpr bool is_nan(float x) { return (bits(x) & 0x7fffffffu) > 0x7f800000u; }
METALCPU_INLINE constexpr bool is_inf(float x) { return (bits(x) & 0x7fffffffu) == 0x7f800000u; }
METALCPU_INLINE constexpr bool is_finite(float x) { return (bits(x) & 0x7fffffffu) < 0x7f800000u; }
METALCPU_INLINE constexpr bool sign_bit(float x) { return (bits(x) >> 31) != 0; }
METALCPU_INLINE constexpr bool is_nan(double x) { return (bits(x) & 0x7fffffffffffffffu) > 0x7ff0000000000000u; }
METALCPU_INLINE constexpr float abs(float x) { return float_from(bits(x) & 0x7fffffffu); }
METALCPU_INLINE constexpr double abs(double x) { return double_from(bits(x) & 0x7fffffffffffffffu); }
METALCPU_INLINE constexpr float copysign(float x, float s) {
    return float_from((bits(x) & 0x7fffffffu) | (bits(s) & 0x80000000u));
}
METALCPU_INLINE constexpr double copysign(double x, double s) {
    return double_from((bits(x) & 0x7fffffffffffffffu) | (bits(s) & 0x8000000000000000u));
}

inline constexpr float kNanF = __builtin_nanf("");
inline constexpr float kInfF = __builtin_huge_valf();
inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kPiOver2 = 1.57079632679489661923;
inline constexpr double kLn2 = 0.693147180559945309417;
inline constexpr double kLn10 = 2.30258509299404568402;

// 2^k for -1022 <= k <= 1023, exactly.
METALCPU_INLINE constexpr double pow2(int k) { return double_from(static_cast<u64>(k + 1023) << 52); }

// x * 2^k for any k, exactly while the result is a normal double.
METALCPU_INLINE constexpr double scale(double x, int k) {
    while (k > 1000) { x *= pow2(1000); k -= 1000; }
    while (k < -1000) { x *= pow2(-1000); k += 1000; }
    return x * pow2(k);
}

// Square roots as single instructions, independent of -fno-math-errno (with math errno on,
// __builtin_sqrt() keeps a call to sqrt() for negative arguments).
METALCPU_INLINE constexpr double sqrt_d(double x) {
    if (__builtin_is_constant_evaluated()) return __builtin_sqrt(x);
#if defined(__x86_64__)
    typedef double v2df __attribute__((vector_size(16)));
    const v2df v = {x, 0.0};
    return __builtin_ia32_sqrtsd(v)[0];
#else
    return __builtin_sqrt(x); // inlined when math errno is off (kernels use -ffast-math)
#endif
}
METALCPU_INLINE constexpr float sqrt(float x) {
    if (__builtin_is_constant_evaluated()) return __builtin_sqrtf(x);
#if defined(__x86_64__)
    typedef float v4sf __attribute__((vector_size(16)));
    const v4sf v = {x, 0.0f, 0.0f, 0.0f};
    return __builtin_ia32_sqrtss(v)[0];
#else
    return __builtin_sqrtf(x);
#endif
}

// --- rounding --------------------------------------------------------------------------
// Floats of magnitude 2^23 and above (and NaN, infinities) are integers already.
METALCPU_INLINE constexpr bool has_fraction_bits(float x) { return (bits(x) & 0x7fffffffu) < 0x4b000000u; }

METALCPU_INLINE constexpr float trunc(float x) {
    if (!has_fraction_bits(x)) return x;
    return copysign(static_cast<float>(static_cast<int>(x)), x);
}
METALCPU_INLINE constexpr float floor(float x) {
    if (!has_fraction_bits(x)) return x;
    const float t = trunc(x);
    return t > x ? t - 1.0f : t;
}
METALCPU_INLINE constexpr float ceil(float x) {
    if (!has_fraction_bits(x)) return x;
    const float t = trunc(x);
    return t < x ? t + 1.0f : t;
}
// Halfway cases away from zero.
METALCPU_INLINE constexpr float round(float x) {
    if (!has_fraction_bits(x)) return x;
    const float t = trunc(x);
    return abs(x - t) >= 0.5f ? t + copysign(1.0f, x) : t;
}
// Halfway cases to even.
METALCPU_INLINE constexpr float rint(float x) {
    if (!has_fraction_bits(x)) return x;
    const float t = trunc(x);
    const float d = abs(x - t);
    const bool odd = (static_cast<int>(t) & 1) != 0;
    return (d > 0.5f || (d == 0.5f && odd)) ? t + copysign(1.0f, x) : t;
}
// Nearest integer of a double of magnitude below 2^62, halfway away from zero.
METALCPU_INLINE constexpr i64 round_to_long(double x) { return static_cast<i64>(x + copysign(0.5, x)); }

// --- decomposition ---------------------------------------------------------------------
// frexp: x = m * 2^e with 0.5 <= |m| < 1 (m = x, e = 0 for zero, infinity and NaN).
METALCPU_INLINE constexpr float frexp(float x, int& e) {
    e = 0;
    if (!is_finite(x) || x == 0.0f) return x;
    u32 b = bits(x);
    int biased = static_cast<int>((b >> 23) & 0xffu);
    if (biased == 0) { // subnormal: scale into the normal range first
        b = bits(x * 0x1p25f);
        biased = static_cast<int>((b >> 23) & 0xffu) - 25;
    }
    e = biased - 126;
    return float_from((b & 0x807fffffu) | (126u << 23));
}

METALCPU_INLINE constexpr float ldexp(float x, int k) {
    k = k > 400 ? 400 : (k < -400 ? -400 : k);
    return static_cast<float>(scale(static_cast<double>(x), k));
}

// ilogb: the unbiased exponent; FP_ILOGB0 / FP_ILOGBNAN (INT_MIN) for 0 / NaN, INT_MAX for infinity.
METALCPU_INLINE constexpr int ilogb(float x) {
    const u32 b = bits(x) & 0x7fffffffu;
    if (b == 0 || b > 0x7f800000u) return -2147483647 - 1;
    if (b == 0x7f800000u) return 2147483647;
    if (b < 0x00800000u) return -118 - __builtin_clz(b); // subnormal: b * 2^-149
    return static_cast<int>(b >> 23) - 127;
}

// fmod(x, y) = x - n * y with n = trunc(x / y), computed exactly on the mantissas.
inline constexpr float fmod(float x, float y) {
    const u32 bx = bits(x) & 0x7fffffffu, by = bits(y) & 0x7fffffffu;
    if (by == 0 || bx >= 0x7f800000u || by > 0x7f800000u) return kNanF;
    if (bx < by) return x;
    auto unpack = [](u32 b, int& e) {
        e = static_cast<int>(b >> 23);
        if (e == 0) { // subnormal: normalise
            const int shift = __builtin_clz(b) - 8;
            e = 1 - shift;
            return b << shift;
        }
        return (b & 0x007fffffu) | 0x00800000u;
    };
    int ex = 0, ey = 0;
    u32 mx = unpack(bx, ex), my = unpack(by, ey);
    for (; ex > ey; --ex) {
        if (mx >= my) mx -= my;
        mx <<= 1;
    }
    if (mx >= my) mx -= my;
    if (mx == 0) return copysign(0.0f, x);
    const int shift = __builtin_clz(mx) - 8;
    mx <<= shift;
    ey -= shift;
    const u32 result = ey > 0 ? (static_cast<u32>(ey) << 23) | (mx & 0x007fffffu) : mx >> (1 - ey);
    return float_from(result | (bits(x) & 0x80000000u));
}

// --- exponentials and logarithms (double) ------------------------------------------------
// e^x for |x| up to 745, to about 1e-15 relative.
inline constexpr double exp_d(double x) {
    if (is_nan(x)) return x;
    if (x > 709.0) return static_cast<double>(kInfF);
    if (x < -745.0) return 0.0;
    const i64 k = round_to_long(x * (1.0 / kLn2));
    const double kd = static_cast<double>(k);
    const double r = (x - kd * 6.93147180369123816490e-01) - kd * 1.90821492927058770002e-10; // ln2, high + low
    // Taylor series of e^r, |r| <= 0.35, to r^12.
    double p = 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    return scale(p, static_cast<int>(k));
}

// ln(x) for a positive finite double, split as e*ln2 + ln(m), m in [sqrt(1/2), sqrt(2)).
inline constexpr double log_parts(double x, double& log_m) {
    u64 b = bits(x);
    int e = static_cast<int>(b >> 52) - 1023;
    if ((b >> 52) == 0) { // subnormal double (not reached from float arguments)
        b = bits(x * 0x1p64);
        e = static_cast<int>(b >> 52) - 1023 - 64;
    }
    double m = double_from((b & 0x000fffffffffffffu) | 0x3ff0000000000000u);
    if (m > 1.41421356237309504880) {
        m *= 0.5;
        ++e;
    }
    // ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716.
    const double s = (m - 1.0) / (m + 1.0);
    const double z = s * s;
    double p = 1.0 / 23.0;
    p = p * z + 1.0 / 21.0;
    p = p * z + 1.0 / 19.0;
    p = p * z + 1.0 / 17.0;
    p = p * z + 1.0 / 15.0;
    p = p * z + 1.0 / 13.0;
    p = p * z + 1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z + 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z + 1.0 / 3.0;
    log_m = 2.0 * s + 2.0 * s * z * p;
    return static_cast<double>(e);
}
inline constexpr double log_d(double x) {
    double log_m = 0.0;
    const double e = log_parts(x, log_m);
    return e * kLn2 + log_m;
}

// Results for the special arguments of the logarithms: NaN below 0, -inf at 0, x for +inf/NaN.
METALCPU_INLINE constexpr bool log_special(float x, float& result) {
    if (is_nan(x) || x == kInfF) { result = x; return true; }
    if (x == 0.0f) { result = -kInfF; return true; }
    if (sign_bit(x)) { result = kNanF; return true; }
    return false;
}

inline constexpr float exp(float x) { return static_cast<float>(exp_d(x)); }
inline constexpr float exp2(float x) {
    if (is_nan(x)) return x;
    if (x > 200.0f) return kInfF;
    if (x < -200.0f) return 0.0f;
    const float k = rint(x); // exact split: 2^x = 2^k * e^((x - k) ln2)
    return static_cast<float>(scale(exp_d((x - k) * kLn2), static_cast<int>(k)));
}
inline constexpr float exp10(float x) { return static_cast<float>(exp_d(static_cast<double>(x) * kLn10)); }
inline constexpr float log(float x) {
    float special = 0.0f;
    return log_special(x, special) ? special : static_cast<float>(log_d(x));
}
inline constexpr float log2(float x) {
    float special = 0.0f;
    if (log_special(x, special)) return special;
    double log_m = 0.0;
    const double e = log_parts(x, log_m); // exact powers of two give exact results
    return static_cast<float>(e + log_m * (1.0 / kLn2));
}
inline constexpr float log10(float x) {
    float special = 0.0f;
    return log_special(x, special) ? special : static_cast<float>(log_d(x) * (1.0 / kLn10));
}

// Whether a float is an integer, and whether an odd one.
METALCPU_INLINE constexpr bool is_integer(float y) { return is_finite(y) && trunc(y) == y; }
METALCPU_INLINE constexpr bool is_odd_integer(float y) {
    return is_integer(y) && abs(y) < 0x1p24f && (static_cast<i64>(y) & 1) != 0;
}

// pow(x, y) with the special cases of C (Annex F).
inline constexpr float pow(float x, float y) {
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (is_nan(x) || is_nan(y)) return kNanF;
    const float ax = abs(x);
    if (is_inf(y)) {
        if (ax == 1.0f) return 1.0f;
        return (ax > 1.0f) == (y > 0.0f) ? kInfF : 0.0f;
    }
    const bool odd = is_odd_integer(y);
    if (x == 0.0f) {
        if (y < 0.0f) return odd ? copysign(kInfF, x) : kInfF;
        return odd ? x : 0.0f;
    }
    if (is_inf(x)) {
        const float magnitude = y < 0.0f ? 0.0f : kInfF;
        return sign_bit(x) && odd ? -magnitude : magnitude;
    }
    if (sign_bit(x) && !is_integer(y)) return kNanF;
    const float r = static_cast<float>(exp_d(static_cast<double>(y) * log_d(ax)));
    return sign_bit(x) && odd ? -r : r;
}

// --- trigonometric (double) ---------------------------------------------------------------
// sin and cos of |r| <= pi/4 by their Taylor series (to r^15 and r^16).
inline constexpr double sin_kernel(double r) {
    const double z = r * r;
    double p = -1.0 / 1307674368000.0;
    p = p * z + 1.0 / 6227020800.0;
    p = p * z - 1.0 / 39916800.0;
    p = p * z + 1.0 / 362880.0;
    p = p * z - 1.0 / 5040.0;
    p = p * z + 1.0 / 120.0;
    p = p * z - 1.0 / 6.0;
    return r + r * z * p;
}
inline constexpr double cos_kernel(double r) {
    const double z = r * r;
    double p = 1.0 / 20922789888000.0;
    p = p * z - 1.0 / 87178291200.0;
    p = p * z + 1.0 / 479001600.0;
    p = p * z - 1.0 / 3628800.0;
    p = p * z + 1.0 / 40320.0;
    p = p * z - 1.0 / 720.0;
    p = p * z + 1.0 / 24.0;
    p = p * z - 0.5;
    return 1.0 + z * p;
}

// The bits of 2/pi after the binary point, after one word of zeros (gen_two_over_pi.py).
inline constexpr u32 kTwoOverPi[] = {0x00000000u, 0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u,
                                     0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu,
                                     0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u};

// Reduces a finite x to r in [-pi/4, pi/4] with x = r + q * pi/2 (mod 2 pi), q in 0..3.
// |x| = M * 2^e with a 24-bit integer M; M times a 96-bit window of 2/pi, in integers, gives
// x * 2/pi modulo 4 with a 94-bit fraction (Payne-Hanek), whatever the size of x.
inline constexpr double reduce_pi_over_2(float x, int& q) {
    const float ax = abs(x);
    if (ax <= 0.785398163f) {
        q = 0;
        return x;
    }
    const u32 b = bits(ax);
    const int e = static_cast<int>(b >> 23) - 150;           // ax = M * 2^e
    const u64 m = (b & 0x007fffffu) | 0x00800000u;
    const int first = e - 1 + 31;                             // first bit of 2/pi that matters
    const int word = first / 32, offset = first % 32;
    const u128 window4 = (static_cast<u128>(kTwoOverPi[word]) << 96) | (static_cast<u128>(kTwoOverPi[word + 1]) << 64) |
                         (static_cast<u128>(kTwoOverPi[word + 2]) << 32) | kTwoOverPi[word + 3];
    const u128 window = (window4 << offset) >> 32;            // 96 bits
    const u128 product = window * m;                          // x * 2/pi * 2^94, modulo 4 * 2^94
    int quadrant = static_cast<int>(product >> 94) & 3;
    const u64 fraction = static_cast<u64>(product >> 30);     // top 64 of the 94 fraction bits
    if (fraction >> 63) ++quadrant;                           // round to the nearest quadrant
    const double f = static_cast<double>(static_cast<i64>(fraction)) * 0x1p-64;
    double r = f * kPiOver2;
    if (sign_bit(x)) {
        r = -r;
        quadrant = -quadrant;
    }
    q = quadrant & 3;
    return r;
}

// sin and cos of x given r and q from the reduction.
METALCPU_INLINE constexpr double sin_from(double r, int q) {
    switch (q) {
    case 0: return sin_kernel(r);
    case 1: return cos_kernel(r);
    case 2: return -sin_kernel(r);
    default: return -cos_kernel(r);
    }
}
METALCPU_INLINE constexpr double cos_from(double r, int q) { return sin_from(r, (q + 1) & 3); }

// sin, cos and tan are out of line: their argument reduction (Payne-Hanek, in 128-bit
// integers) is long, and inlined at every call site it made a kernel with 32 sincos calls (an
// FFT's twiddles, as VkFFT writes them) take 8 s of CPU to compile. A call costs a few ns
// against the hundred-odd instructions of the body.
[[gnu::noinline]] inline constexpr float sin(float x) {
    if (!is_finite(x)) return kNanF;
    int q = 0;
    const double r = reduce_pi_over_2(x, q);
    return static_cast<float>(sin_from(r, q));
}
[[gnu::noinline]] inline constexpr float cos(float x) {
    if (!is_finite(x)) return kNanF;
    int q = 0;
    const double r = reduce_pi_over_2(x, q);
    return static_cast<float>(cos_from(r, q));
}
[[gnu::noinline]] inline constexpr float tan(float x) {
    if (!is_finite(x)) return kNanF;
    int q = 0;
    const double r = reduce_pi_over_2(x, q);
    return static_cast<float>(sin_from(r, q) / cos_from(r, q));
}

// sin(pi x), cos(pi x), tan(pi x): x is reduced exactly, so integers and half-integers give
// exact zeros and ones.
METALCPU_INLINE constexpr double reduce_half_turns(float x, int& q) {
    // x = k/2 + t with |t| <= 1/4; pi x = k pi/2 + pi t.
    const float twice = x * 2.0f; // exact
    const float k = rint(twice);
    const double t = static_cast<double>(x) - static_cast<double>(k) * 0.5;
    q = static_cast<int>(static_cast<i64>(fmod(k, 4.0f)) & 3);
    return t * kPi;
}
inline constexpr float sinpi(float x) {
    if (!is_finite(x)) return kNanF;
    if (!has_fraction_bits(x)) return copysign(0.0f, x);
    int q = 0;
    const double r = reduce_half_turns(x, q);
    const double s = sin_from(r, q);
    return s == 0.0 ? copysign(0.0f, x) : static_cast<float>(s);
}
inline constexpr float cospi(float x) {
    if (!is_finite(x)) return kNanF;
    int q = 0;
    const double r = has_fraction_bits(x) ? reduce_half_turns(x, q) : 0.0;
    if (!has_fraction_bits(x)) q = (abs(x) < 0x1p24f && (static_cast<i64>(x) & 1)) ? 2 : 0;
    return static_cast<float>(cos_from(r, q));
}
inline constexpr float tanpi(float x) {
    if (!is_finite(x)) return kNanF;
    int q = 0;
    const double r = has_fraction_bits(x) ? reduce_half_turns(x, q) : 0.0;
    return static_cast<float>(sin_from(r, q) / cos_from(r, q));
}

// atan of a double: two argument halvings, atan(u) = 2 atan(u / (1 + sqrt(1 + u^2))), bring
// |u| <= 1 below tan(pi/16), where the Taylor series converges fast.
inline constexpr double atan_d(double x) {
    const bool negative = (bits(x) >> 63) != 0;
    double u = abs(x);
    const bool inverted = u > 1.0;
    if (inverted) u = 1.0 / u;
    u = u / (1.0 + sqrt_d(1.0 + u * u));
    u = u / (1.0 + sqrt_d(1.0 + u * u));
    const double z = u * u;
    double p = -1.0 / 27.0;
    p = p * z + 1.0 / 25.0;
    p = p * z - 1.0 / 23.0;
    p = p * z + 1.0 / 21.0;
    p = p * z - 1.0 / 19.0;
    p = p * z + 1.0 / 17.0;
    p = p * z - 1.0 / 15.0;
    p = p * z + 1.0 / 13.0;
    p = p * z - 1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z - 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z - 1.0 / 3.0;
    double a = 4.0 * (u + u * z * p);
    if (inverted) a = kPiOver2 - a;
    return negative ? -a : a;
}

inline constexpr float atan(float x) {
    if (is_nan(x)) return x;
    if (is_inf(x)) return copysign(static_cast<float>(kPiOver2), x);
    return static_cast<float>(atan_d(x));
}
inline constexpr float asin(float x) {
    const float ax = abs(x);
    if (is_nan(x) || ax > 1.0f) return kNanF;
    if (ax == 1.0f) return copysign(static_cast<float>(kPiOver2), x);
    const double d = x;
    return static_cast<float>(atan_d(d / sqrt_d((1.0 - d) * (1.0 + d))));
}
inline constexpr float acos(float x) {
    const float ax = abs(x);
    if (is_nan(x) || ax > 1.0f) return kNanF;
    if (x == -1.0f) return static_cast<float>(kPi);
    const double d = x;
    return static_cast<float>(2.0 * atan_d(sqrt_d((1.0 - d) / (1.0 + d))));
}
// atan2 with the special cases of C (Annex F): signed zeros and infinities give multiples of pi/4.
inline constexpr float atan2(float y, float x) {
    if (is_nan(x) || is_nan(y)) return kNanF;
    const float pi = static_cast<float>(kPi);
    if (y == 0.0f) return sign_bit(x) ? copysign(pi, y) : y;
    if (x == 0.0f) return copysign(static_cast<float>(kPiOver2), y);
    if (is_inf(x)) {
        if (is_inf(y)) return copysign(sign_bit(x) ? 3.0f * pi / 4.0f : pi / 4.0f, y);
        return sign_bit(x) ? copysign(pi, y) : copysign(0.0f, y);
    }
    if (is_inf(y)) return copysign(static_cast<float>(kPiOver2), y);
    double a = atan_d(abs(static_cast<double>(y) / static_cast<double>(x)));
    if (sign_bit(x)) a = kPi - a;
    return copysign(static_cast<float>(a), y);
}

// --- hyperbolic --------------------------------------------------------------------------
inline constexpr float sinh(float x) {
    if (!is_finite(x)) return x;
    const double d = abs(static_cast<double>(x));
    if (d < 0x1p-12) return static_cast<float>(x + static_cast<double>(x) * x * x / 6.0);
    const double e = exp_d(d);
    return copysign(static_cast<float>(0.5 * (e - 1.0 / e)), x);
}
inline constexpr float cosh(float x) {
    if (is_nan(x)) return x;
    if (is_inf(x)) return kInfF;
    const double e = exp_d(abs(static_cast<double>(x)));
    return static_cast<float>(0.5 * (e + 1.0 / e));
}
inline constexpr float tanh(float x) {
    if (is_nan(x)) return x;
    const double d = abs(static_cast<double>(x));
    if (d > 10.0) return copysign(1.0f, x);
    if (d < 0x1p-12) return static_cast<float>(x - static_cast<double>(x) * x * x / 3.0);
    const double e = exp_d(2.0 * d);
    return copysign(static_cast<float>((e - 1.0) / (e + 1.0)), x);
}
inline constexpr float asinh(float x) {
    if (!is_finite(x)) return x;
    const double d = abs(static_cast<double>(x));
    if (d < 0x1p-12) return static_cast<float>(x - static_cast<double>(x) * x * x / 6.0);
    return copysign(static_cast<float>(log_d(d + sqrt_d(d * d + 1.0))), x);
}
inline constexpr float acosh(float x) {
    if (is_nan(x) || x < 1.0f) return kNanF;
    if (is_inf(x)) return x;
    const double d = x;
    return static_cast<float>(log_d(d + sqrt_d((d - 1.0) * (d + 1.0))));
}
inline constexpr float atanh(float x) {
    const float ax = abs(x);
    if (is_nan(x) || ax > 1.0f) return kNanF;
    if (ax == 1.0f) return copysign(kInfF, x);
    const double d = x;
    if (ax < 0x1p-12f) return static_cast<float>(d + d * d * d / 3.0);
    return static_cast<float>(0.5 * log_d((1.0 + d) / (1.0 - d)));
}

// --- fused multiply-add --------------------------------------------------------------------
// a * b + c rounded once. The product is exact in double; the sum is formed exactly in a
// 128-bit integer and rounded to 53 bits "to odd" (inexact results get their last bit set),
// after which rounding to float is correct (53 >= 2 * 24 + 2).
inline constexpr float fma(float a, float b, float c) {
    const double p = static_cast<double>(a) * static_cast<double>(b);
    const double cd = c;
    if (!is_finite(a) || !is_finite(b) || !is_finite(c) || p == 0.0 || c == 0.0)
        return static_cast<float>(p + cd);
    const u64 pb = bits(p), cb = bits(cd);
    int ep = static_cast<int>((pb >> 52) & 0x7ff), ec = static_cast<int>((cb >> 52) & 0x7ff);
    __int128 mp = static_cast<__int128>((pb & 0x000fffffffffffffu) | 0x0010000000000000u);
    __int128 mc = static_cast<__int128>((cb & 0x000fffffffffffffu) | 0x0010000000000000u);
    if (pb >> 63) mp = -mp;
    if (cb >> 63) mc = -mc;
    // Align: the operand with the larger exponent is shifted left. An operand more than 70
    // binary places below the other is smaller than a quarter of the other's last place, so
    // it only decides the direction of rounding: it becomes one unit two places further down.
    if (ep < ec) {
        const __int128 tm = mp; mp = mc; mc = tm;
        const int te = ep; ep = ec; ec = te;
    }
    const int d = ep - ec;
    __int128 sum;
    int exponent; // of bit 0 of sum, biased like a double's
    if (d <= 70) {
        sum = mp * (static_cast<__int128>(1) << d) + mc;
        exponent = ec;
    } else {
        sum = mp * 4 + (mc < 0 ? -1 : 1);
        exponent = ep - 2;
    }
    if (sum == 0) return 0.0f;
    const bool negative = sum < 0;
    u128 magnitude = negative ? static_cast<u128>(-sum) : static_cast<u128>(sum);
    const u64 high = static_cast<u64>(magnitude >> 64);
    const int top = high ? 127 - __builtin_clzl(high) : 63 - __builtin_clzl(static_cast<u64>(magnitude));
    int shift = 0;
    if (top > 52) {
        shift = top - 52;
        const bool inexact = (magnitude & ((static_cast<u128>(1) << shift) - 1)) != 0;
        magnitude = (magnitude >> shift) | (inexact ? 1u : 0u);
    }
    const double rounded = scale(static_cast<double>(static_cast<u64>(magnitude)), exponent + shift - 1075);
    return static_cast<float>(negative ? -rounded : rounded);
}

} // namespace metalcpu_stdlib::libm
