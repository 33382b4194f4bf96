// Apple's compiler builtins behind <metal_math> that kernel libraries call directly: MLX's
// bf16_math.h defines bfloat overloads of the math functions as
// `static_cast<bfloat16_t>(__metal_exp(static_cast<float>(x), __METAL_MAYBE_FAST_MATH__))`,
// with the mode __METAL_FAST_MATH__, __METAL_PRECISE_MATH__ or __METAL_MAYBE_FAST_MATH__ (the
// one the kernel's FP32 function setting picks), and marks functions METAL_FUNC.
//
// Each __metal_<name> is the library's metal::fast::<name> or metal::precise::<name> (they
// differ only for fmin/fmax and their three-argument forms, which ignore a NaN argument when
// precise); the mode argument may be left out. fma, nextafter and frexp take no mode, as in
// MLX's calls. They are global, so they are found from any namespace, and templates, so a
// kernel's own overloads of the same names win. The __metal_simd_* builtins are
// <metal_simdgroup>'s.
#pragma once

#include <metalcpu/stdlib/export.h>
#include <metal_math>

#ifndef METAL_FUNC
#define METAL_FUNC inline __attribute__((__always_inline__))
#endif

namespace metalcpu_stdlib {
enum class builtin_math_mode { fast, precise };
} // namespace metalcpu_stdlib

#define __METAL_FAST_MATH__ (::metalcpu_stdlib::builtin_math_mode::fast)
#define __METAL_PRECISE_MATH__ (::metalcpu_stdlib::builtin_math_mode::precise)
#if METALCPU_MATH_FP32_FUNCTIONS == 0
#define __METAL_MAYBE_FAST_MATH__ __METAL_FAST_MATH__
#else
#define __METAL_MAYBE_FAST_MATH__ __METAL_PRECISE_MATH__
#endif

// Each is a template of its arguments (so a kernel's own overloads win), with the mode last
// and defaulted.
#define METALCPU_MODE ::metalcpu_stdlib::builtin_math_mode mode = __METAL_MAYBE_FAST_MATH__
#define METALCPU_IS_FAST (mode == ::metalcpu_stdlib::builtin_math_mode::fast)
#define METALCPU_BUILTIN_1(name)                                                                \
    template <class X> METALCPU_INLINE auto __metal_##name(const X& x, METALCPU_MODE) {         \
        (void)mode;                                                                             \
        return ::metalcpu_stdlib::math::name(x);                                                \
    }
#define METALCPU_BUILTIN_2(name)                                                                \
    template <class X, class Y>                                                                 \
    METALCPU_INLINE auto __metal_##name(const X& x, const Y& y, METALCPU_MODE) {                \
        (void)mode;                                                                             \
        return ::metalcpu_stdlib::math::name(x, y);                                             \
    }
// fmin/fmax and their three-argument forms: the precise ones ignore a NaN argument.
#define METALCPU_BUILTIN_2_FAST_PRECISE(name)                                                   \
    template <class X, class Y>                                                                 \
    METALCPU_INLINE auto __metal_##name(const X& x, const Y& y, METALCPU_MODE) {                \
        return METALCPU_IS_FAST ? ::metalcpu_stdlib::math_fast::name(x, y)                      \
                                : ::metalcpu_stdlib::math_precise::name(x, y);                  \
    }
#define METALCPU_BUILTIN_3_FAST_PRECISE(name)                                                   \
    template <class X, class Y, class Z>                                                        \
    METALCPU_INLINE auto __metal_##name(const X& x, const Y& y, const Z& z, METALCPU_MODE) {    \
        return METALCPU_IS_FAST ? ::metalcpu_stdlib::math_fast::name(x, y, z)                   \
                                : ::metalcpu_stdlib::math_precise::name(x, y, z);               \
    }

METALCPU_BUILTIN_1(acos)
METALCPU_BUILTIN_1(acosh)
METALCPU_BUILTIN_1(asin)
METALCPU_BUILTIN_1(asinh)
METALCPU_BUILTIN_1(atan)
METALCPU_BUILTIN_1(atanh)
METALCPU_BUILTIN_1(ceil)
METALCPU_BUILTIN_1(cos)
METALCPU_BUILTIN_1(cosh)
METALCPU_BUILTIN_1(cospi)
METALCPU_BUILTIN_1(exp)
METALCPU_BUILTIN_1(exp10)
METALCPU_BUILTIN_1(exp2)
METALCPU_BUILTIN_1(fabs)
METALCPU_BUILTIN_1(floor)
METALCPU_BUILTIN_1(fract)
METALCPU_BUILTIN_1(log)
METALCPU_BUILTIN_1(log10)
METALCPU_BUILTIN_1(log2)
METALCPU_BUILTIN_1(rint)
METALCPU_BUILTIN_1(round)
METALCPU_BUILTIN_1(rsqrt)
METALCPU_BUILTIN_1(sin)
METALCPU_BUILTIN_1(sinh)
METALCPU_BUILTIN_1(sinpi)
METALCPU_BUILTIN_1(sqrt)
METALCPU_BUILTIN_1(tan)
METALCPU_BUILTIN_1(tanh)
METALCPU_BUILTIN_1(tanpi)
METALCPU_BUILTIN_1(trunc)
METALCPU_BUILTIN_2(atan2)
METALCPU_BUILTIN_2(copysign)
METALCPU_BUILTIN_2(divide)
METALCPU_BUILTIN_2(fdim)
METALCPU_BUILTIN_2(fmod)
METALCPU_BUILTIN_2(ldexp)
METALCPU_BUILTIN_2(nextafter)
METALCPU_BUILTIN_2(pow)
METALCPU_BUILTIN_2(powr)
METALCPU_BUILTIN_2_FAST_PRECISE(fmax)
METALCPU_BUILTIN_2_FAST_PRECISE(fmin)
METALCPU_BUILTIN_3_FAST_PRECISE(fmax3)
METALCPU_BUILTIN_3_FAST_PRECISE(fmin3)
METALCPU_BUILTIN_3_FAST_PRECISE(fmedian3)

template <class X, class Y, class Z> METALCPU_INLINE auto __metal_fma(const X& x, const Y& y, const Z& z) {
    return ::metalcpu_stdlib::math::fma(x, y, z);
}
// frexp stores the exponent through a pointer: __metal_frexp(x, &exponent).
template <class X, class E> METALCPU_INLINE auto __metal_frexp(const X& x, E* exponent) {
    return ::metalcpu_stdlib::math::frexp(x, *exponent);
}

#undef METALCPU_BUILTIN_3_FAST_PRECISE
#undef METALCPU_BUILTIN_2_FAST_PRECISE
#undef METALCPU_BUILTIN_2
#undef METALCPU_BUILTIN_1
#undef METALCPU_IS_FAST
#undef METALCPU_MODE
