// How the standard-library functions take their arguments.
//
// Every function of <metal_math>, <metal_common>, ... is one template over "scalar or
// vector-like" arguments rather than a set of overloads: templates are instantiated only when
// a kernel calls them (keeping compile times low), and they accept swizzles and packed vectors
// (`length(v.xy)`), which template argument deduction on vec<T, N> would reject.
//
// The arguments of one call combine into a result type, result_t<A...>:
//   - if any argument is a vector (or swizzle, or packed vector), all vector arguments must be
//     the same vec<T, N>; that is the result, and scalar arguments are converted to T
//     (`clamp(v, 0, 1)`, `mix(a, b, 0.5f)`);
//   - otherwise the scalars combine: a floating type wins over integers and over a double
//     literal (`max(x, 0)`, `min(x, 1.0)` stay float), half with float gives float, integers
//     follow C++'s usual arithmetic conversions (`min(uint, 32)` is uint).
// float_result_t additionally maps integer and double scalars to float, for functions that
// only exist for half and float (`sqrt(2)` is a float).
#pragma once

#include <metalcpu/stdlib/vec.h>

namespace metalcpu_stdlib {

template <class T>
inline constexpr bool is_msl_float = __is_same(T, float) || __is_same(T, half) || __is_same(T, bfloat);

// --- classification of one argument ------------------------------------------------------
template <class X, bool = metalcpu_stdlib::is_arithmetic_scalar<X>, bool = is_vector_like<X>> struct arg_info {
    static constexpr bool valid = false;
};
template <class X> struct arg_info<X, true, false> {
    static constexpr bool valid = true;
    static constexpr int n = 0;
    using elem = X;
    using type = X;
};
template <class X> struct arg_info<X, false, true> {
    static constexpr bool valid = true;
    static constexpr int n = metal::vec_elements<vector_of_t<X>>::value;
    using elem = metal::make_scalar_t<vector_of_t<X>>;
    using type = vector_of_t<X>;
};

// --- combination ---------------------------------------------------------------------------
template <class A, class B> constexpr auto scalar_common_helper() {
    if constexpr (__is_same(A, B))
        return A{};
    else if constexpr (is_msl_float<A> && is_msl_float<B>)
        return float{};
    else if constexpr (is_msl_float<A>)
        return A{};
    else if constexpr (is_msl_float<B>)
        return B{};
    else if constexpr (metalcpu_stdlib::is_floating_scalar<A> || metalcpu_stdlib::is_floating_scalar<B>)
        return float{};
    else
        return decltype(A{} + B{}){};
}
template <class A, class B> using scalar_common_t = decltype(scalar_common_helper<A, B>());

struct invalid_args {};
struct no_args {};

// A running combination: N components (0 = scalar) of element type E, or invalid.
template <int N, class E> struct combo {
    static constexpr int n = N;
    using elem = E;
};

template <class C, class X> constexpr auto combine_one() {
    using I = arg_info<metal::remove_cvref_t<X>>;
    if constexpr (__is_same(C, invalid_args) || !I::valid) {
        return invalid_args{};
    } else if constexpr (__is_same(C, no_args)) {
        return combo<I::n, typename I::elem>{};
    } else if constexpr (C::n == 0 && I::n == 0) {
        return combo<0, scalar_common_t<typename C::elem, typename I::elem>>{};
    } else if constexpr (C::n == 0) {
        return combo<I::n, typename I::elem>{};
    } else if constexpr (I::n == 0) {
        return C{};
    } else if constexpr (C::n == I::n && __is_same(typename C::elem, typename I::elem)) {
        return C{};
    } else {
        return invalid_args{}; // two different vector types
    }
}

template <class C, class... X> struct combine_all { using type = C; };
template <class C, class X, class... R> struct combine_all<C, X, R...> {
    using type = typename combine_all<decltype(combine_one<C, X>()), R...>::type;
};

template <class C> struct combo_type { using type = void; };
template <class E> struct combo_type<combo<0, E>> { using type = E; };
template <int N, class E> struct combo_type<combo<N, E>> { using type = metal::vec<E, N>; };

template <class... X> using result_t = typename combo_type<typename combine_all<no_args, X...>::type>::type;

// The result for functions defined on half and float only; void if not allowed.
template <class R> constexpr auto float_result_helper() {
    if constexpr (metal::is_vector_v<R>) {
        if constexpr (is_msl_float<metal::make_scalar_t<R>>)
            return R{};
        else
            return;
    } else if constexpr (__is_same(R, void)) {
        return;
    } else if constexpr (is_msl_float<R>) {
        return R{};
    } else if constexpr (metalcpu_stdlib::is_arithmetic_scalar<R> && !__is_same(R, bool)) {
        return float{};
    }
}
template <class... X> using float_result_t = decltype(float_result_helper<result_t<X...>>());

// The result for integer functions; void if not allowed.
template <class R> constexpr auto int_result_helper() {
    if constexpr (!__is_same(R, void) && !__is_same(R, bool) && metalcpu_stdlib::is_integral_scalar<metal::make_scalar_t<R>>)
        return R{};
}
template <class... X> using int_result_t = decltype(int_result_helper<result_t<X...>>());

// The result for functions defined on every scalar type except bool (min, max, clamp, abs):
// a double scalar (from a literal) becomes float.
template <class R> constexpr auto number_result_helper() {
    if constexpr (__is_same(R, double) || __is_same(R, long double))
        return float{};
    else if constexpr (!__is_same(R, void) && !__is_same(metal::make_scalar_t<R>, bool))
        return R{};
}
template <class... X> using number_result_t = decltype(number_result_helper<result_t<X...>>());

template <class... X> concept float_args = !__is_same(float_result_t<X...>, void);
template <class... X> concept int_args = !__is_same(int_result_t<X...>, void);
template <class... X> concept number_args = !__is_same(number_result_t<X...>, void);

// --- evaluation ----------------------------------------------------------------------------
// An argument converted to the result type R (scalars broadcast for vector results).
template <class R, class X> METALCPU_INLINE constexpr R as_result(const X& x) {
    if constexpr (metal::is_vector_v<R> && metalcpu_stdlib::is_arithmetic_scalar<X>)
        return R(static_cast<metal::make_scalar_t<R>>(x));
    else if constexpr (metal::is_vector_v<R>)
        return x;
    else
        return static_cast<R>(x);
}

// f applied to each component of the arguments (already converted to R); f's result is
// converted to the component type, so float helpers return half results rounded to half.
template <class R, class F, class... A> METALCPU_INLINE constexpr R map(F f, const A&... a) {
    using E = metal::make_scalar_t<R>;
    if constexpr (metal::is_vector_v<R>) {
        R r(E(0));
        #pragma GCC unroll 4
        for (int i = 0; i < metal::vec_elements<R>::value; ++i) r[i] = static_cast<E>(f(a[i]...));
        return r;
    } else {
        return static_cast<E>(f(a...));
    }
}

// map() after converting every argument to R.
template <class R, class F, class... X> METALCPU_INLINE constexpr R apply(F f, const X&... x) {
    return map<R>(f, as_result<R>(x)...);
}

// The same shape as R with element type E (bool for predicates, int for ilogb).
template <class R, class E> struct with_elem { using type = E; };
template <class T, int N, class E> struct with_elem<metal::vec<T, N>, E> { using type = metal::vec<E, N>; };
template <class R, class E> using with_elem_t = typename with_elem<R, E>::type;

// Bits of a half, bfloat or float.
METALCPU_INLINE constexpr uint float_bits(float x) { return __builtin_bit_cast(uint, x); }
METALCPU_INLINE constexpr ushort float_bits(half x) { return __builtin_bit_cast(ushort, x); }
METALCPU_INLINE constexpr ushort float_bits(bfloat x) { return x.metalcpu_bits; }
// The exponent field of T's bits (half, bfloat or float), all ones: infinities and NaNs.
template <class T> inline constexpr uint exponent_mask = __is_same(T, half) ? 0x7c00u : __is_same(T, bfloat) ? 0x7f80u : 0x7f800000u;

// Classification on the bits: correct also under -ffast-math, where GCC folds isnan() and
// isinf() to false. T is half, bfloat or float; anything else is never NaN or infinite.
template <class T> METALCPU_INLINE constexpr bool is_nan(T x) {
    if constexpr (is_msl_float<T>)
        return (float_bits(x) & (exponent_mask<T> | (exponent_mask<T> - 1))) > exponent_mask<T>;
    else
        return false;
}
template <class T> METALCPU_INLINE constexpr bool is_inf(T x) {
    if constexpr (is_msl_float<T>)
        return (float_bits(x) & (exponent_mask<T> | (exponent_mask<T> - 1))) == exponent_mask<T>;
    else
        return false;
}

} // namespace metalcpu_stdlib
