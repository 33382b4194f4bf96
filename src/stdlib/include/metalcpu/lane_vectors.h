// Lane vectors: N neighbouring threads of a group as the lanes of host vectors (issue 14).
//
// The interleaved form (work_items.h, lane_block) runs eight threads' code one copy after
// another, each copy on its thread's float4s; GCC and clang never widen an operation that is
// already on a vector type, so eight float4 multiply-adds stay eight xmm instructions. Here a
// value that differs from thread to thread is one object for the N threads, `varying<T, N>`,
// whose operations are whole-register operations on all lanes at once; a value that is the
// same for every thread (a kernel parameter, gid.y in a group a multiple of N wide) stays a
// plain T and is broadcast where it meets a varying one.
//
// Layout: lane after lane, each lane's T as it lies in memory (a float4 is four floats, a
// float3 four with one unused). So N threads' float4s at consecutive addresses, the commonest
// load of a vectorised Metal kernel, are one contiguous load, and an operation between a
// varying value and a uniform scalar is one instruction per register. The storage is an array
// of the host's widest vector registers (64 bytes with AVX-512, 32 with AVX, 16 otherwise,
// decided per image by the compiler's own macros): GCC keeps a vector wider than the machine's
// in memory, and an array of register-sized ones in registers.
//
// Bits: every lane's element sees the operations its thread would, in the same order, written
// as the same expressions (metal::matrix's products are rewritten below term by term), so
// without contraction the result is the per-thread form's, bit for bit
// (tests/stdlib/lane_vectors_test.cpp checks it). Under the kernels' -ffp-contract=fast, which
// multiply-adds fuse is GCC's choice per function (the 8x4 matmul's lane form had metalcpu's
// bits in every bench run), and under -ffast-math GCC divides float vectors by an estimate
// and scalars exactly: docs/compiler.md ("Threads as vector lanes") has both.
//
// The translator's lane form of a kernel (compiler/passes/lane_vectors.cpp) reaches it through
// lane_statements.h; bench/matmul_lane_library.h is the 8x4 matmul's body through it, written
// by hand. GCC's vector extensions (__builtin_shuffle, __integer_pack): GCC compiles the kernels.
#pragma once

#include <metal_matrix>
#include <metalcpu/stdlib/division.h>

namespace metalcpu_kernel {

namespace lane_detail {

#if defined(__AVX512F__)
inline constexpr int register_bytes = 64;
#elif defined(__AVX__)
inline constexpr int register_bytes = 32;
#else
inline constexpr int register_bytes = 16;
#endif

/// A lane's type as elements: a scalar is one, metal::vec<E, K> its storage's count (a
/// float3 is four floats, as in device memory).
template <class T> struct shape {
    using element = T;
    static constexpr int components = 1;
};
template <class E, int K> struct shape<metal::vec<E, K>> {
    using element = E;
    static constexpr int components = int(sizeof(metal::vec<E, K>) / sizeof(E));
};

template <class E, int Bytes> struct chunk {
    typedef E type __attribute__((vector_size(Bytes)));
    /// The same at any element's address (a lane's T need not be register-aligned).
    typedef E unaligned __attribute__((vector_size(Bytes), aligned(alignof(E)), may_alias));
};

/// The signed integer of a size, for comparison results (GCC's vector comparisons give 0/-1).
template <int Bytes> struct mask_of;
template <> struct mask_of<1> { using type = signed char; };
template <> struct mask_of<2> { using type = short; };
template <> struct mask_of<4> { using type = int; };
template <> struct mask_of<8> { using type = long long; };

struct no_operand {};
template <bool Use, class T> struct when { using type = T; };
template <class T> struct when<false, T> { using type = no_operand; };

template <class T> struct without_const { using type = T; };
template <class T> struct without_const<const T> { using type = T; };

/// A register of constants made by a pack expansion: element i is Make(i). GCC folds a brace
/// list of constants into one constant vector, where a loop of element stores is built at run
/// time, element by element.
template <int... I> struct sequence {};
template <class Chunk, class Make, int... I> METALCPU_INLINE constexpr Chunk constants(Make make, sequence<I...>) {
    return Chunk{make(I)...};
}
template <class Chunk, int Count, class Make> METALCPU_INLINE constexpr Chunk constants(Make make) {
    return constants<Chunk>(make, sequence<__integer_pack(Count)...>{});
}

constexpr int smaller(int a, int b) { return a < b ? a : b; }

} // namespace lane_detail

/// Addresses of varying pointers: lane l's pointer as an integer.
using lane_address = __UINTPTR_TYPE__;

/// N threads' values of T (a scalar or metal::vec), lane after lane, in registers of Bytes
/// (the image's widest by default; the tests name other widths to check the layout at each).
template <class T, int N, int Bytes = lane_detail::register_bytes> struct varying {
    static_assert(N >= 2 && (N & (N - 1)) == 0, "lanes come in powers of two");
    using uniform_type = T;
    using element = typename lane_detail::shape<T>::element;
    static constexpr int lanes = N;
    static constexpr int components = lane_detail::shape<T>::components;
    static constexpr int count = N * components;
    static constexpr int chunk_bytes = lane_detail::smaller(Bytes, int(count * sizeof(element)));
    static constexpr int per_chunk = chunk_bytes / int(sizeof(element));
    static constexpr int chunks = count / per_chunk;
    static constexpr bool integral = element(3) / element(2) == element(1);
    using chunk_type = typename lane_detail::chunk<element, chunk_bytes>::type;
    using memory_chunk = typename lane_detail::chunk<element, chunk_bytes>::unaligned;

    chunk_type c[chunks];

    /// Integers of the element's size, one per element of a register: __builtin_shuffle's masks.
    using index_chunk = typename lane_detail::chunk<typename lane_detail::mask_of<sizeof(element)>::type, chunk_bytes>::type;

    /// The lanes' scalars of the same element, a vector's per-thread factor (`v * s`); a type
    /// of no values for scalar lanes, whose operators with themselves are the first ones.
    using scalar_lanes = typename lane_detail::when<(components > 1), varying<element, N, Bytes>>::type;

    varying() = default;
    /// Every lane the same uniform value (`float4 v = uniform` where a varying is needed).
    METALCPU_INLINE varying(const T& u) {
        chunk_type first = {};
#pragma GCC unroll 4
        for (int k = 0; k < components; ++k) first[k] = element_of(u, k);
        // Element i of every register is component i % components: one broadcast instruction.
        const chunk_type repeated = __builtin_shuffle(first, repeat_pattern());
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q) c[q] = repeated;
    }
    /// Every element the same scalar, as MSL's `float4 * float` broadcasts it.
    METALCPU_INLINE explicit varying(element s)
        requires(components > 1)
    {
        const chunk_type first = {s};
        const chunk_type repeated = __builtin_shuffle(first, index_chunk{});
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q) c[q] = repeated;
    }

    /// Element i of the flat lane-after-lane storage.
    METALCPU_INLINE element get(int i) const { return c[i / per_chunk][i % per_chunk]; }
    METALCPU_INLINE void set(int i, element v) { c[i / per_chunk][i % per_chunk] = v; }

    /// Lane l's thread's value.
    METALCPU_INLINE T lane(int l) const {
        if constexpr (components == 1) {
            return get(l);
        } else {
            T r;
#pragma GCC unroll 4
            for (int k = 0; k < components; ++k) set_element(r, k, get(l * components + k));
            return r;
        }
    }
    METALCPU_INLINE void set_lane(int l, const T& v) {
#pragma GCC unroll 4
        for (int k = 0; k < components; ++k) set(l * components + k, element_of(v, k));
    }

    /// first, first + step, first + 2 step, ...: gid.x of a row of threads.
    METALCPU_INLINE static varying iota(element first, element step = element(1))
        requires(components == 1)
    {
        varying r(first);
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q)
            r.c[q] += lane_detail::constants<chunk_type, per_chunk>([q](int i) { return element(q * per_chunk + i); }) * step;
        return r;
    }

    /// Component k of every lane (v.x is component(0)).
    METALCPU_INLINE varying<element, N, Bytes> component(int k) const
        requires(components > 1)
    {
        varying<element, N, Bytes> r;
#pragma GCC unroll 64
        for (int l = 0; l < N; ++l) r.set(l, get(l * components + k));
        return r;
    }
    METALCPU_INLINE void set_component(int k, const varying<element, N, Bytes>& v)
        requires(components > 1)
    {
#pragma GCC unroll 64
        for (int l = 0; l < N; ++l) set(l * components + k, v.get(l));
    }

    /// Each lane's scalar in all of its components: the varying side of `float4 * s` where s
    /// differs per thread.
    METALCPU_INLINE static varying spread(const varying<element, N, Bytes>& s) {
        varying r;
#pragma GCC unroll 64
        for (int i = 0; i < count; ++i) r.set(i, s.get(i / components));
        return r;
    }

    /// MSL's explicit element conversion, lane by lane (float4(int4), uint(f)).
    template <class U> METALCPU_INLINE varying<U, N, Bytes> convert() const {
        varying<U, N, Bytes> r;
        using target = typename varying<U, N, Bytes>::element;
#pragma GCC unroll 64
        for (int i = 0; i < count; ++i) r.set(i, static_cast<target>(get(i)));
        return r;
    }

    /// The lanes' values from N consecutive Ts starting at lane0's.
    METALCPU_INLINE static varying load_contiguous(const T* lane0) {
        const memory_chunk* from = reinterpret_cast<const memory_chunk*>(lane0);
        varying r;
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q) r.c[q] = from[q];
        return r;
    }
    METALCPU_INLINE void store_contiguous(T* lane0) const {
        memory_chunk* to = reinterpret_cast<memory_chunk*>(lane0);
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q) to[q] = c[q];
    }

    METALCPU_INLINE varying operator-() const {
        varying r;
#pragma GCC unroll 16
        for (int q = 0; q < chunks; ++q) r.c[q] = -c[q];
        return r;
    }

#define METALCPU_LANE_OPERATOR(op, requirement)                                                                  \
    friend METALCPU_INLINE varying operator op(varying a, const varying& b)                                     \
        requires(requirement)                                                                                    \
    {                                                                                                            \
        _Pragma("GCC unroll 16") for (int q = 0; q < chunks; ++q) a.c[q] = a.c[q] op b.c[q];                     \
        return a;                                                                                                \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(varying a, element s)                                             \
        requires(requirement)                                                                                    \
    {                                                                                                            \
        _Pragma("GCC unroll 16") for (int q = 0; q < chunks; ++q) a.c[q] = a.c[q] op s;                          \
        return a;                                                                                                \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(element s, varying a)                                             \
        requires(requirement)                                                                                    \
    {                                                                                                            \
        _Pragma("GCC unroll 16") for (int q = 0; q < chunks; ++q) a.c[q] = s op a.c[q];                          \
        return a;                                                                                                \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(const varying& a, const T& u)                                     \
        requires((requirement) && components > 1)                                                               \
    {                                                                                                            \
        return a op varying(u);                                                                                  \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(const T& u, const varying& a)                                     \
        requires((requirement) && components > 1)                                                               \
    {                                                                                                            \
        return varying(u) op a;                                                                                  \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(const varying& a, const scalar_lanes& s)                            \
        requires((requirement) && components > 1)                                                               \
    {                                                                                                            \
        return a op spread(s);                                                                                   \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(const scalar_lanes& s, const varying& a)                            \
        requires((requirement) && components > 1)                                                               \
    {                                                                                                            \
        return spread(s) op a;                                                                                   \
    }                                                                                                            \
    template <class B> METALCPU_INLINE varying& operator op##=(const B & b) { return *this = *this op b; }

    METALCPU_LANE_OPERATOR(+, true)
    METALCPU_LANE_OPERATOR(-, true)
    METALCPU_LANE_OPERATOR(*, true)
    METALCPU_LANE_OPERATOR(/, !integral)
    METALCPU_LANE_OPERATOR(&, integral)
    METALCPU_LANE_OPERATOR(|, integral)
    METALCPU_LANE_OPERATOR(^, integral)
    METALCPU_LANE_OPERATOR(<<, integral)
    METALCPU_LANE_OPERATOR(>>, integral)
#undef METALCPU_LANE_OPERATOR

    // Integer division and remainder lane by lane, as a thread divides (division.h: a zero
    // divisor and MIN / -1 give what the division pass gives, never a trap): x86 has no
    // vector integer division, so GCC's vector `/` is a division per element anyway, and it
    // would trap in a lane whose thread does not divide (a lane a condition leaves out).
#define METALCPU_LANE_DIVISION(op, function)                                                                     \
    friend METALCPU_INLINE varying operator op(const varying& a, const varying& b)                              \
        requires(integral)                                                                                       \
    {                                                                                                            \
        varying r;                                                                                               \
        _Pragma("GCC unroll 64") for (int i = 0; i < count; ++i)                                                 \
            r.set(i, metalcpu_stdlib::function<element>(a.get(i), b.get(i)));                                    \
        return r;                                                                                                \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(const varying& a, element s)                                      \
        requires(integral)                                                                                       \
    {                                                                                                            \
        return a op varying(s);                                                                                  \
    }                                                                                                            \
    friend METALCPU_INLINE varying operator op(element s, const varying& a)                                      \
        requires(integral)                                                                                       \
    {                                                                                                            \
        return varying(s) op a;                                                                                  \
    }
    METALCPU_LANE_DIVISION(/, element_quotient)
    METALCPU_LANE_DIVISION(%, element_remainder)
#undef METALCPU_LANE_DIVISION
    template <class B> METALCPU_INLINE varying& operator%=(const B& b) { return *this = *this % b; }

    /// Per-lane comparisons of scalars: a mask of 0 / -1 per lane, for any(), all() and select().
    using mask = varying<typename lane_detail::mask_of<sizeof(element)>::type, N, Bytes>;
#define METALCPU_LANE_COMPARISON(op)                                                                             \
    friend METALCPU_INLINE mask operator op(const varying& a, const varying& b)                                  \
        requires(components == 1)                                                                               \
    {                                                                                                            \
        mask m;                                                                                                  \
        _Pragma("GCC unroll 16") for (int q = 0; q < chunks; ++q) m.c[q] = a.c[q] op b.c[q];                     \
        return m;                                                                                                \
    }                                                                                                            \
    friend METALCPU_INLINE mask operator op(const varying& a, element s)                                         \
        requires(components == 1)                                                                               \
    {                                                                                                            \
        return a op varying(s);                                                                                  \
    }
    METALCPU_LANE_COMPARISON(==)
    METALCPU_LANE_COMPARISON(!=)
    METALCPU_LANE_COMPARISON(<)
    METALCPU_LANE_COMPARISON(<=)
    METALCPU_LANE_COMPARISON(>)
    METALCPU_LANE_COMPARISON(>=)
#undef METALCPU_LANE_COMPARISON

private:
    METALCPU_INLINE static index_chunk repeat_pattern() {
        return lane_detail::constants<index_chunk, per_chunk>([](int i) { return i % components; });
    }
    METALCPU_INLINE static element element_of(const T& v, int k) {
        if constexpr (components == 1) {
            (void)k;
            return v;
        } else {
            return v[k];
        }
    }
    METALCPU_INLINE static void set_element(T& v, int k, element e) {
        if constexpr (components > 1) v[k] = e;
    }
};

namespace lane_detail {

/// One register's elements folded with op into element 0 by halving: log2 shuffles, not an
/// extraction per element.
template <class Mask, class Op> METALCPU_INLINE auto fold(typename Mask::chunk_type v, Op op) {
    using indices = typename Mask::index_chunk;
#pragma GCC unroll 8
    for (int width = Mask::per_chunk / 2; width >= 1; width /= 2) {
        const indices rotation =
            constants<indices, Mask::per_chunk>([width](int i) { return (i + width) % Mask::per_chunk; });
        v = op(v, __builtin_shuffle(v, rotation));
    }
    return v[0];
}

} // namespace lane_detail

/// Whether any / every lane of a comparison holds (mask lanes are all ones or all zeros).
template <class M, int N, int B> METALCPU_INLINE bool any(const varying<M, N, B>& m) {
    using mask = varying<M, N, B>;
    typename mask::chunk_type folded = m.c[0];
#pragma GCC unroll 16
    for (int q = 1; q < mask::chunks; ++q) folded |= m.c[q];
    return lane_detail::fold<mask>(folded, [](auto a, auto b) { return a | b; }) != 0;
}
template <class M, int N, int B> METALCPU_INLINE bool all(const varying<M, N, B>& m) {
    using mask = varying<M, N, B>;
    typename mask::chunk_type folded = m.c[0];
#pragma GCC unroll 16
    for (int q = 1; q < mask::chunks; ++q) folded &= m.c[q];
    return lane_detail::fold<mask>(folded, [](auto a, auto b) { return a & b; }) != 0;
}

/// Per lane, `when ? yes : no` for scalar lanes (mask from a comparison of the same width).
template <class T, class M, int N, int B>
METALCPU_INLINE varying<T, N, B> select(const varying<M, N, B>& when, const varying<T, N, B>& yes,
                                        const varying<T, N, B>& no)
    requires(varying<T, N, B>::components == 1 && sizeof(M) == sizeof(typename varying<T, N, B>::element))
{
    varying<T, N, B> r;
#pragma GCC unroll 16
    for (int q = 0; q < varying<T, N, B>::chunks; ++q) r.c[q] = when.c[q] ? yes.c[q] : no.c[q];
    return r;
}

/// Loads and stores through N threads' pointers (Pointer's lane(l) and consecutive()): one
/// contiguous access when the lanes' pointers are one T apart, lane by lane otherwise, lane 0
/// first (the interleaved form's order, so that of two lanes storing to one place the last stays).
template <class Pointer, class T, int N, int Bytes> struct lane_access {
    using value = varying<typename lane_detail::without_const<T>::type, N, Bytes>;
    METALCPU_INLINE value load() const {
        const Pointer& p = static_cast<const Pointer&>(*this);
        if (__builtin_expect(p.consecutive(), 1)) return value::load_contiguous(p.lane(0));
        value r;
#pragma GCC unroll 16
        for (int l = 0; l < N; ++l) r.set_lane(l, *p.lane(l));
        return r;
    }
    METALCPU_INLINE void store(const value& v) const {
        const Pointer& p = static_cast<const Pointer&>(*this);
        if (__builtin_expect(p.consecutive(), 1)) {
            v.store_contiguous(p.lane(0));
            return;
        }
#pragma GCC unroll 16
        for (int l = 0; l < N; ++l) *p.lane(l) = v.lane(l);
    }
};

/// N threads' pointers to T, as addresses: contiguous when lane l's address is lane 0's plus l
/// Ts (one compare of the addresses at run time).
template <class T, int N, int Bytes = lane_detail::register_bytes>
struct varying_pointer : lane_access<varying_pointer<T, N, Bytes>, T, N, Bytes> {
    using addresses = varying<lane_address, N, Bytes>;
    addresses address;

    /// lane0, lane0 + 1, ...: a row of threads' `p + gid.x` made at once.
    METALCPU_INLINE static varying_pointer consecutive(T* lane0) {
        return {{}, addresses::iota(reinterpret_cast<lane_address>(lane0), sizeof(T))};
    }
    /// `p + index` with a uniform p and an index per lane (any integer type, signed or not).
    template <class I> METALCPU_INLINE static varying_pointer at(T* base, const varying<I, N, Bytes>& index) {
        varying_pointer r{};
        r.address = addresses(reinterpret_cast<lane_address>(base)) +
                    index.template convert<long long>().template convert<lane_address>() * lane_address(sizeof(T));
        return r;
    }
    template <class I> friend METALCPU_INLINE varying_pointer operator+(const varying_pointer& p, const varying<I, N, Bytes>& index) {
        return {{}, p.address + index.template convert<long long>().template convert<lane_address>() * lane_address(sizeof(T))};
    }
    friend METALCPU_INLINE varying_pointer operator+(const varying_pointer& p, long long offset) {
        return {{}, p.address + lane_address(offset) * lane_address(sizeof(T))};
    }
    /// `(device float4*)p`: the same addresses, another pointee.
    template <class U> METALCPU_INLINE varying_pointer<U, N, Bytes> as() const { return {{}, address}; }

    METALCPU_INLINE T* lane(int l) const { return reinterpret_cast<T*>(address.get(l)); }
    METALCPU_INLINE bool consecutive() const {
        return all(address == addresses::iota(address.get(0), sizeof(T)));
    }

};

/// Values that step by a uniform amount from lane to lane, lane l's first + l * step: gid.x in
/// a row of threads, `gid.x * 4`, an index built from them with uniform values. Kept as two
/// scalars, so that a pointer indexed by one is known contiguous or not without looking at
/// the lanes (linear_pointer); made a varying value where it meets one.
template <class I, int N, int Bytes = lane_detail::register_bytes> struct linear {
    static_assert(varying<I, N, Bytes>::integral, "linear values are integers (indices)");
    I first;
    I step;

    /// first, first + 1, ...: gid.x of a row of threads whose lane 0 has gid.x == first.
    METALCPU_INLINE static linear lane_index(I first) { return {first, I(1)}; }
    METALCPU_INLINE I lane(int l) const { return I(first + I(l) * step); }
    METALCPU_INLINE operator varying<I, N, Bytes>() const { return varying<I, N, Bytes>::iota(first, step); }

    friend METALCPU_INLINE linear operator+(const linear& a, I u) { return {I(a.first + u), a.step}; }
    friend METALCPU_INLINE linear operator+(I u, const linear& a) { return {I(u + a.first), a.step}; }
    friend METALCPU_INLINE linear operator-(const linear& a, I u) { return {I(a.first - u), a.step}; }
    friend METALCPU_INLINE linear operator*(const linear& a, I u) { return {I(a.first * u), I(a.step * u)}; }
    friend METALCPU_INLINE linear operator*(I u, const linear& a) { return {I(u * a.first), I(u * a.step)}; }
    friend METALCPU_INLINE linear operator+(const linear& a, const linear& b) {
        return {I(a.first + b.first), I(a.step + b.step)};
    }
    friend METALCPU_INLINE linear operator-(const linear& a, const linear& b) {
        return {I(a.first - b.first), I(a.step - b.step)};
    }
    /// Whether first + l * step stays in I for every lane: an unsigned index that wraps
    /// between two lanes puts them far apart in memory, not a step apart.
    METALCPU_INLINE bool steps_without_wrapping() const {
        if constexpr (I(-1) > I(0)) {
            const I span = I(step * I(N - 1));
            return step == I(0) || (span / step == I(N - 1) && first <= I(I(-1) - span));
        } else {
            return true; // signed overflow is undefined for the thread too
        }
    }
};

/// N threads' pointers `base + index` for a linear index: lane l's pointer is base plus
/// index.lane(l) elements of the type base was declared with (`unit` bytes each): contiguous
/// when the lanes step by one T without wrapping (two scalar tests, the same for a whole loop
/// when the index is).
template <class T, class I, int N, int Bytes = lane_detail::register_bytes>
struct linear_pointer : lane_access<linear_pointer<T, I, N, Bytes>, T, N, Bytes> {
    const char* base;
    linear<I, N, Bytes> index;
    long long unit;

    template <class U> METALCPU_INLINE static linear_pointer at(U* base, const linear<I, N, Bytes>& index) {
        return {{}, reinterpret_cast<const char*>(base), index, (long long)sizeof(U)};
    }
    /// `(device float4*)p`: the same addresses, another pointee.
    template <class U> METALCPU_INLINE linear_pointer<U, I, N, Bytes> as() const { return {{}, base, index, unit}; }
    /// `p + offset` with a uniform offset, in Ts.
    friend METALCPU_INLINE linear_pointer operator+(linear_pointer p, long long offset) {
        p.base += offset * (long long)sizeof(T);
        return p;
    }

    METALCPU_INLINE T* lane(int l) const {
        const I i = index.lane(l);
        long long offset;
        if constexpr (I(-1) > I(0)) offset = (long long)(unsigned long long)i;
        else offset = (long long)i;
        return reinterpret_cast<T*>(const_cast<char*>(base + offset * unit));
    }
    METALCPU_INLINE bool consecutive() const {
        return (long long)index.step * unit == (long long)sizeof(T) && index.steps_without_wrapping();
    }

};

/// `p + index` as the kernel writes it, with a uniform pointer and a per-lane index: found by
/// argument-dependent lookup, so the translator can leave the expression's text as it is.
template <class T, class I, int N, int Bytes>
METALCPU_INLINE linear_pointer<T, I, N, Bytes> operator+(T* base, const linear<I, N, Bytes>& index) {
    return linear_pointer<T, I, N, Bytes>::at(base, index);
}
template <class T, class I, int N, int Bytes>
METALCPU_INLINE varying_pointer<T, N, Bytes> operator+(T* base, const varying<I, N, Bytes>& index)
    requires(varying<I, N, Bytes>::integral && varying<I, N, Bytes>::components == 1)
{
    return varying_pointer<T, N, Bytes>::at(base, index);
}

/// N threads' matrices: C varying columns, so that `m[c]` is a varying column and a product
/// is written, as metal::matrix writes it, as sums of columns scaled by scalars.
template <class E, int C, int R, int N, int Bytes> struct varying<metal::matrix<E, C, R>, N, Bytes> {
    using uniform_type = metal::matrix<E, C, R>;
    using column_type = varying<metal::vec<E, R>, N, Bytes>;
    column_type columns[C];

    varying() = default;
    METALCPU_INLINE varying(const uniform_type& u) {
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) columns[c] = column_type(u.columns[c]);
    }
    template <class... A>
        requires(sizeof...(A) == C)
    METALCPU_INLINE varying(const A&... cols) : columns{column_type(cols)...} {}

    METALCPU_INLINE column_type& operator[](int c) { return columns[c]; }
    METALCPU_INLINE const column_type& operator[](int c) const { return columns[c]; }

    METALCPU_INLINE uniform_type lane(int l) const {
        uniform_type r;
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) r.columns[c] = columns[c].lane(l);
        return r;
    }

    // m * v: sum over columns of column * v[c], in metal::matrix's order.
    friend METALCPU_INLINE column_type operator*(const varying& m, const metal::vec<E, C>& v) {
        column_type r = m.columns[0] * v[0];
#pragma GCC unroll 4
        for (int c = 1; c < C; ++c) r += m.columns[c] * v[c];
        return r;
    }
    friend METALCPU_INLINE column_type operator*(const varying& m, const varying<metal::vec<E, C>, N, Bytes>& v) {
        column_type r = m.columns[0] * v.component(0);
#pragma GCC unroll 4
        for (int c = 1; c < C; ++c) r += m.columns[c] * v.component(c);
        return r;
    }
    friend METALCPU_INLINE column_type operator*(const uniform_type& m, const varying<metal::vec<E, C>, N, Bytes>& v) {
        column_type r = column_type(m.columns[0]) * v.component(0);
#pragma GCC unroll 4
        for (int c = 1; c < C; ++c) r += column_type(m.columns[c]) * v.component(c);
        return r;
    }
    // (R x C) * (C x K): column j of the product is a * (column j of b), either side varying.
    template <int K>
    friend METALCPU_INLINE varying<metal::matrix<E, K, R>, N, Bytes> operator*(const varying& a,
                                                                              const metal::matrix<E, K, C>& b) {
        return product<K>(a, b);
    }
    template <int K>
    friend METALCPU_INLINE varying<metal::matrix<E, K, R>, N, Bytes>
    operator*(const varying& a, const varying<metal::matrix<E, K, C>, N, Bytes>& b) {
        return product<K>(a, b);
    }
    template <int K>
    friend METALCPU_INLINE varying<metal::matrix<E, K, R>, N, Bytes>
    operator*(const uniform_type& a, const varying<metal::matrix<E, K, C>, N, Bytes>& b) {
        return product<K>(a, b);
    }

    METALCPU_INLINE varying& operator+=(const varying& b) {
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) columns[c] += b.columns[c];
        return *this;
    }
    METALCPU_INLINE varying& operator-=(const varying& b) {
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) columns[c] -= b.columns[c];
        return *this;
    }
    METALCPU_INLINE varying& operator*=(E s) {
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) columns[c] *= s;
        return *this;
    }
    friend METALCPU_INLINE varying operator+(varying a, const varying& b) { return a += b; }
    friend METALCPU_INLINE varying operator-(varying a, const varying& b) { return a -= b; }
    friend METALCPU_INLINE varying operator*(varying a, E s) { return a *= s; }
    friend METALCPU_INLINE varying operator*(E s, varying a) { return a *= s; }

private:
    template <int K, class A, class B> METALCPU_INLINE static varying<metal::matrix<E, K, R>, N, Bytes> product(const A& a, const B& b) {
        varying<metal::matrix<E, K, R>, N, Bytes> r;
#pragma GCC unroll 4
        for (int j = 0; j < K; ++j) r.columns[j] = a * b.columns[j];
        return r;
    }
};

} // namespace metalcpu_kernel
