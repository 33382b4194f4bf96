// The SIMD-group and quad-group functions of <metal_simdgroup> and <metal_quadgroup>, written
// once over "a group of lanes": the caller's whole SIMD-group, or its quad (4 consecutive lanes).
//
// Every function first hands the caller's value to the runtime's rendezvous
// (metalcpu_kernel::simdgroup_exchange), which returns once every live thread of the
// SIMD-group has done the same; each thread then computes its own result from the values of
// the round. So a collective synchronises only its SIMD-group, and works over its *active*
// threads: those that exist (a partial SIMD-group at the end of a threadgroup), have not
// returned, and are at the same collective (its call's site, metalcpu_kernel::simd_site: the
// public functions take it as a defaulted last parameter, and pass it down). Where Metal leaves a result undefined (reading a lane that is inactive or outside
// the group), the result is zero; where Metal keeps the caller's value (the lanes that
// simd_shuffle_up/down move nothing into), it does too.
#pragma once

#include <metalcpu/kernel_services.h>
#include <metalcpu/stdlib/args.h>
#include <metal_common>

namespace metalcpu_stdlib::simd {

/// The value type of a collective's argument: a swizzle or packed vector becomes its vec.
template <class X> using value_t = typename arg_info<X>::type;

/// The lanes of one round that a collective works over.
struct lanes {
    mc_simd_round round;
    metalcpu_kernel::simd_replay* replay; ///< in a kernel split into work-item loops
    unsigned first; ///< the group's first lane in the SIMD-group
    unsigned count; ///< lanes in the group: the SIMD width, or 4 for a quad

    unsigned self() const { return round.lane - first; }
    /// simd_collect's first pass, which only records the lanes' values: the result is thrown
    /// away, so the functions with loops over the lanes return at once.
    bool recording() const { return replay && replay->recording; }
    bool active(unsigned i) const { return i < count && ((round.active >> (first + i)) & 1u) != 0; }
    /// Bit i: lane i of the group is active.
    mc_u64 mask() const {
        const mc_u64 all = count >= 64 ? ~mc_u64(0) : (mc_u64(1) << count) - 1;
        return (round.active >> first) & all;
    }
    unsigned first_active() const { return static_cast<unsigned>(__builtin_ctzll(mask() | (mc_u64(1) << 63))); }
    /// Lane i's value; zero for a lane that is inactive or outside the group.
    template <class T>
    T at(unsigned i) const {
        T value{};
        if (active(i)) value = active_at<T>(i);
        return value;
    }
    /// Lane i's value, for a lane known to be active.
    template <class T>
    T active_at(unsigned i) const {
        T value;
        __builtin_memcpy(static_cast<void*>(&value), round.values + (first + i) * METALCPU_SIMD_VALUE_BYTES, sizeof(T));
        return value;
    }
};

using metalcpu_kernel::simd_site;

// The kinds of the functions that take no operation type (reduce's kind is its Op).
struct shuffle_kind;
struct shuffle_up_kind;
struct shuffle_down_kind;
struct shuffle_xor_kind;
struct shuffle_rotate_up_kind;
struct shuffle_rotate_down_kind;
struct shuffle_and_fill_up_kind;
struct shuffle_and_fill_down_kind;
struct broadcast_first_kind;
struct ballot_kind;
struct is_first_kind;

/// The kind of a collective: the function (Name), quad or SIMD-group, and its value type.
template <class Name, bool Quad, class T>
constexpr const void* kind_of = &metalcpu_kernel::simd_kind<Name, T, char[Quad ? 2 : 1]>;

/// Hands in the caller's value at the collective `where` (of kind Name) and returns the round,
/// seen from the caller's group.
template <bool Quad, class Name, class T>
METALCPU_INLINE lanes exchange(const T& value, const simd_site& where) {
    static_assert(sizeof(T) <= METALCPU_SIMD_VALUE_BYTES, "a SIMD-group function's argument is at most 64 bytes");
    lanes l{};
    l.replay = metalcpu_kernel::simdgroup_exchange(&value, sizeof(T), where, kind_of<Name, Quad, T>, &l.round);
    l.count = Quad ? 4u : l.round.width;
    l.first = Quad ? (l.round.lane & ~3u) : 0u;
    return l;
}

struct plus { template <class T> T operator()(const T& a, const T& b) const { return T(a + b); } };
struct times { template <class T> T operator()(const T& a, const T& b) const { return T(a * b); } };
struct lesser { template <class T> T operator()(const T& a, const T& b) const { return T(metal::min(a, b)); } };
struct greater { template <class T> T operator()(const T& a, const T& b) const { return T(metal::max(a, b)); } };
struct bit_and { template <class T> T operator()(const T& a, const T& b) const { return T(a & b); } };
struct bit_or { template <class T> T operator()(const T& a, const T& b) const { return T(a | b); } };
struct bit_xor { template <class T> T operator()(const T& a, const T& b) const { return T(a ^ b); } };

/// op over the active lanes, in lane order. Replaying a record (work-item loops), the first
/// lane of a group computes it and the others take its result.
template <bool Quad, class T, class Op>
METALCPU_INLINE T reduce(const T& value, Op op, const simd_site& where) {
    const lanes l = exchange<Quad, Op>(value, where);
    T result = value;
    if (l.recording()) return result;
    const bool shared = l.replay && !l.replay->recording;
    if (shared && l.replay->uniform_lanes[0] == l.first) {
        __builtin_memcpy(static_cast<void*>(&result), l.replay->uniform, sizeof(T));
        return result;
    }
    mc_u64 left = l.mask();
    if (left == (l.count >= 64 ? ~mc_u64(0) : (mc_u64(1) << l.count) - 1)) {
        // Every lane (the usual case): a counted loop, unrolled, stepping a pointer (a lane
        // is one operation).
        const unsigned char* lane = l.round.values + mc_u64(l.first) * METALCPU_SIMD_VALUE_BYTES;
        __builtin_memcpy(static_cast<void*>(&result), lane, sizeof(T));
        const unsigned char* const end = lane + mc_u64(l.count) * METALCPU_SIMD_VALUE_BYTES;
#pragma GCC unroll 8
        for (lane += METALCPU_SIMD_VALUE_BYTES; lane != end; lane += METALCPU_SIMD_VALUE_BYTES) {
            T value;
            __builtin_memcpy(static_cast<void*>(&value), lane, sizeof(T));
            result = op(result, value);
        }
    } else if (left) {
        // Over the set bits of the mask, lowest first: no test per lane for the inactive ones.
        result = l.active_at<T>(static_cast<unsigned>(__builtin_ctzll(left)));
        for (left &= left - 1; left; left &= left - 1)
            result = op(result, l.active_at<T>(static_cast<unsigned>(__builtin_ctzll(left))));
    }
    if (shared) {
        __builtin_memcpy(l.replay->uniform, static_cast<const void*>(&result), sizeof(T));
        l.replay->uniform_lanes[0] = l.first;
        l.replay->uniform_lanes[1] = l.first + l.count;
    }
    return result;
}

template <class Op, bool Inclusive> struct prefix_kind {};

/// op over the active lanes below the caller (and the caller, when inclusive), from `identity`.
template <bool Quad, bool Inclusive, class T, class Op>
METALCPU_INLINE T prefix(const T& value, Op op, const T& identity, const simd_site& where) {
    const lanes l = exchange<Quad, prefix_kind<Op, Inclusive>>(value, where);
    T result = identity;
    if (l.recording()) return result;
    const unsigned end = l.self() + (Inclusive ? 1u : 0u);
    for (unsigned i = 0; i < end; ++i)
        if (l.active(i)) result = op(result, l.at<T>(i));
    return result;
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle(const T& value, unsigned lane, const simd_site& where) {
    return exchange<Quad, shuffle_kind>(value, where).template at<T>(lane);
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle_up(const T& value, unsigned delta, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_up_kind>(value, where);
    return l.self() < delta ? value : l.at<T>(l.self() - delta);
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle_down(const T& value, unsigned delta, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_down_kind>(value, where);
    return l.self() + delta >= l.count ? value : l.at<T>(l.self() + delta);
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle_xor(const T& value, unsigned mask, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_xor_kind>(value, where);
    return l.at<T>(l.self() ^ mask);
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle_rotate_up(const T& value, unsigned delta, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_rotate_up_kind>(value, where);
    return l.at<T>((l.self() + l.count - delta % l.count) % l.count);
}

template <bool Quad, class T>
METALCPU_INLINE T shuffle_rotate_down(const T& value, unsigned delta, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_rotate_down_kind>(value, where);
    return l.at<T>((l.self() + delta) % l.count);
}

template <class T>
struct data_and_filling {
    T data, filling;
};

/// Within each run of `modulo` lanes (the whole group when 0): lane g takes data from g - delta,
/// and the lowest `delta` lanes take filling from the top of the run.
template <bool Quad, class T>
METALCPU_INLINE T shuffle_and_fill_up(const T& data, const T& filling, unsigned delta, unsigned modulo, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_and_fill_up_kind>(data_and_filling<T>{data, filling}, where);
    const unsigned m = modulo == 0 || modulo > l.count ? l.count : modulo;
    const unsigned g = l.self() % m, base = l.self() - g;
    if (g >= delta) return l.at<data_and_filling<T>>(base + g - delta).data;
    return l.at<data_and_filling<T>>(base + m - delta + g).filling;
}

/// Within each run of `modulo` lanes: lane g takes data from g + delta, and the top `delta`
/// lanes take filling from the bottom of the run.
template <bool Quad, class T>
METALCPU_INLINE T shuffle_and_fill_down(const T& data, const T& filling, unsigned delta, unsigned modulo, const simd_site& where) {
    const lanes l = exchange<Quad, shuffle_and_fill_down_kind>(data_and_filling<T>{data, filling}, where);
    const unsigned m = modulo == 0 || modulo > l.count ? l.count : modulo;
    const unsigned g = l.self() % m, base = l.self() - g;
    if (g + delta < m) return l.at<data_and_filling<T>>(base + g + delta).data;
    return l.at<data_and_filling<T>>(base + g + delta - m).filling;
}

template <bool Quad, class T>
METALCPU_INLINE T broadcast_first(const T& value, const simd_site& where) {
    const lanes l = exchange<Quad, broadcast_first_kind>(value, where);
    return l.at<T>(l.first_active());
}

/// Bit i: lane i of the group is active and its `expr` is true; and the active lanes.
template <bool Quad>
METALCPU_INLINE void ballot(bool expr, mc_u64& votes, mc_u64& active, const simd_site& where) {
    const lanes l = exchange<Quad, ballot_kind>(expr, where);
    votes = 0;
    active = 0;
    if (l.recording()) return;
    for (unsigned i = 0; i < l.count; ++i)
        if (l.at<bool>(i)) votes |= mc_u64(1) << i;
    active = l.mask();
}

template <bool Quad>
METALCPU_INLINE bool is_first(const simd_site& where) {
    const lanes l = exchange<Quad, is_first_kind>(true, where);
    return l.self() == l.first_active();
}

/// What simd_ballot and quad_ballot return: one bit per lane of the group.
template <class V>
class vote {
public:
    using vote_t = V;
    explicit constexpr vote(vote_t bits = 0) : bits_(bits), active_(static_cast<vote_t>(~vote_t(0))) {}
    constexpr vote(vote_t bits, vote_t active) : bits_(bits), active_(active) {}
    explicit constexpr operator vote_t() const { return bits_; }
    /// Every active thread voted true (every bit, for a vote made from a number).
    constexpr bool all() const { return (bits_ & active_) == active_; }
    constexpr bool any() const { return bits_ != 0; }

private:
    vote_t bits_;
    vote_t active_;
};

} // namespace metalcpu_stdlib::simd

// The public functions of one scope, `simd_*` or `quad_*` (Quad false or true), in
// namespace metal: thin templates over the value type, so any arithmetic type that has the
// operators (half, bfloat, vectors of them) works without overloads of its own.
#define METALCPU_DEFINE_GROUP_FUNCTIONS(P, Quad, vote_type)                                                    \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_sum(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::plus{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_product(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::times{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_min(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::lesser{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_max(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::greater{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_and(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::bit_and{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_or(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::bit_or{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_xor(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::reduce<Quad>(metalcpu_stdlib::simd::value_t<X>(x), metalcpu_stdlib::simd::bit_xor{}, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_prefix_inclusive_sum(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::prefix<Quad, true>(T(x), metalcpu_stdlib::simd::plus{}, T(0), where);    \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_prefix_exclusive_sum(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::prefix<Quad, false>(T(x), metalcpu_stdlib::simd::plus{}, T(0), where);   \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_prefix_inclusive_product(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::prefix<Quad, true>(T(x), metalcpu_stdlib::simd::times{}, T(1), where);   \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_prefix_exclusive_product(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::prefix<Quad, false>(T(x), metalcpu_stdlib::simd::times{}, T(1), where);  \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle(const X& x, ushort lane, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle<Quad>(metalcpu_stdlib::simd::value_t<X>(x), lane, where);        \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_up(const X& x, ushort delta, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle_up<Quad>(metalcpu_stdlib::simd::value_t<X>(x), delta, where);    \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_down(const X& x, ushort delta, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle_down<Quad>(metalcpu_stdlib::simd::value_t<X>(x), delta, where);  \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_xor(const X& x, ushort mask, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle_xor<Quad>(metalcpu_stdlib::simd::value_t<X>(x), mask, where);    \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_rotate_up(const X& x, ushort delta, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle_rotate_up<Quad>(metalcpu_stdlib::simd::value_t<X>(x), delta, where); \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_rotate_down(const X& x, ushort delta, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle_rotate_down<Quad>(metalcpu_stdlib::simd::value_t<X>(x), delta, where); \
    }                                                                                                          \
    template <class X, class Y>                                                                                \
    METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_and_fill_up(const X& data, const Y& filling, \
                                                                               ushort delta, ushort modulo,     \
        ::metalcpu_kernel::simd_site where = {}) {                                                             \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::shuffle_and_fill_up<Quad>(T(data), T(filling), delta, modulo, where);    \
    }                                                                                                          \
    /* Without a modulo: an overload rather than a default, so that a site can follow the delta. */            \
    template <class X, class Y>                                                                                \
    METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_and_fill_up(const X& data, const Y& filling, \
        ushort delta, ::metalcpu_kernel::simd_site where = {}) {                                               \
        return P##_shuffle_and_fill_up(data, filling, delta, ushort(0), where);                                \
    }                                                                                                          \
    template <class X, class Y>                                                                                \
    METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_and_fill_down(const X& data, const Y& filling, \
                                                                                 ushort delta, ushort modulo,     \
        ::metalcpu_kernel::simd_site where = {}) {                                                             \
        using T = metalcpu_stdlib::simd::value_t<X>;                                                           \
        return metalcpu_stdlib::simd::shuffle_and_fill_down<Quad>(T(data), T(filling), delta, modulo, where);  \
    }                                                                                                          \
    /* Without a modulo: an overload rather than a default, so that a site can follow the delta. */            \
    template <class X, class Y>                                                                                \
    METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_shuffle_and_fill_down(const X& data, const Y& filling,\
        ushort delta, ::metalcpu_kernel::simd_site where = {}) {                                               \
        return P##_shuffle_and_fill_down(data, filling, delta, ushort(0), where);                              \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_broadcast(const X& x, ushort lane, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::shuffle<Quad>(metalcpu_stdlib::simd::value_t<X>(x), lane, where);        \
    }                                                                                                          \
    template <class X> METALCPU_INLINE metalcpu_stdlib::simd::value_t<X> P##_broadcast_first(const X& x, ::metalcpu_kernel::simd_site where = {}) { \
        return metalcpu_stdlib::simd::broadcast_first<Quad>(metalcpu_stdlib::simd::value_t<X>(x), where);      \
    }                                                                                                          \
    METALCPU_INLINE vote_type P##_ballot(bool expr, ::metalcpu_kernel::simd_site where = {}) {                 \
        mc_u64 votes = 0, active = 0;                                                                          \
        metalcpu_stdlib::simd::ballot<Quad>(expr, votes, active, where);                                       \
        return vote_type(vote_type::vote_t(votes), vote_type::vote_t(active));                                 \
    }                                                                                                          \
    METALCPU_INLINE vote_type P##_active_threads_mask(::metalcpu_kernel::simd_site where = {}) {               \
        mc_u64 votes = 0, active = 0;                                                                          \
        metalcpu_stdlib::simd::ballot<Quad>(true, votes, active, where);                                       \
        return vote_type(vote_type::vote_t(active), vote_type::vote_t(active));                                \
    }                                                                                                          \
    METALCPU_INLINE bool P##_any(bool expr, ::metalcpu_kernel::simd_site where = {}) { return P##_ballot(expr, where).any(); } \
    METALCPU_INLINE bool P##_all(bool expr, ::metalcpu_kernel::simd_site where = {}) { return P##_ballot(expr, where).all(); } \
    METALCPU_INLINE bool P##_is_first(::metalcpu_kernel::simd_site where = {}) { return metalcpu_stdlib::simd::is_first<Quad>(where); }
