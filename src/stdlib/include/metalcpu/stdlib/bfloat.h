// MSL's bfloat (brain float: 1 sign, 8 exponent, 7 fraction bits), a class over its 16 bits,
// because GCC 12 has no arithmetic bfloat type. Part of <metal_types>, via scalar.h.
//
// What MSL says (Metal 3.1, "bfloat is an extended floating-point type that only allows
// implicit conversion to a type of greater floating-point rank"), and how it is done here:
//   - bfloat converts implicitly to float (exactly); float, half and double convert to bfloat
//     only explicitly (`bfloat(x)`, `static_cast<bfloat>(x)`), rounding to nearest even, with
//     NaN kept NaN (quieted, sign and top payload bits kept). Integers convert implicitly,
//     as to any floating type (`T acc = 0;`, `return (x > T(0)) - (x < T(0));`), rounded once.
//   - bfloat op bfloat and bfloat op integer compute in float and round the result to bfloat,
//     as the GPU does (it has no bfloat ALU); bfloat op float is float (the built-in operator,
//     through the conversion). Mixing bfloat and half is ill-formed, as in MSL (neither rank
//     is greater): those operators are deleted.
//   - Comparisons are float comparisons, by operators of its own for every operand type, so
//     that they match exactly.
//   - bfloat converts implicitly to float, double, bool and the integer types but int; to
//     int and half only explicitly (`int(b)`, `half(b)`). `half h = b;` is an error as in MSL;
//     `uint u = b;` converts as in MSL (MSL's rule restricts conversions between floating
//     types only); `int i = b;` is an error here, so that `c ? b : 0` stays a bfloat (with
//     conversions each way between a class and int it would be ambiguous). bool converts to
//     bfloat explicitly (`bfloat(true)`), so `c ? b : flag` is well-formed too (a bool here, a
//     bfloat in MSL: the same truth either way).
#pragma once

#include <metalcpu/stdlib/config.h>

namespace metalcpu_stdlib::bfloat_detail {

template <class T> inline constexpr bool is_integer = false;
template <> inline constexpr bool is_integer<char> = true;
template <> inline constexpr bool is_integer<signed char> = true;
template <> inline constexpr bool is_integer<unsigned char> = true;
template <> inline constexpr bool is_integer<short> = true;
template <> inline constexpr bool is_integer<unsigned short> = true;
template <> inline constexpr bool is_integer<int> = true;
template <> inline constexpr bool is_integer<unsigned int> = true;
template <> inline constexpr bool is_integer<long> = true;
template <> inline constexpr bool is_integer<unsigned long> = true;
template <> inline constexpr bool is_integer<long long> = true;
template <> inline constexpr bool is_integer<unsigned long long> = true;
template <class T>
inline constexpr bool is_float = __is_same(T, float) || __is_same(T, double) || __is_same(T, _Float16);

// The bits of the bfloat nearest to f (ties to even); a NaN stays a quiet NaN.
METALCPU_INLINE constexpr unsigned short bits_from_float(float f) {
    const unsigned int b = __builtin_bit_cast(unsigned int, f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((b >> 16) | 0x40u);
    return static_cast<unsigned short>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

// double -> bfloat rounded once: round to float "to odd" (truncate, and set the last bit if
// anything was dropped), then to bfloat; the odd bit keeps the second rounding from
// mistaking a value near a tie for a tie. Only double literals (`bfloat(0.1)`) come here.
METALCPU_INLINE constexpr unsigned short bits_from_double(double d) {
    const float f = static_cast<float>(d);
    unsigned int b = __builtin_bit_cast(unsigned int, f);
    const bool finite = (b & 0x7f800000u) != 0x7f800000u || (b & 0x7fffffffu) == 0x7f800000u;
    const double back = f;
    if (finite && __builtin_bit_cast(unsigned long, back) != __builtin_bit_cast(unsigned long, d)) {
        const bool away_from_zero = (back < 0 ? -back : back) > (d < 0 ? -d : d);
        if (away_from_zero) --b;
        b |= 1u;
    }
    return bits_from_float(__builtin_bit_cast(float, b));
}

// An integer of magnitude m rounded once to bfloat (8 significant bits, ties to even).
METALCPU_INLINE constexpr unsigned short bits_from_integer(bool negative, unsigned long m) {
    if (m == 0) return 0;
    int lead = 63 - __builtin_clzl(m);
    if (lead > 7) {
        const int shift = lead - 7;
        const unsigned long dropped = m & ((1ul << shift) - 1);
        const unsigned long tie = 1ul << (shift - 1);
        m >>= shift;
        if (dropped > tie || (dropped == tie && (m & 1))) {
            if (++m == 256) {
                m = 128;
                ++lead;
            }
        }
    } else {
        m <<= 7 - lead;
    }
    const unsigned int bits = (static_cast<unsigned int>(lead + 127) << 7) | (m & 0x7f);
    return static_cast<unsigned short>(bits | (negative ? 0x8000u : 0u));
}

template <class T> METALCPU_INLINE constexpr unsigned short bits_from(T x) {
    if constexpr (__is_same(T, bool)) {
        return x ? 0x3f80 : 0;
    } else if constexpr (is_integer<T>) {
        if constexpr (T(-1) < T(0))
            return bits_from_integer(x < 0, x < 0 ? 0ul - static_cast<unsigned long>(x) : static_cast<unsigned long>(x));
        else
            return bits_from_integer(false, x);
    } else if constexpr (__is_same(T, double)) {
        return bits_from_double(x);
    } else {
        return bits_from_float(static_cast<float>(x)); // float, or half (exact in float)
    }
}

struct from_bits_tag {};

} // namespace metalcpu_stdlib::bfloat_detail

struct bfloat {
    // The bits, as as_type<ushort>(b) sees them; named so that no kernel's name clashes.
    unsigned short metalcpu_bits;

    bfloat() = default;
    // Integers convert implicitly, floating types explicitly (see above).
    template <class I>
        requires metalcpu_stdlib::bfloat_detail::is_integer<I>
    METALCPU_INLINE constexpr bfloat(I x) : metalcpu_bits(metalcpu_stdlib::bfloat_detail::bits_from(x)) {}
    // bool explicitly: bfloat converts implicitly to bool, and a conversion each way would make
    // `c ? b : flag` ambiguous (MSL makes it a bfloat; here it is a bool of the same truth).
    template <class B>
        requires __is_same(B, bool)
    METALCPU_INLINE constexpr explicit bfloat(B x) : metalcpu_bits(metalcpu_stdlib::bfloat_detail::bits_from(x)) {}
    template <class F>
        requires metalcpu_stdlib::bfloat_detail::is_float<F>
    METALCPU_INLINE constexpr explicit bfloat(F x) : metalcpu_bits(metalcpu_stdlib::bfloat_detail::bits_from(x)) {}
    METALCPU_INLINE constexpr bfloat(metalcpu_stdlib::bfloat_detail::from_bits_tag, unsigned short bits)
        : metalcpu_bits(bits) {}

    // A class that converts to an arithmetic type (MLX's masks convert to bool) converts
    // explicitly, through that type, as it would to a built-in floating type.
    template <class C>
        requires(__is_class(C) && !__is_same(C, bfloat) && requires(const C& c) { static_cast<float>(c); })
    METALCPU_INLINE constexpr explicit bfloat(const C& x) : bfloat(static_cast<float>(x)) {}

    // Implicitly to a type of greater floating-point rank (float, double): a template, so that
    // no integer can be reached through float. That keeps `c ? b : 0` well-formed (the integer
    // converts to bfloat, not the other way), as in MSL. int and half are explicit (below).
    template <class F>
        requires(__is_same(F, float) || __is_same(F, double))
    METALCPU_INLINE constexpr operator F() const {
        return static_cast<F>(__builtin_bit_cast(float, static_cast<unsigned int>(metalcpu_bits) << 16));
    }
    // Implicitly to every integer type but int, as a floating type converts (MLX's arg-sort
    // stores a bfloat into a uint32_t). int is the exception because it is the type of an
    // integer literal: were bfloat to convert to int and int to bfloat, `c ? b : 0` would be
    // ambiguous (a class cannot be ranked as a built-in floating type is), and that form is
    // common in library templates (ggml's mul_mm, MLX's loads with T = bfloat).
    template <class T>
        requires(metalcpu_stdlib::bfloat_detail::is_integer<T> && !__is_same(T, int))
    METALCPU_INLINE constexpr operator T() const {
        return static_cast<T>(static_cast<float>(*this));
    }
    template <class T>
        requires(__is_same(T, int) || __is_same(T, _Float16))
    METALCPU_INLINE constexpr explicit operator T() const {
        return static_cast<T>(static_cast<float>(*this));
    }
    // To bool implicitly (`bool any = b;`), but through a template that only bool deduces, so
    // that no integer is reachable through it either.
    template <class B>
        requires __is_same(B, bool)
    METALCPU_INLINE constexpr operator B() const { return (metalcpu_bits & 0x7fffu) != 0; }

    friend METALCPU_INLINE constexpr bfloat operator+(bfloat a) { return a; }
    friend METALCPU_INLINE constexpr bfloat operator-(bfloat a) {
        return bfloat(metalcpu_stdlib::bfloat_detail::from_bits_tag{}, static_cast<unsigned short>(a.metalcpu_bits ^ 0x8000u));
    }

// bfloat op bfloat and bfloat op integer: in float, rounded to bfloat. bfloat op half: deleted.
#define METALCPU_BFLOAT_ARITHMETIC(op)                                                              \
    friend METALCPU_INLINE constexpr bfloat operator op(bfloat a, bfloat b) {                       \
        return bfloat(float(a) op float(b));                                                        \
    }                                                                                               \
    template <class I>                                                                              \
        requires metalcpu_stdlib::bfloat_detail::is_integer<I>                                      \
    friend METALCPU_INLINE constexpr bfloat operator op(bfloat a, I b) {                            \
        return a op bfloat(b);                                                                      \
    }                                                                                               \
    template <class I>                                                                              \
        requires metalcpu_stdlib::bfloat_detail::is_integer<I>                                      \
    friend METALCPU_INLINE constexpr bfloat operator op(I a, bfloat b) {                            \
        return bfloat(a) op b;                                                                      \
    }                                                                                               \
    template <class H>                                                                              \
        requires __is_same(H, _Float16)                                                             \
    friend bfloat operator op(bfloat, H) = delete;                                                  \
    template <class H>                                                                              \
        requires __is_same(H, _Float16)                                                             \
    friend bfloat operator op(H, bfloat) = delete;                                                  \
    template <class T>                                                                              \
    METALCPU_INLINE constexpr bfloat& operator op##=(const T& b) {                                  \
        return *this = bfloat(*this op b);                                                          \
    }
    METALCPU_BFLOAT_ARITHMETIC(+)
    METALCPU_BFLOAT_ARITHMETIC(-)
    METALCPU_BFLOAT_ARITHMETIC(*)
    METALCPU_BFLOAT_ARITHMETIC(/)
#undef METALCPU_BFLOAT_ARITHMETIC

// bfloat op float/double is float/double, as the built-in operator after the implicit
// conversion would be (g++ forms no built-in candidates from a conversion template).
#define METALCPU_BFLOAT_MIXED(op, result)                                                           \
    template <class F>                                                                              \
        requires(__is_same(F, float) || __is_same(F, double))                                       \
    friend METALCPU_INLINE constexpr result operator op(bfloat a, F b) {                            \
        return static_cast<F>(a) op b;                                                              \
    }                                                                                               \
    template <class F>                                                                              \
        requires(__is_same(F, float) || __is_same(F, double))                                       \
    friend METALCPU_INLINE constexpr result operator op(F a, bfloat b) {                            \
        return a op static_cast<F>(b);                                                              \
    }
    // `float acc; acc += b;`: the built-in compound assignment is not formed from a
    // conversion template either.
#define METALCPU_BFLOAT_MIXED_COMPOUND(op)                                                          \
    template <class F>                                                                              \
        requires(__is_same(F, float) || __is_same(F, double))                                       \
    friend METALCPU_INLINE constexpr F& operator op##=(F& a, bfloat b) {                            \
        return a op## = static_cast<F>(b);                                                          \
    }
    METALCPU_BFLOAT_MIXED_COMPOUND(+)
    METALCPU_BFLOAT_MIXED_COMPOUND(-)
    METALCPU_BFLOAT_MIXED_COMPOUND(*)
    METALCPU_BFLOAT_MIXED_COMPOUND(/)
#undef METALCPU_BFLOAT_MIXED_COMPOUND
    METALCPU_BFLOAT_MIXED(+, F)
    METALCPU_BFLOAT_MIXED(-, F)
    METALCPU_BFLOAT_MIXED(*, F)
    METALCPU_BFLOAT_MIXED(/, F)
    METALCPU_BFLOAT_MIXED(==, bool)
    METALCPU_BFLOAT_MIXED(!=, bool)
    METALCPU_BFLOAT_MIXED(<, bool)
    METALCPU_BFLOAT_MIXED(<=, bool)
    METALCPU_BFLOAT_MIXED(>, bool)
    METALCPU_BFLOAT_MIXED(>=, bool)
#undef METALCPU_BFLOAT_MIXED

// bfloat op bfloat and bfloat op integer compare as floats. They are written out, not left to
// the built-in operators through the conversion to float, so that they match exactly, as a
// built-in type's operators do: a library type constructible from anything convertible to
// float (MLX's complex64_t) with its own operator< must not make `b < b` ambiguous.
#define METALCPU_BFLOAT_COMPARE(op)                                                                 \
    friend METALCPU_INLINE constexpr bool operator op(bfloat a, bfloat b) { return float(a) op float(b); } \
    template <class I>                                                                              \
        requires metalcpu_stdlib::bfloat_detail::is_integer<I>                                      \
    friend METALCPU_INLINE constexpr bool operator op(bfloat a, I b) {                              \
        return float(a) op float(bfloat(b));                                                        \
    }                                                                                               \
    template <class I>                                                                              \
        requires metalcpu_stdlib::bfloat_detail::is_integer<I>                                      \
    friend METALCPU_INLINE constexpr bool operator op(I a, bfloat b) {                              \
        return float(bfloat(a)) op float(b);                                                        \
    }
    METALCPU_BFLOAT_COMPARE(==)
    METALCPU_BFLOAT_COMPARE(!=)
    METALCPU_BFLOAT_COMPARE(<)
    METALCPU_BFLOAT_COMPARE(<=)
    METALCPU_BFLOAT_COMPARE(>)
    METALCPU_BFLOAT_COMPARE(>=)
#undef METALCPU_BFLOAT_COMPARE

// (Templates: a deleted non-template taking half would compete with the built-in operators
// on float, through conversions, and make `b < b` ambiguous.)
#define METALCPU_BFLOAT_NO_HALF_COMPARE(op)                                                         \
    template <class H>                                                                              \
        requires __is_same(H, _Float16)                                                             \
    friend bool operator op(bfloat, H) = delete;                                                    \
    template <class H>                                                                              \
        requires __is_same(H, _Float16)                                                             \
    friend bool operator op(H, bfloat) = delete;
    METALCPU_BFLOAT_NO_HALF_COMPARE(==)
    METALCPU_BFLOAT_NO_HALF_COMPARE(!=)
    METALCPU_BFLOAT_NO_HALF_COMPARE(<)
    METALCPU_BFLOAT_NO_HALF_COMPARE(<=)
    METALCPU_BFLOAT_NO_HALF_COMPARE(>)
    METALCPU_BFLOAT_NO_HALF_COMPARE(>=)
#undef METALCPU_BFLOAT_NO_HALF_COMPARE

    METALCPU_INLINE constexpr bfloat& operator++() { return *this += 1; }
    METALCPU_INLINE constexpr bfloat& operator--() { return *this -= 1; }
    METALCPU_INLINE constexpr bfloat operator++(int) {
        const bfloat old = *this;
        *this += 1;
        return old;
    }
    METALCPU_INLINE constexpr bfloat operator--(int) {
        const bfloat old = *this;
        *this -= 1;
        return old;
    }
};

static_assert(sizeof(bfloat) == 2 && alignof(bfloat) == 2 && __is_trivially_copyable(bfloat) && __is_trivial(bfloat),
              "bfloat must lay out as MSL's 16-bit bfloat");

// MSL's spelling check for code that also builds without bfloat (MLX, llama.cpp).
#ifndef __HAVE_BFLOAT__
#define __HAVE_BFLOAT__ 1
#endif
