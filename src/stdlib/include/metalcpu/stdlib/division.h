// Integer division and remainder that never trap. On Apple GPUs an integer division by zero,
// and the most negative value of a signed type divided by -1, give unspecified values without
// stopping anything; on x86-64 both raise SIGFPE, which would kill the process that runs the
// kernel. metalcpu answers as AArch64 does:
//
//     x / 0 == 0        x % 0 == x        MIN / -1 == MIN        MIN % -1 == 0
//
// (MIN: INT_MIN for int, LONG_MIN for long, and __int128's; smaller types are promoted to int
// first, where no division overflows). The vectors' `/` and `%` use these for integer elements, and the
// front end routes the scalar divisions of kernel code here (metalcpu/division.h). Floating-
// point division is left alone. Everything is constexpr, so `array<float, N / 2>` keeps
// working, and branch-free: the divisor is replaced by 1 in the special cases and the answer
// chosen afterwards, so a division by a constant costs what it did.
#pragma once

#include <metalcpu/stdlib/traits.h>

namespace metalcpu_stdlib {

/// The unsigned type of the same width as T, in which a negation wraps (__int128 included).
template <class T>
struct wrapping_unsigned : metal::make_unsigned<T> {};
template <>
struct wrapping_unsigned<__int128> {
    using type = unsigned __int128;
};

/// a / b for operands already converted to their common type T (int or wider).
template <class T>
METALCPU_INLINE constexpr T integer_quotient(T a, T b) {
    if constexpr (T(-1) < T(0)) {
        using U = typename wrapping_unsigned<T>::type;
        const bool special = b == T(0) || b == T(-1);
        const T q = a / (special ? T(1) : b);
        // MIN / -1 wraps to MIN, like every other negation of MIN.
        return b == T(0) ? T(0) : b == T(-1) ? static_cast<T>(U(0) - static_cast<U>(a)) : q;
    } else {
        const T q = a / (b == T(0) ? T(1) : b);
        return b == T(0) ? T(0) : q;
    }
}

/// a % b for operands already converted to their common type T (int or wider).
template <class T>
METALCPU_INLINE constexpr T integer_remainder(T a, T b) {
    // x % 1 == 0 is also the answer for b == -1.
    const bool special = b == T(0) || (T(-1) < T(0) && b == T(-1));
    const T r = a % (special ? T(1) : b);
    return b == T(0) ? a : r;
}

/// One element of a vector division: integers through integer_quotient() in their promoted
/// type (as `a /= b` computes), floating point as it is.
template <class T>
METALCPU_INLINE constexpr T element_quotient(T a, T b) {
    if constexpr (metalcpu_stdlib::is_integral_scalar<T>) {
        using Q = decltype(a / b);
        return static_cast<T>(integer_quotient<Q>(a, b));
    } else {
        return a / b;
    }
}

template <class T>
METALCPU_INLINE constexpr T element_remainder(T a, T b) {
    using Q = decltype(a % b);
    return static_cast<T>(integer_remainder<Q>(a, b));
}

} // namespace metalcpu_stdlib
