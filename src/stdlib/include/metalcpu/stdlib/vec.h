// metal::vec<T, N> (N = 2, 3, 4), its swizzles, the packed vectors and the type aliases
// (float4, packed_float3, ...). Part of <metal_types>.
//
// Layout is Metal's: vec<T, 3> and vec<T, 4> have the size and alignment of 4 * sizeof(T),
// vec<T, 2> of 2 * sizeof(T); packed_vec<T, N> is N * sizeof(T) bytes aligned like T.
// Vectors are trivially default-constructible (uninitialised, like scalars) and trivially
// copyable, so that unions and structs holding them copy; `float4 v = 0` and `float4(1)`
// broadcast.
//
// Operators are hidden friends taking vectors, so a scalar (converted to the element type, as
// MSL does: `v * 2`, `1 - v`), a swizzle or a packed vector on either side converts implicitly.
#pragma once

#include <metalcpu/stdlib/division.h>
#include <metalcpu/stdlib/traits.h>

namespace metal {
template <class T, int N> struct vec;
} // namespace metal

namespace metalcpu_stdlib {

// Constructor tags of vec_storage / packed_storage.
struct broadcast_tag {};
struct elements_tag {};
template <class T, int N> struct element_array { T v[N]; };

template <class T, int N> struct vec_storage;
template <class T, int N> struct packed_storage;

// One swizzle of a vector of N elements of type T, e.g. swizzle<vec<float, 2>, float, 4, 2, 0>
// is `.zx` of a float4 (V is the vector it reads as; being a template argument, it makes
// argument-dependent lookup find V's operators for `v.xy + w.zw`). It holds the whole element
// array, overlaying the vector in its union, and reads as a V. A swizzle with distinct
// components can be assigned to; one with repeated components (.xx) is a readonly_swizzle.
//
// Assigning a swizzle must write only its own components. Its copy assignment is nevertheless
// trivial (a copy of the whole array), because a union holding a class with a non-trivial one
// cannot be copied: with it, vectors were not trivially copyable and MSL's unions of vectors
// (llama.cpp's blocks: `union { struct { half d, m; }; half2 dm; }`) had a deleted operator=.
// So that it never copies the whole array where a swizzle is assigned:
// - it is private: only the vectors' storage, whose union needs it, uses it;
// - a swizzle of the same type that is no const lvalue (`v.xy = w.xy`, `v.xy = f().xy`) is
//   taken by the template below, a better match, and written component by component;
// - from a const lvalue (`v.xy = c.xy`, c a `const float4`) the private one would be the best
//   match, and is an error: kernel code never gets there, because the front end writes every
//   swizzle assignment `v.xy->*__mc_swz = c.xy` (swizzle_target below; compiler/passes/
//   swizzle_assignments.h), and C++ that is not translated writes `v.xy = float2(c.xy)`.
template <class V, class T, int N, int... I> struct swizzle {
    using vector_type = V;
    static constexpr bool assignable = true;
    T elems[N];

    swizzle() = default;
    swizzle(const swizzle&) = default;

    METALCPU_INLINE constexpr operator V() const { return V(elements_tag{}, elems[I]...); }

    METALCPU_INLINE constexpr swizzle& operator=(const V& value) {
        const V source = value; // `v.wzyx = v` reads all of v before writing any of it
        int k = 0;
        ((elems[I] = source.elems[k++]), ...);
        return *this;
    }
    template <class S>
        requires(__is_same(metal::remove_cvref_t<S>, swizzle))
    METALCPU_INLINE constexpr swizzle& operator=(S&& other) {
        return *this = V(other);
    }

private:
    swizzle& operator=(const swizzle&) = default;
    template <class, int> friend struct vec_storage;
    template <class, int> friend struct packed_storage;
};

template <class V, class T, int N, int... I> struct readonly_swizzle {
    using vector_type = V;
    static constexpr bool assignable = false;
    T elems[N];

    readonly_swizzle() = default;
    readonly_swizzle(const readonly_swizzle&) = default;

    METALCPU_INLINE constexpr operator V() const { return V(elements_tag{}, elems[I]...); }

private:
    // Trivial for the union, as swizzle's; private, so that `v.xx = w.xx` stays an error.
    readonly_swizzle& operator=(const readonly_swizzle&) = default;
    template <class, int> friend struct vec_storage;
    template <class, int> friend struct packed_storage;
};

template <class T, int N, class V = metal::vec<T, N>> struct packed_vec;

// vector_of<X>::type: the metal::vec that a vector-like X (vector, swizzle, packed vector)
// stands for; void for anything else.
template <class X> struct vector_of { using type = void; };
template <class T, int N> struct vector_of<metal::vec<T, N>> { using type = metal::vec<T, N>; };
template <class V, class T, int N, int... I> struct vector_of<swizzle<V, T, N, I...>> { using type = V; };
template <class V, class T, int N, int... I> struct vector_of<readonly_swizzle<V, T, N, I...>> { using type = V; };
template <class T, int N, class V> struct vector_of<packed_vec<T, N, V>> { using type = V; };
template <class X> using vector_of_t = typename vector_of<metal::remove_cvref_t<X>>::type;
template <class X> inline constexpr bool is_vector_like = !__is_same(vector_of_t<X>, void);
template <class X> inline constexpr bool is_proxy = is_vector_like<X> && !metal::is_vector_v<metal::remove_cvref_t<X>>;
template <class X> struct is_swizzle_type : metal::false_type {};
template <class V, class T, int N, int... I> struct is_swizzle_type<swizzle<V, T, N, I...>> : metal::true_type {};
template <class V, class T, int N, int... I>
struct is_swizzle_type<readonly_swizzle<V, T, N, I...>> : metal::true_type {};
template <class X> inline constexpr bool is_swizzle = is_swizzle_type<metal::remove_cvref_t<X>>::value;

// Number of components an argument contributes to a vector constructor.
template <class X> constexpr int component_count() {
    if constexpr (metalcpu_stdlib::is_arithmetic_scalar<X>)
        return 1;
    else if constexpr (is_vector_like<X>)
        return metal::vec_elements<vector_of_t<X>>::value;
    else
        return -1000; // not a scalar, not a vector: never adds up to N
}

template <class T, int N, class A>
METALCPU_INLINE constexpr void put_components(element_array<T, N>& out, int& k, const A& a) {
    if constexpr (metalcpu_stdlib::is_arithmetic_scalar<A>) {
        out.v[k++] = static_cast<T>(a);
    } else {
        const vector_of_t<A> v = a;
        #pragma GCC unroll 4
        for (int i = 0; i < metal::vec_elements<vector_of_t<A>>::value; ++i) out.v[k++] = static_cast<T>(v.elems[i]);
    }
}

template <class T, int N, class... A> METALCPU_INLINE constexpr element_array<T, N> compose(const A&... a) {
    element_array<T, N> out{};
    int k = 0;
    (put_components(out, k, a), ...);
    return out;
}

} // namespace metalcpu_stdlib

#include <metalcpu/stdlib/vec_storage.h>

namespace metal {

template <class T, int N> struct is_vector<vec<T, N>> : true_type {};
template <class T, int N> struct vec_elements<vec<T, N>> : integral_constant<int, N> {};
template <class T, int N> struct make_scalar<vec<T, N>> { using type = T; };
template <class T, int N> struct make_unsigned<vec<T, N>> { using type = vec<make_unsigned_t<T>, N>; };
template <class T, int N> struct make_signed<vec<T, N>> { using type = vec<make_signed_t<T>, N>; };

template <class T, int N> struct vec : metalcpu_stdlib::vec_storage<T, N> {
    static_assert(N >= 2 && N <= 4, "metal::vec has 2, 3 or 4 components");
    static_assert(metalcpu_stdlib::is_arithmetic_scalar<T>, "metal::vec elements are scalars");

private:
    using storage = metalcpu_stdlib::vec_storage<T, N>;
    static constexpr bool is_bool = __is_same(T, bool);
    static constexpr bool is_int = metalcpu_stdlib::is_integral_scalar<T> && !is_bool;

public:
    using value_type = T;

    vec() = default;
    // Broadcast: float4(1), `float4 v = 0`, and the scalar side of `v * 2`.
    METALCPU_INLINE constexpr vec(T s) : storage(metalcpu_stdlib::broadcast_tag{}, s) {}
    // bfloat is a class: an integer reaches it through a user-defined conversion, and the
    // broadcast above would need a second one (`b4 * 2`). Integers are implicit for bfloat.
    template <class I>
        requires(__is_same(T, bfloat) && metalcpu_stdlib::bfloat_detail::is_integer<I>)
    METALCPU_INLINE constexpr vec(I s) : vec(T(s)) {}
    // Likewise a bfloat scalar with a float vector (`scale * float4(...)`): bfloat widens to
    // float implicitly, and the broadcast would be a second user-defined conversion.
    template <class B>
        requires(__is_same(B, bfloat) && (__is_same(T, float) || __is_same(T, double)))
    METALCPU_INLINE constexpr vec(B s) : vec(static_cast<T>(s)) {}
    // Composition from scalars and vectors whose components add up to N:
    // float4(x, y, z, w), float4(v.xy, 0, 1), float4(f3, 1), `uint2 v = {a, b}`.
    template <class... A>
        requires(sizeof...(A) >= 2 && (metalcpu_stdlib::component_count<A>() + ...) == N)
    METALCPU_INLINE constexpr vec(const A&... a) : storage(metalcpu_stdlib::compose<T, N>(a...)) {}
    // Brace initialisation with fewer scalars than components zero-fills the rest, as an
    // aggregate's does and Clang's vectors do (MLX's `uint4 ks = {a, b, c};`). One scalar is
    // the broadcast above, as in MSL.
    template <class... A>
        requires(sizeof...(A) >= 2 && sizeof...(A) < N && ((metalcpu_stdlib::component_count<A>() == 1) && ...))
    METALCPU_INLINE constexpr vec(const A&... a) : vec(a..., T(0)) {}
    // Element-type conversion is explicit, as in MSL: float4(int4), static_cast<half4>(f4).
    template <class U>
        requires(!__is_same(U, T))
    METALCPU_INLINE constexpr explicit vec(const vec<U, N>& o) : storage(convert(o)) {}
    // ... also from a packed vector or a swizzle of another element type: float4(packed_char4),
    // float2(i4.xy) (deduction on vec<U, N> does not see through their conversion).
    template <class P>
        requires(metalcpu_stdlib::is_proxy<P> && vec_elements<metalcpu_stdlib::vector_of_t<P>>::value == N &&
                 !__is_same(make_scalar_t<metalcpu_stdlib::vector_of_t<P>>, T))
    METALCPU_INLINE constexpr explicit vec(const P& p) : storage(convert(metalcpu_stdlib::vector_of_t<P>(p))) {}
    // Used by swizzles and packed vectors.
    template <class... E>
    METALCPU_INLINE constexpr explicit vec(metalcpu_stdlib::elements_tag t, E... e) : storage(t, e...) {}
    METALCPU_INLINE constexpr explicit vec(const metalcpu_stdlib::element_array<T, N>& a) : storage(a) {}
    // `volatile device` vectors (SPIRV-Cross writes GLSL's coherent and volatile buffers so)
    // load and store component by component, each a volatile access. Both are templates, so
    // neither is a copy constructor or copy assignment: vec stays trivially copyable.
    template <class V>
        requires(__is_same(V, vec))
    METALCPU_INLINE vec(const volatile V& v) {
        for (int i = 0; i < N; ++i) this->elems[i] = v.elems[i];
    }
    template <class V>
        requires(__is_same(V, vec))
    METALCPU_INLINE void operator=(const V& v) volatile { // void: a discarded volatile& is a warning
        for (int i = 0; i < N; ++i) this->elems[i] = v.elems[i];
    }

    METALCPU_INLINE constexpr T& operator[](int i) { return this->elems[i]; }
    METALCPU_INLINE constexpr const T& operator[](int i) const { return this->elems[i]; }

// Each element is updated by `update(x, op, y)`: `x op= y`, except that integer division and
// remainder never trap (metalcpu/stdlib/division.h): x / 0 == 0, x % 0 == x, MIN / -1 == MIN.
#define METALCPU_VEC_BINARY(op, condition, update)                                                  \
    friend METALCPU_INLINE constexpr vec operator op(vec a, const vec& b)                           \
        requires(condition)                                                                         \
    {                                                                                               \
        a op##= b;                                                                                  \
        return a;                                                                                   \
    }                                                                                               \
    METALCPU_INLINE constexpr vec& operator op##=(const vec& b)                                     \
        requires(condition)                                                                         \
    {                                                                                               \
        _Pragma("GCC unroll 4")                                                                     \
        for (int i = 0; i < N; ++i) update(this->elems[i], op, b.elems[i]);                         \
        return *this;                                                                               \
    }
#define METALCPU_COMPOUND(x, op, y) x op##= y
#define METALCPU_QUOTIENT(x, op, y) x = metalcpu_stdlib::element_quotient(x, y)
#define METALCPU_REMAINDER(x, op, y) x = metalcpu_stdlib::element_remainder(x, y)
    METALCPU_VEC_BINARY(+, !is_bool, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(-, !is_bool, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(*, !is_bool, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(/, !is_bool, METALCPU_QUOTIENT)
    METALCPU_VEC_BINARY(%, is_int, METALCPU_REMAINDER)
    METALCPU_VEC_BINARY(&, !metalcpu_stdlib::is_floating_scalar<T>, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(|, !metalcpu_stdlib::is_floating_scalar<T>, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(^, !metalcpu_stdlib::is_floating_scalar<T>, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(<<, is_int, METALCPU_COMPOUND)
    METALCPU_VEC_BINARY(>>, is_int, METALCPU_COMPOUND)
#undef METALCPU_REMAINDER
#undef METALCPU_QUOTIENT
#undef METALCPU_COMPOUND
#undef METALCPU_VEC_BINARY

#define METALCPU_VEC_COMPARE(op)                                                                    \
    friend METALCPU_INLINE constexpr vec<bool, N> operator op(const vec& a, const vec& b) {         \
        vec<bool, N> r(false);                                                                      \
        _Pragma("GCC unroll 4")                                                                     \
        for (int i = 0; i < N; ++i) r.elems[i] = a.elems[i] op b.elems[i];                          \
        return r;                                                                                   \
    }
    METALCPU_VEC_COMPARE(==)
    METALCPU_VEC_COMPARE(!=)
    METALCPU_VEC_COMPARE(<)
    METALCPU_VEC_COMPARE(<=)
    METALCPU_VEC_COMPARE(>)
    METALCPU_VEC_COMPARE(>=)
    METALCPU_VEC_COMPARE(&&)
    METALCPU_VEC_COMPARE(||)
#undef METALCPU_VEC_COMPARE

    friend METALCPU_INLINE constexpr vec<bool, N> operator!(const vec& a) {
        vec<bool, N> r(false);
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) r.elems[i] = !a.elems[i];
        return r;
    }
    friend METALCPU_INLINE constexpr vec operator-(vec a)
        requires(!is_bool)
    {
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) a.elems[i] = -a.elems[i];
        return a;
    }
    friend METALCPU_INLINE constexpr vec operator+(const vec& a)
        requires(!is_bool)
    {
        return a;
    }
    friend METALCPU_INLINE constexpr vec operator~(vec a)
        requires(is_int)
    {
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) a.elems[i] = ~a.elems[i];
        return a;
    }

    METALCPU_INLINE constexpr vec& operator++()
        requires(!is_bool)
    {
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) ++this->elems[i];
        return *this;
    }
    METALCPU_INLINE constexpr vec& operator--()
        requires(!is_bool)
    {
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) --this->elems[i];
        return *this;
    }
    METALCPU_INLINE constexpr vec operator++(int)
        requires(!is_bool)
    {
        vec old = *this;
        ++*this;
        return old;
    }
    METALCPU_INLINE constexpr vec operator--(int)
        requires(!is_bool)
    {
        vec old = *this;
        --*this;
        return old;
    }

private:
    template <class U> static constexpr metalcpu_stdlib::element_array<T, N> convert(const vec<U, N>& o) {
        metalcpu_stdlib::element_array<T, N> out{};
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) out.v[i] = static_cast<T>(o.elems[i]);
        return out;
    }
};

} // namespace metal

namespace metalcpu_stdlib {

// A packed vector: N elements without padding, aligned like T (packed_float3 is 12 bytes).
// It converts implicitly to and from metal::vec<T, N>, which gives it the vector operators
// (V is a template argument so that argument-dependent lookup finds V's hidden friends).
template <class T, int N, class V> struct packed_vec : packed_storage<T, N> {
    using value_type = T;
    using vector_type = V;

    packed_vec() = default;
    METALCPU_INLINE constexpr packed_vec(T s) : packed_storage<T, N>(broadcast_tag{}, s) {}
    METALCPU_INLINE constexpr packed_vec(const V& v) : packed_storage<T, N>(to_array(v)) {}
    // From a swizzle reading as V: `packed_float3 p = v.xyz;`.
    template <class S>
        requires(is_swizzle<S> && __is_same(vector_of_t<S>, V))
    METALCPU_INLINE constexpr packed_vec(const S& s) : packed_vec(V(s)) {}
    template <class... A>
        requires(sizeof...(A) >= 2 && (component_count<A>() + ...) == N)
    METALCPU_INLINE constexpr packed_vec(const A&... a) : packed_storage<T, N>(compose<T, N>(a...)) {}

    METALCPU_INLINE constexpr operator V() const { return V(to_array(*this)); }

    METALCPU_INLINE constexpr T& operator[](int i) { return this->elems[i]; }
    METALCPU_INLINE constexpr const T& operator[](int i) const { return this->elems[i]; }

private:
    template <class S> static constexpr element_array<T, N> to_array(const S& s) {
        element_array<T, N> out{};
        #pragma GCC unroll 4
        for (int i = 0; i < N; ++i) out.v[i] = s.elems[i];
        return out;
    }
};

// Compound assignment to swizzles and packed vectors: computed on the vector they stand for.
#define METALCPU_PROXY_COMPOUND(op)                                                                 \
    template <class P, class R>                                                                     \
        requires is_proxy<P>                                                                        \
    METALCPU_INLINE constexpr P& operator op##=(P& lhs, const R& rhs) {                             \
        lhs = typename P::vector_type(lhs) op rhs;                                                  \
        return lhs;                                                                                 \
    }
METALCPU_PROXY_COMPOUND(+)
METALCPU_PROXY_COMPOUND(-)
METALCPU_PROXY_COMPOUND(*)
METALCPU_PROXY_COMPOUND(/)
METALCPU_PROXY_COMPOUND(%)
METALCPU_PROXY_COMPOUND(&)
METALCPU_PROXY_COMPOUND(|)
METALCPU_PROXY_COMPOUND(^)
METALCPU_PROXY_COMPOUND(<<)
METALCPU_PROXY_COMPOUND(>>)
#undef METALCPU_PROXY_COMPOUND

// What the left side of an assignment in kernel code stands for: the front end writes
// `v.xy = e` as `v.xy->*__mc_swz = e` (metalcpu/swizzle_assignments.h), and `__mc_swz`
// hands the swizzle here. A swizzle becomes a swizzle_target, whose assignment converts the
// right side to the vector the swizzle reads as, implicitly as MSL does (a vector, a scalar, a
// swizzle, a packed vector, `{a, b}`), and writes only the swizzle's components, whatever
// swizzle the right side is; a swizzle with repeated components cannot be assigned; anything
// else (a member that happens to be called `xy`) is handed back as it is.
template <class S> struct swizzle_target {
    S& target;
    METALCPU_INLINE constexpr S& operator=(const typename metal::remove_cv_t<S>::vector_type& value) const {
        return target = value;
    }
};
template <class S> struct readonly_swizzle_target {
    template <class E> void operator=(E&&) const = delete; // .xx = e: repeated components
};
template <class L> METALCPU_INLINE constexpr decltype(auto) assignment_target(L&& target) {
    using S = metal::remove_reference_t<L>;
    if constexpr (!is_swizzle<S>)
        return static_cast<L&&>(target);
    else if constexpr (S::assignable)
        return swizzle_target<S>{target};
    else
        return readonly_swizzle_target<S>{};
}

} // namespace metalcpu_stdlib

namespace metal {

template <class T, int N> using packed_vec = metalcpu_stdlib::packed_vec<T, N>;

#define METALCPU_VEC_ALIASES(T, name)                                                               \
    using name##2 = vec<T, 2>;                                                                      \
    using name##3 = vec<T, 3>;                                                                      \
    using name##4 = vec<T, 4>;                                                                      \
    using packed_##name##2 = packed_vec<T, 2>;                                                      \
    using packed_##name##3 = packed_vec<T, 3>;                                                      \
    using packed_##name##4 = packed_vec<T, 4>;
METALCPU_VEC_ALIASES(bool, bool)
METALCPU_VEC_ALIASES(char, char)
METALCPU_VEC_ALIASES(uchar, uchar)
METALCPU_VEC_ALIASES(short, short)
METALCPU_VEC_ALIASES(ushort, ushort)
METALCPU_VEC_ALIASES(int, int)
METALCPU_VEC_ALIASES(uint, uint)
METALCPU_VEC_ALIASES(long, long)
METALCPU_VEC_ALIASES(ulong, ulong)
METALCPU_VEC_ALIASES(half, half)
METALCPU_VEC_ALIASES(bfloat, bfloat)
METALCPU_VEC_ALIASES(float, float)
#undef METALCPU_VEC_ALIASES

} // namespace metal

// MSL code names the vector types without `metal::`.
#define METALCPU_GLOBAL_VEC_NAMES(name)                                                             \
    using metal::name##2;                                                                           \
    using metal::name##3;                                                                           \
    using metal::name##4;                                                                           \
    using metal::packed_##name##2;                                                                  \
    using metal::packed_##name##3;                                                                  \
    using metal::packed_##name##4;
METALCPU_GLOBAL_VEC_NAMES(bool)
METALCPU_GLOBAL_VEC_NAMES(char)
METALCPU_GLOBAL_VEC_NAMES(uchar)
METALCPU_GLOBAL_VEC_NAMES(short)
METALCPU_GLOBAL_VEC_NAMES(ushort)
METALCPU_GLOBAL_VEC_NAMES(int)
METALCPU_GLOBAL_VEC_NAMES(uint)
METALCPU_GLOBAL_VEC_NAMES(long)
METALCPU_GLOBAL_VEC_NAMES(ulong)
METALCPU_GLOBAL_VEC_NAMES(half)
METALCPU_GLOBAL_VEC_NAMES(bfloat)
METALCPU_GLOBAL_VEC_NAMES(float)
#undef METALCPU_GLOBAL_VEC_NAMES
