// What the front end's rewrite of `/` and `%` relies on (docs/compiler.md, "Division"). In
// kernel code `a / b` becomes `a /__mc_div->*b` and `a /= b` becomes `a /=__mc_div=b`:
// `->*` binds tighter than `/` and takes the same operand (a cast-expression), and `=` is
// right-associative like `/=`, so the operand is unchanged and only its value passes through
// `__mc_div`. An integer divisor comes back as a checked_divisor, whose hidden-friend
// operators divide without trapping (metalcpu/stdlib/division.h); any other divisor (floating
// point, vectors, whose own operators never trap, user types) comes back as it was.
#pragma once

#include <metal_stdlib>

namespace metalcpu_kernel {

/// The integer types whose division can trap: after promotion, int and wider, __int128 too.
template <class T>
inline constexpr bool is_trapping_integer = metalcpu_stdlib::is_integral_scalar<T> || __is_same(metal::remove_cv_t<T>, __int128) ||
                                            __is_same(metal::remove_cv_t<T>, unsigned __int128);

template <class T>
inline constexpr bool is_integer_divisor = is_trapping_integer<T> || __is_enum(T);

/// Whether `a / b` (and so on) calls an operator of the program's, a member or a non-member
/// found by lookup, rather than a built-in one: that operator gets the divisor as it was.
/// (A class that only converts to an integer divides with the built-in operator.)
template <class L, class R>
concept user_division = requires(const L& a, R b) { a.operator/(b); } || requires(const L& a, R b) { operator/(a, b); };
template <class L, class R>
concept user_remainder = requires(const L& a, R b) { a.operator%(b); } || requires(const L& a, R b) { operator%(a, b); };
template <class L, class R>
concept user_division_assignment =
    requires(L& a, R b) { a.operator/=(b); } || requires(L& a, R b) { operator/=(a, b); };
template <class L, class R>
concept user_remainder_assignment =
    requires(L& a, R b) { a.operator%=(b); } || requires(L& a, R b) { operator%=(a, b); };

/// An integer divisor of kernel code. Converts back to T, so that a user type's own
/// `operator/(S, int)` still applies.
template <class T>
struct checked_divisor {
    T value;

    METALCPU_INLINE constexpr operator T() const { return value; }

    // a / d and a % d: the built-in operators' result type and value, except for the cases
    // that would trap. Anything that is not a built-in integer division (floats, vectors, a
    // user type's own operator, even one returning an integer) goes to the operator it would
    // have used.
    template <class L>
        requires requires(const L& a, T b) { a / b; }
    friend METALCPU_INLINE constexpr decltype(auto) operator/(const L& a, checked_divisor d) {
        using Q = decltype(a / d.value);
        if constexpr (!user_division<L, T> && is_trapping_integer<Q>)
            return metalcpu_stdlib::integer_quotient<Q>(static_cast<Q>(a), static_cast<Q>(d.value));
        else
            return a / d.value;
    }
    template <class L>
        requires requires(const L& a, T b) { a % b; }
    friend METALCPU_INLINE constexpr decltype(auto) operator%(const L& a, checked_divisor d) {
        using Q = decltype(a % d.value);
        if constexpr (!user_remainder<L, T> && is_trapping_integer<Q>)
            return metalcpu_stdlib::integer_remainder<Q>(static_cast<Q>(a), static_cast<Q>(d.value));
        else
            return a % d.value;
    }
    // a /= d and a %= d: `a = a / d` converted back to a's type, as the built-in operators do.
    template <class L>
        requires requires(L& a, T b) { a /= b; }
    friend METALCPU_INLINE constexpr decltype(auto) operator/=(L& a, checked_divisor d) {
        if constexpr (!user_division_assignment<L, T> && is_integer_divisor<metal::remove_cv_t<L>>) {
            a = static_cast<metal::remove_cv_t<L>>(a / d);
            return (a);
        } else {
            return a /= d.value;
        }
    }
    template <class L>
        requires requires(L& a, T b) { a %= b; }
    friend METALCPU_INLINE constexpr decltype(auto) operator%=(L& a, checked_divisor d) {
        if constexpr (!user_remainder_assignment<L, T> && is_integer_divisor<metal::remove_cv_t<L>>) {
            a = static_cast<metal::remove_cv_t<L>>(a % d);
            return (a);
        } else {
            return a %= d.value;
        }
    }
};

/// The object `__mc_div` names: passes a divisor through, integers as checked_divisor. Integers
/// are taken by value (a bit-field can be a divisor), everything else by forwarding reference.
struct divisor_tag {
    template <class R>
        requires is_integer_divisor<R>
    friend METALCPU_INLINE constexpr checked_divisor<R> operator->*(divisor_tag, R divisor) {
        return {divisor};
    }
    template <class R>
        requires(!is_integer_divisor<metal::remove_cvref_t<R>>)
    friend METALCPU_INLINE constexpr R&& operator->*(divisor_tag, R&& divisor) {
        return static_cast<R&&>(divisor);
    }

    template <class R>
        requires is_integer_divisor<R>
    METALCPU_INLINE constexpr checked_divisor<R> operator=(R divisor) const {
        return {divisor};
    }
    template <class R>
        requires(!is_integer_divisor<metal::remove_cvref_t<R>>)
    METALCPU_INLINE constexpr R&& operator=(R&& divisor) const {
        return static_cast<R&&>(divisor);
    }
};

} // namespace metalcpu_kernel

/// Named in the rewritten divisions of kernel code; user code cannot name it (reserved_names.h).
inline constexpr ::metalcpu_kernel::divisor_tag __mc_div{};
