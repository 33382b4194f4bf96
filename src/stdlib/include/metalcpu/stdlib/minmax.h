// min, max, clamp and their three-argument forms, for integers, half and float, in the two
// flavours MSL has: metal::fast:: (result unspecified when an argument is NaN; compiles to
// single min/max instructions) and metal::precise:: (IEEE 754 minNum/maxNum: a NaN argument
// is ignored). Plain metal:: names are the fast ones unless the kernel is compiled with
// precise FP32 functions (METALCPU_MATH_FP32_FUNCTIONS, see export.h), as in Metal.
// Shared by <metal_math>, <metal_common> and <metal_integer>.
#pragma once

#include <metalcpu/stdlib/args.h>
#include <metalcpu/stdlib/export.h>
#include <metalcpu/stdlib/libm.h>

namespace metalcpu_stdlib {

namespace minmax_detail {
/// What a comparison of two values of T compares. Halves compare as their bits, turned from
/// sign-magnitude into an int that orders as the values do (-0 and +0 meet at 0; NaNs land
/// beyond the infinities): kernels are built for the baseline ISA, where comparing two
/// _Float16s widens both through libgcc, and max(x, half(0)) in an epilogue paid that per
/// element. Other types compare as themselves.
template <class T> METALCPU_INLINE constexpr T ordered(T value) { return value; }
METALCPU_INLINE constexpr int ordered(half value) {
    const int bits = __builtin_bit_cast(unsigned short, value);
    return bits & 0x8000 ? -(bits & 0x7fff) : bits;
}
template <class T> METALCPU_INLINE constexpr bool nan(T value) { return is_nan(value); }
METALCPU_INLINE constexpr bool nan(half value) { return (__builtin_bit_cast(unsigned short, value) & 0x7fff) > 0x7c00; }
} // namespace minmax_detail

namespace math_fast {
struct max_op {
    template <class T> METALCPU_INLINE constexpr T operator()(T a, T b) const {
        return minmax_detail::ordered(a) > minmax_detail::ordered(b) ? a : b;
    }
};
struct min_op {
    template <class T> METALCPU_INLINE constexpr T operator()(T a, T b) const {
        return minmax_detail::ordered(a) < minmax_detail::ordered(b) ? a : b;
    }
};
} // namespace math_fast

namespace math_precise {
struct max_op {
    template <class T> METALCPU_INLINE constexpr T operator()(T a, T b) const {
        if (minmax_detail::nan(a)) return b;
        if (minmax_detail::nan(b)) return a;
        return minmax_detail::ordered(a) > minmax_detail::ordered(b) ? a : b;
    }
};
struct min_op {
    template <class T> METALCPU_INLINE constexpr T operator()(T a, T b) const {
        if (minmax_detail::nan(a)) return b;
        if (minmax_detail::nan(b)) return a;
        return minmax_detail::ordered(a) < minmax_detail::ordered(b) ? a : b;
    }
};
} // namespace math_precise

// The functions, written once over the two operation sets.
#define METALCPU_MINMAX_FUNCTIONS                                                               \
    template <class X, class Y>                                                                 \
        requires number_args<X, Y>                                                              \
    METALCPU_INLINE constexpr number_result_t<X, Y> max(const X& x, const Y& y) {               \
        return apply<number_result_t<X, Y>>(max_op{}, x, y);                                    \
    }                                                                                           \
    template <class X, class Y>                                                                 \
        requires number_args<X, Y>                                                              \
    METALCPU_INLINE constexpr number_result_t<X, Y> min(const X& x, const Y& y) {               \
        return apply<number_result_t<X, Y>>(min_op{}, x, y);                                    \
    }                                                                                           \
    template <class X, class Y>                                                                 \
        requires float_args<X, Y>                                                               \
    METALCPU_INLINE constexpr float_result_t<X, Y> fmax(const X& x, const Y& y) {               \
        return apply<float_result_t<X, Y>>(max_op{}, x, y);                                     \
    }                                                                                           \
    template <class X, class Y>                                                                 \
        requires float_args<X, Y>                                                               \
    METALCPU_INLINE constexpr float_result_t<X, Y> fmin(const X& x, const Y& y) {               \
        return apply<float_result_t<X, Y>>(min_op{}, x, y);                                     \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires number_args<X, Y, Z>                                                           \
    METALCPU_INLINE constexpr number_result_t<X, Y, Z> max3(const X& x, const Y& y, const Z& z) { \
        return apply<number_result_t<X, Y, Z>>(                                                 \
            [](auto a, auto b, auto c) { return max_op{}(max_op{}(a, b), c); }, x, y, z);       \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires number_args<X, Y, Z>                                                           \
    METALCPU_INLINE constexpr number_result_t<X, Y, Z> min3(const X& x, const Y& y, const Z& z) { \
        return apply<number_result_t<X, Y, Z>>(                                                 \
            [](auto a, auto b, auto c) { return min_op{}(min_op{}(a, b), c); }, x, y, z);       \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires number_args<X, Y, Z>                                                           \
    METALCPU_INLINE constexpr number_result_t<X, Y, Z> median3(const X& x, const Y& y, const Z& z) { \
        return apply<number_result_t<X, Y, Z>>(                                                 \
            [](auto a, auto b, auto c) {                                                        \
                return max_op{}(min_op{}(a, b), min_op{}(max_op{}(a, b), c));                   \
            },                                                                                  \
            x, y, z);                                                                           \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires float_args<X, Y, Z>                                                            \
    METALCPU_INLINE constexpr float_result_t<X, Y, Z> fmax3(const X& x, const Y& y, const Z& z) { \
        return (max3)(as_result<float_result_t<X, Y, Z>>(x), y, z);                               \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires float_args<X, Y, Z>                                                            \
    METALCPU_INLINE constexpr float_result_t<X, Y, Z> fmin3(const X& x, const Y& y, const Z& z) { \
        return (min3)(as_result<float_result_t<X, Y, Z>>(x), y, z);                               \
    }                                                                                           \
    template <class X, class Y, class Z>                                                        \
        requires float_args<X, Y, Z>                                                            \
    METALCPU_INLINE constexpr float_result_t<X, Y, Z> fmedian3(const X& x, const Y& y, const Z& z) { \
        return (median3)(as_result<float_result_t<X, Y, Z>>(x), y, z);                            \
    }                                                                                           \
    /* clamp(x, lo, hi) = min(max(x, lo), hi); undefined in MSL when lo > hi. */               \
    template <class X, class Y, class Z>                                                        \
        requires number_args<X, Y, Z>                                                           \
    METALCPU_INLINE constexpr number_result_t<X, Y, Z> clamp(const X& x, const Y& lo, const Z& hi) { \
        return apply<number_result_t<X, Y, Z>>(                                                 \
            [](auto a, auto l, auto h) { return min_op{}(max_op{}(a, l), h); }, x, lo, hi);     \
    }

// Plain overloads of min and max for each scalar type, as Metal declares them: a call whose
// arguments have one type picks them over any template, so a user's own min(T, U) template
// brought in beside `using namespace metal` is not ambiguous with ours (PyTorch's
// IndexReduceOp). Calls mixing types still take the templates above.
#define METALCPU_MINMAX_SCALAR(T)                                                               \
    METALCPU_INLINE constexpr T max(T x, T y) { return max_op{}(x, y); }                        \
    METALCPU_INLINE constexpr T min(T x, T y) { return min_op{}(x, y); }
#define METALCPU_MINMAX_SCALARS                                                                 \
    METALCPU_MINMAX_SCALAR(char)                                                                \
    METALCPU_MINMAX_SCALAR(signed char)                                                         \
    METALCPU_MINMAX_SCALAR(unsigned char)                                                       \
    METALCPU_MINMAX_SCALAR(short)                                                               \
    METALCPU_MINMAX_SCALAR(unsigned short)                                                      \
    METALCPU_MINMAX_SCALAR(int)                                                                 \
    METALCPU_MINMAX_SCALAR(unsigned int)                                                        \
    METALCPU_MINMAX_SCALAR(long)                                                                \
    METALCPU_MINMAX_SCALAR(unsigned long)                                                       \
    METALCPU_MINMAX_SCALAR(half)                                                                \
    METALCPU_MINMAX_SCALAR(float)

namespace math_fast {
METALCPU_MINMAX_FUNCTIONS
METALCPU_MINMAX_SCALARS
}
namespace math_precise {
METALCPU_MINMAX_FUNCTIONS
METALCPU_MINMAX_SCALARS
}
#undef METALCPU_MINMAX_FUNCTIONS
#undef METALCPU_MINMAX_SCALARS
#undef METALCPU_MINMAX_SCALAR

// abs: |x| for integers and floats (abs of the most negative integer wraps to itself).
namespace math {
template <class X>
    requires number_args<X>
METALCPU_INLINE constexpr number_result_t<X> abs(const X& x) {
    return apply<number_result_t<X>>(
        [](auto v) {
            using T = decltype(v);
            if constexpr (is_msl_float<T>)
                return static_cast<T>(libm::abs(static_cast<float>(v)));
            else if constexpr (metal::is_signed_v<T>)
                return v < 0 ? static_cast<T>(0u - static_cast<metal::make_unsigned_t<T>>(v)) : v;
            else
                return v;
        },
        x);
}
} // namespace math

} // namespace metalcpu_stdlib

METALCPU_EXPORT_FAST_PRECISE(max)
METALCPU_EXPORT_FAST_PRECISE(min)
METALCPU_EXPORT_FAST_PRECISE(fmax)
METALCPU_EXPORT_FAST_PRECISE(fmin)
METALCPU_EXPORT_FAST_PRECISE(max3)
METALCPU_EXPORT_FAST_PRECISE(min3)
METALCPU_EXPORT_FAST_PRECISE(median3)
METALCPU_EXPORT_FAST_PRECISE(fmax3)
METALCPU_EXPORT_FAST_PRECISE(fmin3)
METALCPU_EXPORT_FAST_PRECISE(fmedian3)
METALCPU_EXPORT_FAST_PRECISE(clamp)
METALCPU_EXPORT_MATH(abs)
