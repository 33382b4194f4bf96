// What the translator's lane form of a kernel calls (issue 14, stage 2; docs/compiler.md,
// "Threads as vector lanes"): the glue between a kernel's statements, written once for a
// block of N threads, and the lane-vector library (lane_vectors.h). Each function here has a
// plain overload for uniform operands, so the translator can write every access, cast and
// store the same way whatever the kinds of its operands, and the host compiler picks the form
// from the types: a uniform pointer is dereferenced as the kernel wrote it, a pointer with a
// linear index is one vector access when its lanes are contiguous.
//
// The translator takes only kernels whose statements it can write this way (lane_vectors.cpp
// in the front end); everything else keeps the interleaved form, which is also what a block
// runs when it is not a whole row of present threads or when a lane fails its bounds test.
#pragma once

#include <metalcpu/lane_vectors.h>
#include <metalcpu/work_items.h>

namespace metalcpu_kernel {

namespace lane_detail {

template <class T> struct is_lane_value {
    static constexpr bool value = false;
};
template <class T, int N, int B> struct is_lane_value<varying<T, N, B>> {
    static constexpr bool value = true;
};
template <class I, int N, int B> struct is_lane_value<linear<I, N, B>> {
    static constexpr bool value = true;
};
template <class T> struct is_lane_value<const T> : is_lane_value<T> {};
template <class T> struct is_lane_value<T&> : is_lane_value<T> {};

template <class T> struct pointee;
template <class T> struct pointee<T*> {
    using type = T;
};

/// The type a per-thread declaration `T v = e;` gets in the lane form: linear when the
/// initializer is linear and T an integer (an index stays two scalars), varying otherwise.
template <class T, int N, class Init> struct local {
    using type = varying<T, N>;
};
template <class T, int N, class I, int B> struct local<T, N, linear<I, N, B>> {
    using type = linear<T, N, B>;
};
template <class T, int N, class Init> struct local<T, N, const Init> : local<T, N, Init> {};
template <class T, int N, class Init> struct local<T, N, Init&> : local<T, N, Init> {};

} // namespace lane_detail

/// Whether the image's registers make the lane form pay: with AVX's 32 bytes or AVX-512's 64.
/// In the baseline image's 16-byte registers eight lanes of the 8x4 matmul's tile spilled, and
/// the lane form ran at 24 GFLOPS against the interleaved form's 33 (v3: 64 against 41;
/// bench/README.md); there the lane form is dead code and every block runs interleaved.
inline constexpr bool lane_form_pays = lane_detail::register_bytes >= 32;

/// Whether the block runs the lane form: a whole row of present threads, its last lane has a
/// thread and lies in the first lane's row (lanes are consecutive linear indices, so all
/// between do too). Such a block's threads differ only in x, by one from lane to lane.
template <mc_u32 W> struct lane_form_runs {
    static constexpr bool value = lane_form_pays;
};

template <bool TracksReturns, mc_u32 W, bool HasLaneForm>
METALCPU_INLINE bool lane_whole_row(const lane_block<TracksReturns, W, HasLaneForm>& block) {
    return lane_form_pays && !block.returned(W - 1) && block.ids(W - 1).y == block.ids(0).y &&
           block.ids(W - 1).z == block.ids(0).z;
}

/// A position builtin for a row of N threads: x steps by one from lane to lane, y and z are
/// the row's.
template <class E, int N> struct lane_position {
    linear<E, N> x;
    E y;
    E z;
};

/// A per-thread builtin of the block (thread_position_in_grid, thread_position_in_threadgroup,
/// thread_index_in_threadgroup) from its first lane's value.
template <int N, class P> METALCPU_INLINE auto lane_builtin(const P& first) {
    if constexpr (has_z<P>) {
        using E = typename remove_reference<decltype(P{}.x)>::type;
        return lane_position<E, N>{linear<E, N>::lane_index(first.x), first.y, first.z};
    } else if constexpr (has_y<P>) {
        using E = typename remove_reference<decltype(P{}.x)>::type;
        return lane_position<E, N>{linear<E, N>::lane_index(first.x), first.y, E(0)};
    } else {
        return linear<P, N>::lane_index(first);
    }
}

/// `Target v = e;` where Target is a lane type: e converted as the thread would convert it.
template <class Target> struct lane_conversion;
template <class T, int N, int B> struct lane_conversion<varying<T, N, B>> {
    using target = varying<T, N, B>;
    METALCPU_INLINE static target from(const target& v) { return v; }
    template <class U>
    METALCPU_INLINE static target from(const varying<U, N, B>& v)
        requires(target::components == 1 && varying<U, N, B>::components == 1)
    {
        return v.template convert<T>();
    }
    template <class I> METALCPU_INLINE static target from(const linear<I, N, B>& v) {
        return from(varying<I, N, B>(v));
    }
    template <class U>
    METALCPU_INLINE static target from(const U& u)
        requires(!lane_detail::is_lane_value<U>::value)
    {
        return target(T(u));
    }
};
template <class I, int N, int B> struct lane_conversion<linear<I, N, B>> {
    template <class J> METALCPU_INLINE static linear<I, N, B> from(const linear<J, N, B>& v) {
        return {I(v.first), I(v.step)};
    }
};
template <class Target, class E> METALCPU_INLINE Target lane_as(const E& e) {
    return lane_conversion<Target>::from(e);
}
template <class T, int N, class Init> using lane_local = typename lane_detail::local<T, N, Init>::type;

/// `v = e;` for a per-thread local.
template <class V, class E> METALCPU_INLINE void lane_set(V& v, const E& e) { v = lane_as<V>(e); }

/// `(T*)(p)`: the cast as written for a uniform pointer, the same lanes' addresses as T for a
/// lane pointer.
template <class Target, class P> METALCPU_INLINE Target lane_cast(P* p) { return (Target)(p); }
template <class Target, class T, class I, int N, int B> METALCPU_INLINE auto lane_cast(const linear_pointer<T, I, N, B>& p) {
    return p.template as<typename lane_detail::pointee<Target>::type>();
}
template <class Target, class T, int N, int B> METALCPU_INLINE auto lane_cast(const varying_pointer<T, N, B>& p) {
    return p.template as<typename lane_detail::pointee<Target>::type>();
}

/// `*p` as a value.
template <class T> METALCPU_INLINE const T& lane_load(T* p) { return *p; }
template <class T, class I, int N, int B> METALCPU_INLINE auto lane_load(const linear_pointer<T, I, N, B>& p) { return p.load(); }
template <class T, int N, int B> METALCPU_INLINE auto lane_load(const varying_pointer<T, N, B>& p) { return p.load(); }

/// `*p = v;` through a lane pointer (the translator never stores through a uniform one: every
/// thread would store to the one place).
template <class P, class V> METALCPU_INLINE void lane_store(const P& p, const V& v) {
    using value = decltype(p.load());
    p.store(lane_as<value>(v));
}

// Operations the library leaves to the lane form: a linear value meeting an operation that is
// not a step (`gid.x / 2`, `gid.x * gid.x`, a comparison) or a varying value becomes a varying
// one first; the element type is what C++ gives the two scalars.
#define METALCPU_LANE_MIXED(op)                                                                                   \
    template <class I, class J, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const linear<I, N, B>& a, const linear<J, N, B>& b) {                       \
        using E = decltype(I() op J());                                                                           \
        return lane_as<varying<E, N, B>>(a) op lane_as<varying<E, N, B>>(b);                                      \
    }                                                                                                             \
    template <class I, class T, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const linear<I, N, B>& a, const varying<T, N, B>& b)                        \
        requires(varying<T, N, B>::components == 1)                                                               \
    {                                                                                                             \
        using E = decltype(I() op T());                                                                           \
        return lane_as<varying<E, N, B>>(a) op lane_as<varying<E, N, B>>(b);                                      \
    }                                                                                                             \
    template <class I, class T, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const varying<T, N, B>& a, const linear<I, N, B>& b)                        \
        requires(varying<T, N, B>::components == 1)                                                               \
    {                                                                                                             \
        using E = decltype(T() op I());                                                                           \
        return lane_as<varying<E, N, B>>(a) op lane_as<varying<E, N, B>>(b);                                      \
    }
METALCPU_LANE_MIXED(*)
METALCPU_LANE_MIXED(+)
METALCPU_LANE_MIXED(-)
METALCPU_LANE_MIXED(/)
METALCPU_LANE_MIXED(%)
METALCPU_LANE_MIXED(&)
METALCPU_LANE_MIXED(|)
METALCPU_LANE_MIXED(^)
METALCPU_LANE_MIXED(<<)
METALCPU_LANE_MIXED(>>)
METALCPU_LANE_MIXED(<)
METALCPU_LANE_MIXED(<=)
METALCPU_LANE_MIXED(>)
METALCPU_LANE_MIXED(>=)
METALCPU_LANE_MIXED(==)
METALCPU_LANE_MIXED(!=)
#undef METALCPU_LANE_MIXED

#define METALCPU_LANE_LINEAR_COMPARISON(op)                                                                      \
    template <class I, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const linear<I, N, B>& a, const U& u)                                       \
        requires(!lane_detail::is_lane_value<U>::value)                                                          \
    {                                                                                                             \
        using C = decltype(I() + U());                                                                            \
        return lane_as<varying<C, N, B>>(a) op C(u);                                                              \
    }                                                                                                             \
    template <class I, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const U& u, const linear<I, N, B>& a)                                       \
        requires(!lane_detail::is_lane_value<U>::value)                                                          \
    {                                                                                                             \
        using C = decltype(U() + I());                                                                            \
        return varying<C, N, B>(C(u)) op lane_as<varying<C, N, B>>(a);                                            \
    }
/// `gid.x << 2` stays linear (lane l's value is first << 2 plus l steps << 2, wrapping alike).
template <class I, class U, int N, int B>
METALCPU_INLINE linear<I, N, B> operator<<(const linear<I, N, B>& a, const U& u)
    requires(metalcpu_stdlib::is_integral_scalar<U> && __is_same(decltype(I() << U()), I))
{
    return {I(a.first << u), I(a.step << u)};
}

// A linear value and a uniform scalar in an operation that is not a step (`gid.x / 2`,
// `gid.x & 1`, `gid.x >> 1`): the linear value's lanes as a varying value, the scalar in the
// type C++ gives the two (a division's checked divisor, division.h, converts to its integer).
#define METALCPU_LANE_LINEAR_ARITHMETIC(op)                                                                      \
    template <class I, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const linear<I, N, B>& a, const U& u)                                       \
        requires(metalcpu_stdlib::is_arithmetic_scalar<U>)                                                        \
    {                                                                                                             \
        using C = decltype(I() op U());                                                                           \
        return lane_as<varying<C, N, B>>(a) op C(u);                                                              \
    }                                                                                                             \
    template <class I, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const U& u, const linear<I, N, B>& a)                                       \
        requires(metalcpu_stdlib::is_arithmetic_scalar<U>)                                                        \
    {                                                                                                             \
        using C = decltype(U() op I());                                                                           \
        return varying<C, N, B>(C(u)) op lane_as<varying<C, N, B>>(a);                                            \
    }
METALCPU_LANE_LINEAR_ARITHMETIC(/)
METALCPU_LANE_LINEAR_ARITHMETIC(%)
METALCPU_LANE_LINEAR_ARITHMETIC(&)
METALCPU_LANE_LINEAR_ARITHMETIC(|)
METALCPU_LANE_LINEAR_ARITHMETIC(^)
METALCPU_LANE_LINEAR_ARITHMETIC(>>)
#undef METALCPU_LANE_LINEAR_ARITHMETIC

// A varying scalar and a uniform scalar whose operation C++ computes in another type than the
// varying one's (`int / uint` divides unsigned, `ushort + ushort` adds ints): the lanes
// converted first, as the thread's operands are. (Where the types agree, the library's own
// operators apply.)
#define METALCPU_LANE_PROMOTED(op, common)                                                                       \
    template <class T, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const varying<T, N, B>& a, const U& u)                                      \
        requires(varying<T, N, B>::components == 1 && metalcpu_stdlib::is_arithmetic_scalar<U> &&                \
                 !__is_same(decltype(T() common U()), T))                                                         \
    {                                                                                                             \
        using C = decltype(T() common U());                                                                       \
        return lane_as<varying<C, N, B>>(a) op C(u);                                                              \
    }                                                                                                             \
    template <class T, class U, int N, int B>                                                                     \
    METALCPU_INLINE auto operator op(const U& u, const varying<T, N, B>& a)                                      \
        requires(varying<T, N, B>::components == 1 && metalcpu_stdlib::is_arithmetic_scalar<U> &&                \
                 !__is_same(decltype(U() common T()), T))                                                         \
    {                                                                                                             \
        using C = decltype(U() common T());                                                                       \
        return varying<C, N, B>(C(u)) op lane_as<varying<C, N, B>>(a);                                            \
    }
METALCPU_LANE_PROMOTED(+, +)
METALCPU_LANE_PROMOTED(-, -)
METALCPU_LANE_PROMOTED(*, *)
METALCPU_LANE_PROMOTED(/, /)
METALCPU_LANE_PROMOTED(%, %)
METALCPU_LANE_PROMOTED(&, &)
METALCPU_LANE_PROMOTED(|, |)
METALCPU_LANE_PROMOTED(^, ^)
METALCPU_LANE_PROMOTED(<, +)
METALCPU_LANE_PROMOTED(<=, +)
METALCPU_LANE_PROMOTED(>, +)
METALCPU_LANE_PROMOTED(>=, +)
METALCPU_LANE_PROMOTED(==, +)
METALCPU_LANE_PROMOTED(!=, +)
#undef METALCPU_LANE_PROMOTED

METALCPU_LANE_LINEAR_COMPARISON(<)
METALCPU_LANE_LINEAR_COMPARISON(<=)
METALCPU_LANE_LINEAR_COMPARISON(>)
METALCPU_LANE_LINEAR_COMPARISON(>=)
METALCPU_LANE_LINEAR_COMPARISON(==)
METALCPU_LANE_LINEAR_COMPARISON(!=)
#undef METALCPU_LANE_LINEAR_COMPARISON

/// `a || b` and `a && b` where a lane's truth differs: masks of all ones or zeros per lane
/// (both operands are evaluated: the lane form takes only conditions without side effects).
template <class M, int N, int B> using lane_mask = typename varying<M, N, B>::mask;
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> lane_truth(const varying<M, N, B>& m)
    requires(varying<M, N, B>::components == 1)
{
    return m != M(0);
}
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> operator||(const varying<M, N, B>& a, bool b) {
    using mask = lane_mask<M, N, B>;
    return b ? mask(typename mask::element(-1)) : lane_truth(a);
}
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> operator||(bool b, const varying<M, N, B>& a) {
    return a || b;
}
template <class M, int N, int B>
METALCPU_INLINE lane_mask<M, N, B> operator||(const varying<M, N, B>& a, const varying<M, N, B>& b) {
    return lane_truth(a) | lane_truth(b);
}
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> operator&&(const varying<M, N, B>& a, bool b) {
    using mask = lane_mask<M, N, B>;
    return b ? lane_truth(a) : mask(typename mask::element(0));
}
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> operator&&(bool b, const varying<M, N, B>& a) {
    return a && b;
}
template <class M, int N, int B>
METALCPU_INLINE lane_mask<M, N, B> operator&&(const varying<M, N, B>& a, const varying<M, N, B>& b) {
    return lane_truth(a) & lane_truth(b);
}
template <class M, int N, int B> METALCPU_INLINE lane_mask<M, N, B> operator!(const varying<M, N, B>& a) {
    return a == M(0);
}

// --- per-thread conditions: lane masks ---
//
// An `if` whose condition differs from lane to lane runs its branch for the block when any
// lane takes it, with the lanes that do as a mask (a varying int of 0 / -1): what the branch
// assigns to a local is blended into the lanes of the mask, what it stores and loads is
// stored and loaded for those lanes alone (a lane whose thread does not take the branch may
// have an address past its buffer), and what it calls is called for them alone. With every
// lane in the mask, a load or store is the unmasked one.

/// Every lane: the mask outside any per-thread condition.
struct lane_every {};

template <int N> using lane_mask_of = varying<int, N>;

METALCPU_INLINE bool lane_active(lane_every, int) { return true; }
template <int N, int B> METALCPU_INLINE bool lane_active(const varying<int, N, B>& m, int l) { return m.get(l) != 0; }
METALCPU_INLINE bool lane_all(lane_every) { return true; }
template <int N, int B> METALCPU_INLINE bool lane_all(const varying<int, N, B>& m) { return all(m); }

/// The lanes of `within` in which `condition` holds.
template <int N, class C> METALCPU_INLINE lane_mask_of<N> lane_when(lane_every, const C& condition) {
    if constexpr (lane_detail::is_lane_value<C>::value) {
        if constexpr (requires { condition.first; })
            return lane_when<N>(lane_every{}, lane_as<varying<decltype(condition.first), N>>(condition));
        else
            return lane_truth(condition).template convert<int>();
    } else {
        return lane_mask_of<N>(condition ? -1 : 0);
    }
}
template <int N, class C> METALCPU_INLINE lane_mask_of<N> lane_when(const lane_mask_of<N>& within, const C& condition) {
    return within & lane_when<N>(lane_every{}, condition);
}
/// The lanes of `within` that `taken` leaves out: an `else`.
template <int N> METALCPU_INLINE lane_mask_of<N> lane_unless(lane_every, const lane_mask_of<N>& taken) { return taken ^ -1; }
template <int N> METALCPU_INLINE lane_mask_of<N> lane_unless(const lane_mask_of<N>& within, const lane_mask_of<N>& taken) {
    return within & (taken ^ -1);
}

/// `yes` in the lanes of `m`, `no` in the others.
template <class T, int N, int B>
METALCPU_INLINE varying<T, N, B> lane_blend(const varying<int, N, B>& m, const varying<T, N, B>& yes, const varying<T, N, B>& no) {
    using V = varying<T, N, B>;
    V r;
#pragma GCC unroll 16
    for (int q = 0; q < V::chunks; ++q) {
        typename V::index_chunk which;
#pragma GCC unroll 64
        for (int i = 0; i < V::per_chunk; ++i) which[i] = m.get((q * V::per_chunk + i) / V::components) ? -1 : 0;
        r.c[q] = which ? yes.c[q] : no.c[q];
    }
    return r;
}
template <class E, int C, int R, int N, int B>
METALCPU_INLINE varying<metal::matrix<E, C, R>, N, B> lane_blend(const varying<int, N, B>& m,
                                                                 const varying<metal::matrix<E, C, R>, N, B>& yes,
                                                                 varying<metal::matrix<E, C, R>, N, B> no) {
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) no.columns[c] = lane_blend(m, yes.columns[c], no.columns[c]);
    return no;
}

/// `v = e;` in the lanes of a mask.
template <class V, class E, int N, int B> METALCPU_INLINE void lane_set(V& v, const E& e, const varying<int, N, B>& m) {
    v = lane_blend(m, lane_as<V>(e), v);
}
template <class V, class E> METALCPU_INLINE void lane_set(V& v, const E& e, lane_every) { lane_set(v, e); }

/// `*p` in the lanes of a mask (the others read nothing and hold zero).
template <class T> METALCPU_INLINE const T& lane_load(T* p, lane_every) { return *p; }
template <class T, int N, int B> METALCPU_INLINE const T& lane_load(T* p, const varying<int, N, B>&) { return *p; }
template <class P> METALCPU_INLINE auto lane_load(const P& p, lane_every) { return p.load(); }
template <class P, int N, int B> METALCPU_INLINE auto lane_load(const P& p, const varying<int, N, B>& m) {
    using value = decltype(p.load());
    if (all(m)) return p.load();
    value r{};
#pragma GCC unroll 16
    for (int l = 0; l < N; ++l)
        if (m.get(l)) r.set_lane(l, *p.lane(l));
    return r;
}

/// `*p = v;` in the lanes of a mask.
template <class P, class V> METALCPU_INLINE void lane_store(const P& p, const V& v, lane_every) { lane_store(p, v); }
template <class P, class V, int N, int B> METALCPU_INLINE void lane_store(const P& p, const V& v, const varying<int, N, B>& m) {
    using value = decltype(p.load());
    const value stored = lane_as<value>(v);
    if (all(m)) {
        p.store(stored);
        return;
    }
#pragma GCC unroll 16
    for (int l = 0; l < N; ++l)
        if (m.get(l)) *p.lane(l) = stored.lane(l);
}

// --- calls ---

namespace lane_detail {
/// Lane l's value of a call's argument: a lane value's lane, a uniform one as it is.
template <class A> METALCPU_INLINE decltype(auto) lane_argument(const A& a, int l) {
    if constexpr (is_lane_value<A>::value || requires { a.lane(l); }) return a.lane(l);
    else return (a);
}
template <class T> struct plain {
    using type = T;
};
template <class T> struct plain<const T> : plain<T> {};
template <class T> struct plain<T&> : plain<T> {};
} // namespace lane_detail

/// `f(a, b)` with per-thread arguments: f called for each lane of the mask, lane 0 first (the
/// interleaved form's order), with that lane's arguments; the results are the lanes of a
/// varying value. A function of the program's or of the standard library, as the thread would
/// call it, so each lane's result has its thread's bits.
template <int N, class M, class F, class... A> METALCPU_INLINE auto lane_call(const M& mask, F f, const A&... a) {
    using R = decltype(f(lane_detail::lane_argument(a, 0)...));
    if constexpr (__is_same(R, void)) {
#pragma GCC unroll 16
        for (int l = 0; l < N; ++l)
            if (lane_active(mask, l)) f(lane_detail::lane_argument(a, l)...);
    } else {
        using V = varying<typename lane_detail::plain<R>::type, N>;
        V r{};
#pragma GCC unroll 16
        for (int l = 0; l < N; ++l)
            if (lane_active(mask, l)) r.set_lane(l, f(lane_detail::lane_argument(a, l)...));
        return r;
    }
}

/// Whether the condition holds in any lane: a bounds test whose `return` some lane takes.
METALCPU_INLINE bool lane_any(bool b) { return b; }
template <class M, int N, int B> METALCPU_INLINE bool lane_any(const varying<M, N, B>& m) { return any(lane_truth(m)); }

} // namespace metalcpu_kernel
