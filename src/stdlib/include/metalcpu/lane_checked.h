// The lane form under shader validation (issue 14; docs/compiler.md, "The lane form"): what
// the translator's lane form of a validated kernel calls for its accesses of device and
// constant memory. Only the instrumented flavour includes this, after checked.h and
// lane_statements.h.
//
// A block's vector access (a row of N threads' `p[i]` or `*(T*)(p + i)`) is checked once, as
// the first and the last lane's objects against p's region (checked.h's inside_region): when
// both lie inside and the lanes' addresses step without wrapping, every lane's does, no
// lane's check can fail, and the access is the plain flavour's vector access. Otherwise each
// lane makes the scalar form's own checked access in turn, lane 0 first, with the block's
// current thread set to the lane's (what a report names): reports, the zeroed stand-in a
// failed load reads and the dropped store are those of the interleaved form, lane for lane.
// A uniform access (`a[gid.y * n + k]`, the same for every lane of a row) is likewise one
// check for the block, and each lane's checked access when it fails: the interleaved form
// makes it once per thread, and so reports it once per thread.
//
// What lanes cannot order as threads do: within one statement, the interleaved form makes
// all of one thread's accesses before the next thread's, the lane form all lanes of one
// access before the next access. Reports of a block in which two accesses of one statement
// both fail come in that other order (each lane's reports are the same).
#pragma once

#include <metalcpu/checked.h>
#include <metalcpu/lane_statements.h>

namespace metalcpu_kernel {

namespace lane_detail {
template <class Index> struct lanes_of;
template <class I, int N, int B> struct lanes_of<linear<I, N, B>> {
    static constexpr int value = N;
};
template <class I, int N, int B> struct lanes_of<varying<I, N, B>> {
    static constexpr int value = N;
};
} // namespace lane_detail

/// The lanes of a row's index, for range_inside() (checked.h): a loop's accesses checked once
/// for every lane of the block.
template <class I, int N, int B> struct range_lanes<linear<I, N, B>> {
    static constexpr int count = N;
    static METALCPU_INLINE I lane(const linear<I, N, B>& v, int l) { return v.lane(l); }
};
template <class I, int N, int B> struct range_lanes<varying<I, N, B>> {
    static constexpr int count = N;
    static METALCPU_INLINE auto lane(const varying<I, N, B>& v, int l) { return v.lane(l); }
};

/// Whether the block runs the lane form in the validated flavour: lane_whole_row(), and the
/// threadgroup watch is off (races, uninitialized), which is told of each thread's accesses
/// one by one: with it on every block runs the interleaved form.
template <bool TracksReturns, mc_u32 W, bool HasLaneForm>
METALCPU_INLINE bool lane_whole_row_checked(const lane_block<TracksReturns, W, HasLaneForm>& block) {
    return *g_access_watch == 0 && lane_whole_row(block);
}

/// N threads' pointers `(U*)(base + index)`, `base` a checked pointer to T and `index` a
/// per-lane integer (linear or varying): the checked twin of linear_pointer/varying_pointer,
/// keeping the named pointer whose region the lanes are checked against.
template <class U, class T, int S, class Index> struct checked_lanes {
    checked_ptr<T, S> base;
    Index index;

    /// The offset in bytes of lane l's object from base, as the scalar form's `base + i`
    /// computes it (the index converted to long long, then scaled).
    METALCPU_INLINE mc_u64 offset(int l) const {
        return static_cast<mc_u64>(static_cast<long long>(index.lane(l))) * size_or_one<T>::value;
    }
    /// Lane l's pointer as the scalar form has it: `(U*)(base + i)`.
    METALCPU_INLINE checked_ptr<U, S> lane(int l) const {
        return checked_ptr<U, S>::from_bits(base.bits + offset(l));
    }
    /// Whether every lane's object lies inside base's region.
    METALCPU_INLINE bool inside() const {
        if constexpr (requires { index.steps_without_wrapping(); }) {
            constexpr int last = lane_detail::lanes_of<Index>::value - 1;
            return index.steps_without_wrapping() & inside_region<U>(base.bits, offset(0)) &
                   inside_region<U>(base.bits, offset(last));
        } else {
            bool all_inside = true;
#pragma GCC unroll 16
            for (int l = 0; l < lane_detail::lanes_of<Index>::value; ++l)
                all_inside &= inside_region<U>(base.bits, offset(l));
            return all_inside;
        }
    }
    /// `p + n` with a uniform n, in Us: what the scalar form's checked_ptr arithmetic adds to
    /// each lane's bits (the sum is the same whichever of the two it is added to).
    friend METALCPU_INLINE checked_lanes operator+(checked_lanes p, long long n) {
        p.base = checked_ptr<T, S>::from_bits(p.base.bits + static_cast<mc_u64>(n) * size_or_one<U>::value);
        return p;
    }
    friend METALCPU_INLINE checked_lanes operator+(long long n, const checked_lanes& p) { return p + n; }
    friend METALCPU_INLINE checked_lanes operator-(const checked_lanes& p, long long n) {
        return p + static_cast<long long>(0ull - static_cast<mc_u64>(n));
    }
    /// The plain flavour's lane pointer to the same addresses.
    METALCPU_INLINE auto unchecked() const { return (base.address() + index).template as<U>(); }
};

/// `p + index` with a checked p and a per-lane index.
template <class T, int S, class I, int N, int B>
METALCPU_INLINE checked_lanes<T, T, S, linear<I, N, B>> operator+(checked_ptr<T, S> base, const linear<I, N, B>& index) {
    return {base, index};
}
template <class T, int S, class I, int N, int B>
METALCPU_INLINE checked_lanes<T, T, S, varying<I, N, B>> operator+(checked_ptr<T, S> base, const varying<I, N, B>& index)
    requires(varying<I, N, B>::integral && varying<I, N, B>::components == 1)
{
    return {base, index};
}

/// `(device float4*)(p + index)`: the same lanes, another pointee (Target is the checked
/// pointer type the validated flavour writes for the cast).
template <class Target, class U, class T, int S, class Index>
METALCPU_INLINE auto lane_cast(const checked_lanes<U, T, S, Index>& p) {
    return checked_lanes<typename pointee_of<Target>::type, T, S, Index>{p.base, p.index};
}

/// Makes lane l's thread the block's current one, which a report names.
template <class Block> METALCPU_INLINE void lane_reports_as(const Block& block, mc_u32 l) {
    const_cast<mc_group*>(block.group())->current_thread = static_cast<unsigned short>(block.ids(l).linear);
}

/// `*p` or `p[i]` of a row of threads through a checked lane pointer.
template <class Block, class U, class T, int S, class Index>
METALCPU_INLINE auto lane_checked_load(const Block& block, const checked_lanes<U, T, S, Index>& p, const mc_site& site) {
    using value = decltype(p.unchecked().load());
    if (__builtin_expect(p.inside(), 1)) return p.unchecked().load();
    value r;
#pragma GCC unroll 16
    for (int l = 0; l < lane_detail::lanes_of<Index>::value; ++l) {
        lane_reports_as(block, l);
        r.set_lane(l, checked_element(p.lane(l), 0, MC_OP_LOAD, site));
    }
    return r;
}
/// `*p = v;` or `p[i] = v;` of a row of threads through a checked lane pointer.
template <class Block, class U, class T, int S, class Index, class V>
METALCPU_INLINE void lane_checked_store(const Block& block, const checked_lanes<U, T, S, Index>& p, const mc_site& site,
                                        const V& v) {
    using value = decltype(p.unchecked().load());
    const value lanes = lane_as<value>(v);
    if (__builtin_expect(p.inside(), 1)) return p.unchecked().store(lanes);
#pragma GCC unroll 16
    for (int l = 0; l < lane_detail::lanes_of<Index>::value; ++l) {
        lane_reports_as(block, l);
        checked_element(p.lane(l), 0, MC_OP_STORE, site) = lanes.lane(l);
    }
}

/// Whether the scalar form's checked access of the T at `p + i` (with `hint`: `load(p, 0,
/// site, hint)`, checked against the hint's region, checked.h's checked_element_near) passes.
template <class T, class P> METALCPU_INLINE bool uniform_inside(const P& p, mc_u64 offset) {
    return inside_region<T>(p.bits, offset);
}
template <class T, class P, class H> METALCPU_INLINE bool uniform_inside(const P& p, mc_u64, const H& hint) {
    const mc_region& region = g_regions[hint.bits >> METALCPU_REGION_TAG_SHIFT];
    const mc_u64 into = p.bits - ((hint.bits & ~kAddressMask) + region.begin);
    const mc_u64 span = region.length >= sizeof(T) ? region.length - (sizeof(T) - 1) : 0;
    return into < span;
}

/// Whether lane_uniform_load() checks `load(p, i, site, hint...)` itself, p of type X: a
/// checked pointer to one element (not a named threadgroup array, which checks by index), with
/// a hint that access_near() takes. Anything else is the scalar form's access as written.
template <class X, class... Hint> constexpr bool checks_once() {
    if constexpr (!is_checked_ptr_t<X>::value) {
        return false;
    } else if constexpr (array_traits<typename pointee_of<X>::type>::is_array ||
                         !__is_same(X, checked_ptr<typename pointee_of<X>::type, pointee_of<X>::space>)) {
        return false;
    } else if constexpr (sizeof...(Hint) == 0) {
        return true;
    } else {
        return checks_near<X, Hint...>();
    }
}

/// A checked access the lanes of a row share (`load(p, i, site)` or `load(p, 0, site, hint)`
/// of the scalar form, written `lane_uniform_load(block, p, i, site...)`): one check for the
/// block; when it fails, each lane's own access in turn, so that each thread reports it.
template <bool TracksReturns, mc_u32 W, bool HasLaneForm, class P, class I, class... Hint>
METALCPU_INLINE decltype(auto) lane_uniform_load(const lane_block<TracksReturns, W, HasLaneForm>& block, P&& p, I i,
                                                 const mc_site& site, const Hint&... hint) {
    using X = remove_cvref<P>;
    if constexpr (checks_once<X, Hint...>()) {
        using T = typename pointee_of<X>::type;
        const mc_u64 offset = static_cast<mc_u64>(static_cast<long long>(i)) * sizeof(T);
        if (__builtin_expect(uniform_inside<T>(p, offset, hint...), 1)) {
            if constexpr (pointee_of<X>::space == MC_ADDRESS_SPACE_THREADGROUP) return load(p, i, site, hint...);
            else return *reinterpret_cast<T*>((p.bits & kAddressMask) + offset);
        }
        T* object = nullptr;
#pragma GCC unroll 16
        for (mc_u32 l = 0; l < W; ++l) {
            lane_reports_as(block, l);
            object = &load(p, i, site, hint...);
            // Each lane's access is made: the report's call is pure, and one whose result
            // went unused (all but the last lane's) would be dropped with its report.
            __asm__ __volatile__("" : : "r"(object) : "memory");
        }
        return *object;
    } else {
        return load(static_cast<P&&>(p), i, site, hint...);
    }
}

/// The accesses of a loop whose range range_inside() found inside (`inside`): the plain
/// flavour's, where it did; the checked ones above otherwise.
template <class Block, class U, class T, int S, class Index>
METALCPU_INLINE auto lane_checked_load_in(bool inside, const Block& block, const checked_lanes<U, T, S, Index>& p,
                                          const mc_site& site) {
    if (inside) return p.unchecked().load();
    return lane_checked_load(block, p, site);
}
template <class Block, class U, class T, int S, class Index, class V>
METALCPU_INLINE void lane_checked_store_in(bool inside, const Block& block, const checked_lanes<U, T, S, Index>& p,
                                           const mc_site& site, const V& v) {
    using value = decltype(p.unchecked().load());
    if (inside) return p.unchecked().store(lane_as<value>(v));
    lane_checked_store(block, p, site, v);
}
template <bool TracksReturns, mc_u32 W, class P, class I>
METALCPU_INLINE decltype(auto) lane_uniform_load_in(bool inside, const lane_block<TracksReturns, W>& block, P&& p, I i,
                                                    const mc_site& site) {
    using X = remove_cvref<P>;
    if constexpr (checks_once<X>()) {
        using T = typename pointee_of<X>::type;
        if (inside) return static_cast<decltype(lane_uniform_load(block, p, i, site))>(
                *reinterpret_cast<T*>((p.bits & kAddressMask) + static_cast<mc_u64>(static_cast<long long>(i)) * sizeof(T)));
    }
    return lane_uniform_load(block, static_cast<P&&>(p), i, site);
}

} // namespace metalcpu_kernel
