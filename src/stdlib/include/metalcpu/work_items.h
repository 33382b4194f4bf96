// Barrier kernels as work-item loops: the front end splits a kernel at its barriers (see
// src/compiler/passes/work_item_loops.h) and runs each piece as a loop over the group's
// threads. This is what that code calls: the per-thread slots of variables that live across
// a barrier, and the loop itself.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/barrier_rounds.h>
#endif
// remove_cv_t and thread_ids come from kernel_support.h, which includes this file last.

namespace metalcpu_kernel {

/// Selects the placement form of operator new below (kernels have no <new>).
struct work_item_slot_tag {};

} // namespace metalcpu_kernel

// Not noexcept: a new-expression must test what a non-throwing operator new returns for null
// before it constructs, a compare and a branch at every slot a piece writes; a slot's address
// is never null.
inline void* operator new(decltype(sizeof 0), metalcpu_kernel::work_item_slot_tag, void* where) {
    return where;
}

namespace metalcpu_kernel {

/// The threads of one group, run a piece at a time. With `TracksReturns`, a thread that
/// returns drops out of the pieces after it, which is how returned threads count as arrived.
template <bool TracksReturns>
class work_items {
public:
    explicit work_items(const mc_group* group)
        : group_(group), count_(group->size[0] * group->size[1] * group->size[2]) {
        if constexpr (TracksReturns) {
            returned_ = static_cast<unsigned char*>(g_services->coroutine_frame(count_));
            for (mc_u32 i = 0; i < count_; ++i) returned_[i] = 0;
        }
    }

    /// Room for one T per thread, from the worker's per-group arena (freed when the next
    /// group starts). Each thread's object is made by place() or emplace() where its
    /// declaration runs, so T needs no default constructor; MSL types need no destructor.
    template <class T>
    typename remove_cv_t<T>::type* slots() const {
        using U = typename remove_cv_t<T>::type;
        return static_cast<U*>(g_services->coroutine_frame(sizeof(U) * count_));
    }

    /// The thread whose slots the condition of a loop or if that runs once per group reads:
    /// the first that has not returned (the condition is the same for all threads, as Metal
    /// requires of control flow around a barrier).
    mc_u32 lead() const {
        if constexpr (TracksReturns) {
            for (mc_u32 i = 0; i < count_; ++i)
                if (!returned_[i]) return i;
        }
        return 0;
    }

    bool all_returned() const {
        if constexpr (TracksReturns) {
            for (mc_u32 i = 0; i < count_; ++i)
                if (!returned_[i]) return false;
            return true;
        }
        return false;
    }

    /// What a kernel's `return` becomes inside a piece.
    void retire(const thread_ids& t) const {
        if constexpr (TracksReturns) returned_[t.slot] = 1;
    }

    /// Whether the thread with this linear index has returned; a 64-bit index, so that the
    /// loop over a row of threads can pass thread_ids::slot, which is affine there.
    bool returned(mc_u64 linear) const {
        if constexpr (TracksReturns) return returned_[linear] != 0;
        return false;
    }

    const mc_group* group() const { return group_; }
    mc_u32 count() const { return count_; }

private:
    const mc_group* group_;
    mc_u32 count_;
    unsigned char* returned_ = nullptr;
};

/// Whether some thread that has not returned has `taken(thread)`: a divergent loop (one whose
/// header differs per thread, around SIMD-group functions) goes round again.
template <bool TracksReturns, class Taken>
__attribute__((always_inline)) inline bool any_thread(const work_items<TracksReturns>& wi, const Taken& taken) {
    for (mc_u32 i = 0; i < wi.count(); ++i)
        if (!wi.returned(i) && taken(i)) return true;
    return false;
}

#ifdef METALCPU_VALIDATION
/// Where a threadgroup barrier was, in a validated kernel some of whose threads may return:
/// the barrier-divergence check (barrier_rounds.h). The threads that have not returned are
/// all at this barrier (the front end split only kernels whose barriers sit in uniform
/// control flow); those that have returned did not reach it.
template <bool TracksReturns>
inline void work_item_barrier(const work_items<TracksReturns>& wi, const mc_simd_site& site) {
    if constexpr (TracksReturns) {
        if (!(wi.group()->dispatch->checks & MC_CHECK_BARRIERS)) return;
        barrier_round_tally tally(wi.count());
        for (mc_u32 i = 0; i < wi.count(); ++i) {
            if (wi.returned(i)) tally.finished(i);
            else tally.waiting(i, site);
        }
        if (tally.divergent()) g_services->barrier_round(wi.group(), &tally.round());
    }
}

/// The SIMD-group barrier rounds of a validated kernel's threads, `at(thread)` saying where each
/// waits (nullptr: it returned, or reaches no barrier): in each SIMD-group with a thread at a
/// simdgroup_barrier, the live threads elsewhere make a round the runtime reports, as
/// check_simdgroup_barriers (coroutines.h) tells the coroutines'.
template <bool TracksReturns, class At>
inline void simdgroup_barrier_rounds(const work_items<TracksReturns>& wi, const At& at) {
    const mc_group* group = wi.group();
    const mc_u32 count = wi.count();
    const mc_u32 width = group->dispatch->simd_width ? group->dispatch->simd_width : 32;
    for (mc_u32 begin = 0; begin < count; begin += width) {
        const mc_u32 end = begin + width < count ? begin + width : count;
        const mc_simd_site* barrier = nullptr;
        for (mc_u32 i = begin; i < end && !barrier; ++i)
            if (const mc_simd_site* s = at(i); s && s->kind == MC_SIMD_BARRIER_KIND) barrier = s;
        if (!barrier) continue;
        mc_barrier_round round{};
        round.site = *barrier;
        round.first_missing = count;
        for (mc_u32 i = begin; i < end; ++i) {
            const mc_simd_site* s = at(i);
            if (!s) continue; // returned: not active
            ++round.threads;
            if (s == barrier) {
                ++round.reached;
                continue;
            }
            if (round.elsewhere++ == 0) round.other = *s;
            if (i < round.first_missing) round.first_missing = i;
        }
        if (round.elsewhere > 0) g_services->barrier_round(group, &round);
    }
}

/// The condition of a loop or if that holds a barrier and runs once per group, in a validated
/// kernel, when it reads per-thread variables: `condition(thread)` reads that thread's slots.
/// The lowering goes the first live thread's way (Metal requires the condition to be the same
/// for every thread); with the barrier-divergence check on, each live thread's is evaluated
/// too, and when they differ, the round their barriers would make is told as the other
/// lowerings tell theirs: the threads for which it holds wait at `taken`, the others at `left`
/// (line 0: they return, as no barrier follows). A round at a simdgroup_barrier is judged per
/// SIMD-group (check_simdgroup_barriers in coroutines.h does the same), any other as a
/// threadgroup round.
template <bool TracksReturns, class Condition>
inline bool uniform_condition(const work_items<TracksReturns>& wi, const Condition& condition, const mc_simd_site& taken,
                              const mc_simd_site& left) {
    const mc_u32 lead = wi.lead();
    const bool value = condition(lead);
    if (__builtin_expect(!(wi.group()->dispatch->checks & MC_CHECK_BARRIERS), 1)) return value;
    const mc_u32 count = wi.count();
    bool differs = false;
    for (mc_u32 i = 0; i < count && !differs; ++i)
        differs = !wi.returned(i) && i != lead && condition(i) != value;
    if (!differs) return value;
    // Where thread i waits: nullptr when it returns.
    const auto at = [&](mc_u32 i) -> const mc_simd_site* {
        if (wi.returned(i)) return nullptr;
        const mc_simd_site& site = (i == lead ? value : condition(i)) ? taken : left;
        return site.line != 0 ? &site : nullptr;
    };
    const mc_group* group = wi.group();
    if (taken.kind == MC_SIMD_BARRIER_KIND || left.kind == MC_SIMD_BARRIER_KIND) {
        simdgroup_barrier_rounds(wi, at);
        return value;
    }
    barrier_round_tally tally(count);
    for (mc_u32 i = 0; i < count; ++i) {
        if (const mc_simd_site* s = at(i)) tally.waiting(i, *s);
        else tally.finished(i);
    }
    if (tally.divergent()) g_services->barrier_round(group, &tally.round());
    return value;
}

/// The barrier-divergence check of an if whose condition differs per thread and whose branches
/// hold simdgroup_barriers, which the lowering runs per thread (each takes its own branch): Metal
/// asks its condition to be the same across each SIMD-group. `way(thread)` is 1 for a thread
/// that takes the first branch, 0 for one that does not, -1 for one that does not reach the if
/// (under an outer branch it does not take); the first barrier each way reaches is `taken` or
/// `left` (line 0: none). Judged per SIMD-group, as uniform_condition judges a round at a
/// simdgroup_barrier.
template <bool TracksReturns, class Way>
inline void divergent_barriers(const work_items<TracksReturns>& wi, const Way& way, const mc_simd_site& taken,
                               const mc_simd_site& left) {
    if (__builtin_expect(!(wi.group()->dispatch->checks & MC_CHECK_BARRIERS), 1)) return;
    simdgroup_barrier_rounds(wi, [&](mc_u32 i) -> const mc_simd_site* {
        if (wi.returned(i)) return nullptr;
        const int w = way(i);
        if (w < 0) return nullptr;
        const mc_simd_site& site = w ? taken : left;
        return site.line != 0 ? &site : nullptr;
    });
}
#endif

/// Copies a thread's variable into its slot: where its declaration has run, and at the end
/// of each piece that loaded it. Constructing over the old copy (MSL types need no
/// destructor) works for types that cannot be assigned, such as structs with const members.
template <class U, class V>
__attribute__((always_inline)) inline void place(U& slot, const V& value) {
    ::new (work_item_slot_tag{}, __builtin_addressof(slot)) U(value);
}

/// An array, element by element (a placement new of an array type may add a cookie).
template <class U, class V, decltype(sizeof 0) N>
__attribute__((always_inline)) inline void place(U (&slot)[N], const V (&value)[N]) {
    for (decltype(sizeof 0) i = 0; i < N; ++i) place(slot[i], value[i]);
}

/// Where the declaration of a variable kept in its slot runs (an array, or a variable whose
/// address is taken): constructs the thread's object from the initializer and returns the
/// slot, which the declaration binds by reference, so every piece works on the slot itself.
template <class U, class V>
__attribute__((always_inline)) inline U& emplace(U& slot, const V& value) {
    place(slot, value);
    return slot;
}

/// The same for a declaration without an initializer: default-initialises the thread's object,
/// which leaves a scalar, a vector or an array of them indeterminate, as the declaration does,
/// and runs a struct's default member initializers.
template <class U>
__attribute__((always_inline)) inline U& emplace(U& slot) {
    ::new (work_item_slot_tag{}, __builtin_addressof(slot)) U;
    return slot;
}
template <class U, decltype(sizeof 0) N>
__attribute__((always_inline)) inline auto emplace(U (&slot)[N]) -> U (&)[N] {
    for (decltype(sizeof 0) i = 0; i < N; ++i) emplace(slot[i]);
    return slot;
}

// ---- SIMD-group functions as whole statements -------------------------------------------
// `x = simd_sum(e);` becomes two loops over the threads (docs/compiler.md, "Work-item
// loops"): the first hands each thread's arguments to the statement's site (simd_deposit),
// the second computes each thread's result from its SIMD-group's (simd_collect).

/// One SIMD-group function statement of a kernel: each thread's arguments, from the per-group
/// arena, and the SIMD-group whose lanes' values were recorded last.
struct collective_site {
    void* arguments = nullptr;
    unsigned char* values = nullptr; ///< the recorded lanes', then the uniform result
    mc_u32 recorded = ~0u;
    mc_u32 uniform_lanes[2] = {~0u, 0}; ///< simd_replay::uniform_lanes
    mc_u64 active = 0;
    /// For a statement under an `if` whose condition differs per thread (simd_mark): 1 for
    /// each thread that handed in its arguments this round. Null elsewhere, where every
    /// thread that has not returned takes part.
    unsigned char* deposited = nullptr;
    /// A reduction's result for each thread (simd_reduce_ahead: its SIMD-group's), and the
    /// thread below which every thread takes its result from there.
    unsigned char* results = nullptr;
    mc_u32 uniform_until = 0;
    /// Set by the first deposit of a statement whose function the first loop knows (all but
    /// the products): computes the round once every thread has handed in its arguments
    /// (simd_compute), so that the second loop knows before it starts whether every thread
    /// only takes a result.
    void (*compute)(collective_site& site, const void* threads) = nullptr;
};

/// What the deposit loop hands a thread once the first thread of the round has made the
/// statement's room (run_deposit_work_items): the room, so each thread's deposit is a store.
struct deposit_thread_ids : thread_ids {
    void* arguments;
    unsigned char* deposited; ///< collective_site::deposited
};

/// What the collect loop hands a thread when every SIMD-group's reduction is computed
/// (run_collect_work_items): where the threads' results are, so taking one is a load.
struct uniform_thread_ids : thread_ids {
    const unsigned char* results; ///< collective_site::results
};

/// A thread's arguments, in order.
template <class... A>
struct arg_pack;
template <>
struct arg_pack<> {
    template <class F, class... D>
    __attribute__((always_inline)) decltype(auto) apply(const F& f, const D&... done) const {
        return f(done...);
    }
};
template <class H, class... T>
struct arg_pack<H, T...> {
    H head;
    [[no_unique_address]] arg_pack<T...> tail; ///< no byte of its own for the empty pack at the end
    template <class F, class... D>
    __attribute__((always_inline)) decltype(auto) apply(const F& f, const D&... done) const {
        return tail.apply(f, done..., head);
    }
};

/// The pack type of a call's arguments, for decltype (never called).
template <class... A>
arg_pack<typename remove_cv_t<typename remove_reference<A>::type>::type...> simd_arguments(const A&...);

__attribute__((always_inline)) inline arg_pack<> make_arg_pack() { return {}; }
template <class H, class... T>
__attribute__((always_inline)) inline arg_pack<H, T...> make_arg_pack(const H& head, const T&... tail) {
    return {head, make_arg_pack(tail...)};
}

/// The room of the statement at `site` for a round, from the per-group arena in one piece:
/// each thread's arguments (`pack` bytes), the record of a SIMD-group's values and, when
/// `result` is not 0, each thread's result of a reduction.
template <bool TracksReturns>
inline void simd_make_room(collective_site& site, const work_items<TracksReturns>& threads, mc_u64 pack, mc_u64 result) {
    const mc_group* group = threads.group();
    const mc_u64 count = group->size[0] * group->size[1] * group->size[2];
    const auto line = [](mc_u64 bytes) { return (bytes + 63) & ~mc_u64(63); }; // each part on cache lines of its own
    const mc_u64 arguments = line(pack * count), values = line((METALCPU_MAX_SIMD_WIDTH + 1) * METALCPU_SIMD_VALUE_BYTES);
    unsigned char* room = static_cast<unsigned char*>(g_services->coroutine_frame(arguments + values + result * count));
    site.arguments = room;
    site.values = room + arguments;
    if (result) site.results = room + arguments + values;
}

/// First loop: thread t's arguments of the statement at `site`. The first thread to hand
/// them in makes the statement's room for them (run_deposit_work_items then hands the others
/// deposit_thread_ids, below).
template <bool TracksReturns, class... A>
__attribute__((always_inline)) inline void simd_deposit(collective_site& site, const work_items<TracksReturns>& threads,
                                                        const thread_ids& t, const A&... arguments) {
    using Pack = arg_pack<A...>;
    if (!site.arguments) simd_make_room(site, threads, sizeof(Pack), 0);
    place(static_cast<Pack*>(site.arguments)[t.slot], make_arg_pack(arguments...));
}

/// First loop, once the room exists: a store per thread, in a loop the host compiler can
/// vectorise (no test, no call).
template <bool TracksReturns, class... A>
__attribute__((always_inline)) inline void simd_deposit(collective_site&, const work_items<TracksReturns>&,
                                                        const deposit_thread_ids& t, const A&... arguments) {
    place(static_cast<arg_pack<A...>*>(t.arguments)[t.slot], make_arg_pack(arguments...));
}

/// First loop, under an `if` whose condition differs per thread: whether thread t takes the
/// branch, so hands in its arguments this round. Metal's collectives cover the active
/// threads, and the threads that did not take the branch are not.
template <bool TracksReturns>
__attribute__((always_inline)) inline void simd_mark(collective_site& site, const work_items<TracksReturns>& threads,
                                                     const thread_ids& t, bool taken) {
    if (!site.deposited) site.deposited = threads.template slots<unsigned char>();
    site.deposited[t.slot] = taken;
}

/// The same once the room exists: the first thread of the round marked itself before it
/// handed in its arguments, so the marks' room was made first.
template <bool TracksReturns>
__attribute__((always_inline)) inline void simd_mark(collective_site&, const work_items<TracksReturns>&,
                                                     const deposit_thread_ids& t, bool taken) {
    t.deposited[t.slot] = taken;
}

/// The lanes of thread `first`'s SIMD-group that take part in the statement at `site`: those
/// in the group, not returned and (under a per-thread `if`) that handed in their arguments.
template <bool TracksReturns>
__attribute__((always_inline)) inline mc_u64 simd_active_lanes(const collective_site& site,
                                                               const work_items<TracksReturns>& threads,
                                                               mc_u32 first, mc_u32 width, mc_u32 count) {
    const mc_u32 present = count - first < width ? count - first : width;
    mc_u64 active = present >= 64 ? ~mc_u64(0) : (mc_u64(1) << present) - 1;
    if (TracksReturns || site.deposited)
        for (mc_u32 lane = 0; lane < present; ++lane)
            if (threads.returned(first + lane) || (site.deposited && !site.deposited[first + lane]))
                active &= ~(mc_u64(1) << lane);
    return active;
}

/// Records what each active lane of thread `first`'s SIMD-group hands in to the statement at
/// `site`: the function runs once per lane, recording only. Its round lives in a local of its
/// own, which nothing outside this function sees: were it the replay's (whose address the
/// group holds), every lane's value stored through a byte pointer could overwrite it as far
/// as the compiler knows, and it would be reloaded from memory at every lane.
template <class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline void simd_record(collective_site& site, const work_items<TracksReturns>& threads,
                                                       mc_u32 first, mc_u32 width, const Pack* packs,
                                                       const Function& function) {
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    const mc_u64 active = simd_active_lanes(site, threads, first, width, count);
    simd_replay recorder{site.values, 0, 0, true, width, nullptr, nullptr, nullptr};
    simd_site here;
    here.replay = &recorder;
    const auto call = [&here, &function](const auto&... arguments) __attribute__((always_inline)) {
        return function(here, arguments...);
    };
    const mc_u32 present = count - first < width ? count - first : width;
    const Pack* const group_packs = packs + first; // indexed by the lane, which cannot wrap
    if (active == (present >= 64 ? ~mc_u64(0) : (mc_u64(1) << present) - 1)) {
        // Every lane (the usual case): a counted loop, without a bit scan per lane, unrolled
        // (a lane is a load and a store).
#pragma GCC unroll 8
        for (recorder.lane = 0; recorder.lane < present; ++recorder.lane)
            (void)group_packs[recorder.lane].apply(call);
    } else {
        for (mc_u64 left = active; left; left &= left - 1) {
            recorder.lane = static_cast<mc_u32>(__builtin_ctzll(left));
            (void)group_packs[recorder.lane].apply(call);
        }
    }
    site.recorded = first;
    site.active = active;
    site.uniform_lanes[0] = ~0u;
    site.uniform_lanes[1] = 0;
}

/// Lane `lane` of thread `first`'s SIMD-group runs the function over the record of its group.
template <class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline auto simd_replay_lane(collective_site& site, const work_items<TracksReturns>& threads,
                                                            mc_u32 first, mc_u32 lane, mc_u32 width, const Pack* packs,
                                                            const Function& function) {
    mc_group* group = const_cast<mc_group*>(threads.group()); // the kernel's to scribble on
    simd_replay replay{site.values,        site.active,       lane,
                       false,              width,             site.uniform_lanes,
                       site.values + METALCPU_MAX_SIMD_WIDTH * METALCPU_SIMD_VALUE_BYTES,
                       nullptr};
    simd_site here;
    here.replay = &replay;
    group->simd_replay = &replay;
    auto result = packs[first + lane].apply([&here, &function](const auto&... arguments) __attribute__((always_inline)) {
        return function(here, arguments...);
    });
    group->simd_replay = nullptr;
    return result;
}

/// Whether the last replay left a result for every lane of the SIMD-group (simd::reduce over
/// the whole group, not a quad's).
inline bool simd_uniform_group(const collective_site& site, mc_u32 width) {
    return site.uniform_lanes[0] == 0 && site.uniform_lanes[1] >= width;
}

/// The bytes reduce() copied from its result (vec is not trivially copyable, so no bit_cast):
/// read back through a union, as GCC and Clang define.
template <class Result>
union kept_result {
    Result value;
    unsigned char bytes[sizeof(Result)];
    kept_result() {}
    ~kept_result() {}
};

/// What `function` returns over the arguments Pack holds.
template <class Pack, bool TracksReturns, class Function>
using simd_result_t = decltype(simd_replay_lane(*static_cast<collective_site*>(nullptr),
                                                *static_cast<const work_items<TracksReturns>*>(nullptr), 0, 0, 0,
                                                static_cast<const Pack*>(nullptr), *static_cast<const Function*>(nullptr)));

/// Copies a reduction's result (`sizeof(Result)` bytes at `result`) for threads [begin, end).
/// From locals, in words where the size allows, so that the copies are vector stores: read
/// from the record at every thread, or stored through a byte pointer, the result and the
/// results' address could be overwritten by the copies as far as the compiler knows.
template <class Result>
inline void simd_keep_result(unsigned char* results, const unsigned char* result, mc_u32 begin, mc_u32 end) {
    if constexpr (sizeof(Result) % sizeof(mc_u32) == 0) {
        constexpr mc_u32 words = sizeof(Result) / sizeof(mc_u32);
        mc_u32 value[words];
        __builtin_memcpy(value, result, sizeof(Result));
        mc_u32* const out = reinterpret_cast<mc_u32*>(results); // results are on cache lines of their own
        for (mc_u32 linear = begin; linear < end; ++linear)
            for (mc_u32 w = 0; w < words; ++w) out[linear * words + w] = value[w];
    } else {
        kept_result<Result> value;
        __builtin_memcpy(value.bytes, result, sizeof(Result));
        for (mc_u32 linear = begin; linear < end; ++linear)
            __builtin_memcpy(results + linear * sizeof(Result), value.bytes, sizeof(Result));
    }
}

/// After thread `first`'s SIMD-group has reduced to one result: keeps it for each of the
/// group's threads, then records and reduces every later SIMD-group of the threadgroup the
/// same way, by its first active lane, so that each of their threads only takes its result
/// (uniform_until) instead of asking whether its group has been recorded and reduced. Stops
/// at a group whose replay is not one result for the group (a function that is not a
/// reduction), where each thread replays as before: that group's record is the current one.
/// Once per round, out of the loop over the threads (simd_reduce_ahead below, or inlined
/// into simd_compute, which is out of it already).
template <class Result, class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline void simd_reduce_later_groups(collective_site& site,
                                                                    const work_items<TracksReturns>& threads,
                                                                    mc_u32 first, mc_u32 width, const Pack* packs,
                                                                    const Function& function) {
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    if (!site.results) site.results = static_cast<unsigned char*>(g_services->coroutine_frame(count * sizeof(Result)));
    const unsigned char* const uniform = site.values + METALCPU_MAX_SIMD_WIDTH * METALCPU_SIMD_VALUE_BYTES;
    for (mc_u32 at = first;;) {
        simd_keep_result<Result>(site.results, uniform, at, count - at < width ? count : at + width);
        site.uniform_until = at + width;
        // The next SIMD-group with a lane that takes part (in one without, nobody asks).
        do {
            at += width;
            if (at >= count) return;
            simd_record(site, threads, at, width, packs, function);
            if (!site.active) site.uniform_until = at + width;
        } while (!site.active);
        (void)simd_replay_lane(site, threads, at, static_cast<mc_u32>(__builtin_ctzll(site.active)), width, packs,
                               function);
        if (!simd_uniform_group(site, width)) return;
    }
}

/// simd_reduce_later_groups, out of line for simd_collect's loop; `flatten`, so that the
/// SIMD-group function is inlined here too.
template <class Result, class Pack, bool TracksReturns, class Function>
__attribute__((noinline, flatten, optimize("O3"))) void simd_reduce_ahead(collective_site& site,
                                                                        const work_items<TracksReturns>& threads,
                                                                        mc_u32 first, mc_u32 width, const Pack* packs,
                                                                        const Function& function) {
    simd_reduce_later_groups<Result>(site, threads, first, width, packs, function);
}

/// After the first loop of a statement whose function it knew: records the first SIMD-group
/// with a lane that takes part and replays its first active lane, which for a reduction
/// computes every SIMD-group's result (simd_reduce_later_groups). The state is the one the first
/// thread to ask for its result would have left, so the second loop goes on from there
/// (run_collect_work_items). Called through collective_site::compute, once per round.
template <class Pack, bool TracksReturns, class Function>
__attribute__((noinline, flatten, optimize("O3"))) void simd_compute(collective_site& site, const void* owner) {
    const work_items<TracksReturns>& threads = *static_cast<const work_items<TracksReturns>*>(owner);
    const Function function{}; // a lambda without captures (simd_deposit)
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    const mc_u32 width = group->dispatch->simd_width;
    const Pack* packs = static_cast<const Pack*>(site.arguments);
    for (mc_u32 at = 0; at < count; at += width) {
        simd_record(site, threads, at, width, packs, function);
        if (!site.active) continue;
        (void)simd_replay_lane(site, threads, at, static_cast<mc_u32>(__builtin_ctzll(site.active)), width, packs,
                               function);
        if (simd_uniform_group(site, width))
            simd_reduce_later_groups<simd_result_t<Pack, TracksReturns, Function>>(site, threads, at, width, packs,
                                                                                  function);
        return;
    }
}

/// First loop of a statement whose function is `function` (a lambda without captures, as
/// the front end writes it; all but the products): as simd_deposit above, and the first
/// thread to hand in its arguments also makes room for the threads' results and sets the
/// computation that follows the loop (collective_site::compute).
template <bool TracksReturns, class Function, class... A>
__attribute__((always_inline)) inline void simd_deposit(collective_site& site, const Function&,
                                                        const work_items<TracksReturns>& threads, const thread_ids& t,
                                                        const A&... arguments) {
    using Pack = arg_pack<A...>;
    if (!site.arguments) {
        simd_make_room(site, threads, sizeof(Pack), sizeof(simd_result_t<Pack, TracksReturns, Function>));
        site.compute = &simd_compute<Pack, TracksReturns, Function>;
    }
    place(static_cast<Pack*>(site.arguments)[t.slot], make_arg_pack(arguments...));
}
template <bool TracksReturns, class Function, class... A>
__attribute__((always_inline)) inline void simd_deposit(collective_site& site, const Function&,
                                                        const work_items<TracksReturns>& threads,
                                                        const deposit_thread_ids& t, const A&... arguments) {
    simd_deposit(site, threads, t, arguments...);
}

/// Second loop: thread t's result of `function` (the SIMD-group function, taking a site that
/// carries the round, then the arguments as Pack holds them). The first thread of each
/// SIMD-group to get here records what every active lane hands in (simd_record); each thread
/// then runs the function again, replaying the record. A reduction is computed once per
/// SIMD-group, and its other threads take the result (simd_reduce_ahead, and for a quad's
/// the uniform lanes of the record).
template <class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline auto simd_collect(collective_site& site, const work_items<TracksReturns>& threads,
                                                        const thread_ids& t, const Function& function) {
    const mc_group* group = threads.group();
    const mc_u32 width = group->dispatch->simd_width;
    const Pack* packs = static_cast<const Pack*>(site.arguments);
    using Result = simd_result_t<Pack, TracksReturns, Function>;
    kept_result<Result> kept;
    if (t.linear < site.uniform_until) {
        __builtin_memcpy(kept.bytes, site.results + t.slot * sizeof(Result), sizeof(Result));
        return Result(kept.value);
    }
    const mc_u32 first = t.linear & ~(width - 1); // a power of two
    const mc_u32 own_lane = t.linear - first;
    // A quad's reduction leaves its result, the same for every lane of the quad, once the
    // quad's first lane to ask has computed it: the other lanes take it.
    if (site.recorded == first && own_lane >= site.uniform_lanes[0] && own_lane < site.uniform_lanes[1]) {
        __builtin_memcpy(kept.bytes, site.values + METALCPU_MAX_SIMD_WIDTH * METALCPU_SIMD_VALUE_BYTES,
                         sizeof(Result));
        return Result(kept.value);
    }
    if (site.recorded != first) simd_record(site, threads, first, width, packs, function);
    auto result = simd_replay_lane(site, threads, first, own_lane, width, packs, function);
    if (simd_uniform_group(site, width)) simd_reduce_ahead<Result>(site, threads, first, width, packs, function);
    return result;
}

/// Second loop, when every SIMD-group's reduction is computed: thread t takes its result.
template <class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline auto simd_collect(collective_site&, const work_items<TracksReturns>&,
                                                        const uniform_thread_ids& t, const Function&) {
    using Result = simd_result_t<Pack, TracksReturns, Function>;
    kept_result<Result> kept;
    __builtin_memcpy(kept.bytes, t.results + t.slot * sizeof(Result), sizeof(Result));
    return Result(kept.value);
}

// ---- SIMD-group matrix products as whole statements ------------------------------------
// `simdgroup_multiply_accumulate(d, a, b, c);` hands in its operands like any collective
// statement, but the first loop knows the product: once every thread has handed in its
// operands, each SIMD-group's matrix is multiplied at once (simd_compute_products), and the
// second loop only takes each thread's result, a load (simd_collect_product), instead of
// recording the SIMD-group and replaying the product lane by lane. Neither loop instantiates
// the record and replay machinery, which made these kernels slow to compile.

/// The type of a product's destination, for decltype (never called).
template <class D>
D simd_destination(const D&);

/// A result's two elements, from their float sums, and the lane that holds them (as
/// simdgroup_multiply leaves them).
template <class T>
__attribute__((always_inline)) inline void simd_set_product(metal::simdgroup_matrix<T, 8, 8>& d, metal::vec<float, 2> sums,
                                                            unsigned lane) {
    d.thread_elements() = metal::vec<T, 2>(T(sums[0]), T(sums[1]));
    d.metalcpu_lane = static_cast<unsigned char>(lane);
}

/// One matrix's product: `packs` the operands its 32 lanes handed in (A, B and for
/// simdgroup_multiply_accumulate C), `active` the lanes that take part (the others hold
/// zeros, as for product_round), `results` each lane's result. The same sums as
/// product_round::dot, through the same function (sum_pair), so the same bits.
template <class D, class Pack>
__attribute__((always_inline)) inline void simd_block_product(const Pack* packs, mc_u64 active, D* results) {
    using metalcpu_stdlib::simd_matrix::column_of;
    using metalcpu_stdlib::simd_matrix::row_of;
    float a[8][8] = {}, b[8][8] = {}; // A by rows, B by columns
    const auto gather = [&](unsigned lane) __attribute__((always_inline)) {
        const unsigned row = row_of(lane), column = column_of(lane);
        const auto& x = packs[lane].head.thread_elements();
        const auto& y = packs[lane].tail.head.thread_elements();
        a[row][column] = float(x[0]);
        a[row][column + 1] = float(x[1]);
        b[column][row] = float(y[0]);
        b[column + 1][row] = float(y[1]);
    };
    const auto multiply = [&](unsigned lane) __attribute__((always_inline)) {
        const unsigned row = row_of(lane), column = column_of(lane);
        metal::vec<float, 2> start(0.0f);
        if constexpr (requires { packs[lane].tail.tail.head; }) { // C: simdgroup_multiply_accumulate
            const auto& c = packs[lane].tail.tail.head.thread_elements();
            start = metal::vec<float, 2>(float(c[0]), float(c[1]));
        }
        D result;
        simd_set_product(result, metalcpu_stdlib::simd_matrix::sum_pair(a[row], b[column], b[column + 1], start), lane);
        place(results[lane], result);
    };
    if (active == 0xffffffffu) {
        // Every lane (the usual case): counted loops, unrolled, whose rows and columns are
        // constants.
#pragma GCC unroll 32
        for (unsigned lane = 0; lane < 32; ++lane) gather(lane);
#pragma GCC unroll 32
        for (unsigned lane = 0; lane < 32; ++lane) multiply(lane);
        return;
    }
    for (mc_u64 left = active; left; left &= left - 1) gather(static_cast<unsigned>(__builtin_ctzll(left)));
    for (mc_u64 left = active; left; left &= left - 1) multiply(static_cast<unsigned>(__builtin_ctzll(left)));
}

/// After the first loop of a product statement: every SIMD-group's product, each matrix of
/// 32 lanes at once (a SIMD-group of 64 lanes holds two, one narrower than 32 one with zeros
/// past its width), each thread's result kept for the second loop. Called through
/// collective_site::compute, once per round.
template <class D, class Pack, bool TracksReturns>
__attribute__((noinline, optimize("O3"))) void simd_compute_products(collective_site& site, const void* owner) {
    const work_items<TracksReturns>& threads = *static_cast<const work_items<TracksReturns>*>(owner);
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    const mc_u32 width = group->dispatch->simd_width;
    const Pack* packs = static_cast<const Pack*>(site.arguments);
    D* results = reinterpret_cast<D*>(site.results);
    for (mc_u32 at = 0; at < count; at += width) {
        const mc_u64 active = simd_active_lanes(site, threads, at, width, count);
        for (mc_u32 block = 0; block < width && at + block < count; block += metalcpu_stdlib::simd_matrix::kLanes) {
            const mc_u64 lanes = (active >> block) & 0xffffffffu;
            if (lanes) simd_block_product(packs + at + block, lanes, results + at + block);
        }
    }
    site.uniform_until = count;
}

/// First loop of a product statement whose destination has type D: as simd_deposit, and the
/// first thread to hand in its operands also makes room for the threads' results and sets
/// the computation that follows the loop (simd_compute_products).
template <class D, bool TracksReturns, class... A>
__attribute__((always_inline)) inline void simd_deposit_product(collective_site& site,
                                                                const work_items<TracksReturns>& threads,
                                                                const thread_ids& t, const A&... operands) {
    using Pack = arg_pack<A...>;
    if (!site.arguments) {
        simd_make_room(site, threads, sizeof(Pack), sizeof(D));
        site.compute = &simd_compute_products<D, Pack, TracksReturns>;
    }
    place(static_cast<Pack*>(site.arguments)[t.slot], make_arg_pack(operands...));
}
template <class D, bool TracksReturns, class... A>
__attribute__((always_inline)) inline void simd_deposit_product(collective_site& site,
                                                                const work_items<TracksReturns>& threads,
                                                                const deposit_thread_ids& t, const A&... operands) {
    simd_deposit(site, threads, t, operands...);
}

/// Second loop of a product statement: thread t's result, which the first loop's computation
/// left for it, into the destination. Only the threads that handed in their operands get here,
/// so a result is there whenever a thread asks, and the product is never replayed. The
/// results' address is the ids' (run_product_collect_work_items), which no store can change.
template <class D>
__attribute__((always_inline)) inline void simd_collect_product(D& destination, const collective_site&,
                                                                const uniform_thread_ids& t) {
    __builtin_memcpy(static_cast<void*>(&destination), t.results + t.slot * sizeof(D), sizeof(D));
}

/// Second loop of a statement whose callee is a staged collective helper (one that may make
/// several collectives, docs/compiler.md): the first thread of each SIMD-group to get here
/// runs the helper for every active lane once per collective (simd_stages) and keeps each
/// lane's value; each thread then takes its own. Running it again is the same as running it
/// once: the front end admits only helpers with no effect but their value, whose every lane
/// makes the same collectives in the same order.
template <class Pack, bool TracksReturns, class Function>
__attribute__((always_inline)) inline auto simd_staged_collect(collective_site& site,
                                                               const work_items<TracksReturns>& threads,
                                                               const thread_ids& t, const Function& function) {
    using Result = simd_result_t<Pack, TracksReturns, Function>;
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    const mc_u32 width = group->dispatch->simd_width;
    const mc_u32 first = t.linear & ~(width - 1); // a power of two
    if (!site.results) {
        // The lanes' values, then the stages and their records, once per statement.
        const mc_u64 results = (mc_u64(width) * sizeof(Result) + 63) & ~mc_u64(63);
        const mc_u64 stages = (sizeof(simd_stages) + 63) & ~mc_u64(63);
        const mc_u64 records = mc_u64(METALCPU_SIMD_MAX_STAGES) * (width + 1) * METALCPU_SIMD_VALUE_BYTES;
        unsigned char* room = static_cast<unsigned char*>(g_services->coroutine_frame(results + stages + records));
        site.results = room;
        site.values = room + results;
    }
    if (site.recorded != first) {
        simd_stages& staged = *reinterpret_cast<simd_stages*>(site.values);
        staged.values = site.values + ((sizeof(simd_stages) + 63) & ~mc_u64(63));
        staged.uniform = staged.values + mc_u64(METALCPU_SIMD_MAX_STAGES) * width * METALCPU_SIMD_VALUE_BYTES;
        const mc_u64 active = simd_active_lanes(site, threads, first, width, count);
        const Pack* packs = static_cast<const Pack*>(site.arguments);
        mc_group* writable = const_cast<mc_group*>(group); // the kernel's to scribble on
        simd_replay lane{nullptr, 0, 0, false, width, nullptr, nullptr, &staged};
        simd_site here;
        here.replay = &lane;
        bool more = true;
        for (staged.record = 0; more; ++staged.record) {
            if (staged.record < METALCPU_SIMD_MAX_STAGES) {
                staged.active[staged.record] = 0;
                staged.uniform_lanes[staged.record][0] = ~0u;
                staged.uniform_lanes[staged.record][1] = 0;
            }
            more = false;
            for (mc_u64 left = active; left; left &= left - 1) {
                lane.lane = static_cast<mc_u32>(__builtin_ctzll(left));
                staged.next = 0;
                writable->simd_replay = &lane;
                const Result value = packs[first + lane.lane].apply(
                    [&here, &function](const auto&... arguments)
                        __attribute__((always_inline)) { return function(here, arguments...); });
                writable->simd_replay = nullptr;
                more = more || staged.next > staged.record;
                place(reinterpret_cast<Result*>(site.results)[lane.lane], value);
            }
        }
        site.recorded = first;
    }
    kept_result<Result> kept;
    __builtin_memcpy(kept.bytes, site.results + (t.linear - first) * sizeof(Result), sizeof(Result));
    return Result(kept.value);
}

/// While a collective helper runs for a lane in a statement's record or replay (`x =
/// scan(v);` with `scan`'s body `return simd_prefix_inclusive_sum(v);`, docs/compiler.md):
/// its collective is called without the round's site, and finds the round through the group
/// (simdgroup_exchange), which this points at it. Only helper statements pay for the service
/// call; the others hand the site to their function.
class simd_helper_scope {
public:
    explicit simd_helper_scope(const simd_site& here)
        : group_(const_cast<mc_group*>(g_services->current_group())), previous_(group_->simd_replay) {
        group_->simd_replay = here.replay;
    }
    ~simd_helper_scope() { group_->simd_replay = previous_; }
    simd_helper_scope(const simd_helper_scope&) = delete;
    simd_helper_scope& operator=(const simd_helper_scope&) = delete;

private:
    mc_group* group_;
    void* previous_;
};

/// While a piece that calls simdgroup_load or simdgroup_store or makes a matrix with a
/// diagonal runs for thread t: those need only the caller's lane, which a work-item loop
/// knows from the thread's index (linear % SIMD width), so the rendezvous that would tell it
/// (own_lane in <metal_simdgroup_matrix>, a value-less simdgroup_exchange) replays a round
/// of that lane with no value instead of waiting for the SIMD-group.
class simd_lane_scope {
public:
    template <bool TracksReturns>
    __attribute__((always_inline)) simd_lane_scope(const work_items<TracksReturns>& threads, const thread_ids& t)
        : group_(const_cast<mc_group*>(threads.group())) { // the kernel's to scribble on
        const mc_u32 width = group_->dispatch->simd_width;
        replay_ = simd_replay{nullptr, 0, t.linear & (width - 1), true, width, nullptr, nullptr, nullptr}; // a power of two
        group_->simd_replay = &replay_;
    }
    __attribute__((always_inline)) ~simd_lane_scope() { group_->simd_replay = nullptr; }
    simd_lane_scope(const simd_lane_scope&) = delete;
    simd_lane_scope& operator=(const simd_lane_scope&) = delete;

private:
    mc_group* group_;
    simd_replay replay_;
};

/// Runs one piece of a kernel for every thread of the group that has not returned, x
/// fastest, each row a loop the host compiler can vectorise (for_each_row).
template <bool TracksReturns, class Piece>
__attribute__((always_inline)) inline void run_work_items(const work_items<TracksReturns>& threads, Piece&& piece) {
    const auto returned = [&threads](mc_u64 slot) { return threads.returned(slot); };
    for_each_row(threads.group(), returned, piece);
}


// ---- Interleaved threads -------------------------------------------------------------------
// A barrier-free kernel whose uniform loops run its threads together (passes/interleaved_threads.h):
// the kernel runs W neighbouring threads at a time, and each piece is a loop of W steps that the
// host compiler unrolls, so each lane's variables (lane_slots, a local array indexed by
// constants once unrolled) can live in registers across the uniform loop's iterations.

/// Whether blocks of W lanes run a kernel's lane form where it has one (lane_statements.h:
/// not where vectors are narrower than 32 bytes); defined there.
template <mc_u32 W> struct lane_form_runs;

/// The W threads of a group run together, block after block: the linear indices
/// [first, first + W), fewer in the group's last block. Each lane's thread_ids carry the lane
/// as `slot`, the index of its variables in lane_slots. `HasLaneForm`: the kernel's lane form
/// runs every whole row of W threads, so the pieces run only the other blocks (partial ones,
/// groups narrower than W).
template <bool TracksReturns, mc_u32 W, bool HasLaneForm = false>
class lane_block {
public:
    explicit lane_block(const mc_group* group) : group_(group), count_(group_thread_count(group)) {}

    /// Moves to the next block (the first at the first call); false when the group has no more.
    bool next() {
        first_ = started_ ? first_ + W : 0;
        started_ = true;
        if (first_ >= count_) return false;
        const mc_u32 lanes = count_ - first_ < W ? count_ - first_ : W;
        for (mc_u32 l = 0; l < W; ++l) {
            ids_[l] = thread_ids_of(group_, first_ + (l < lanes ? l : 0));
            ids_[l].slot = l;
            absent_[l] = l >= lanes; // past the group's last thread
        }
        return true;
    }

    const thread_ids& ids(mc_u32 lane) const { return ids_[lane]; }
    /// Whether the lane has no thread, or its thread has returned.
    bool returned(mc_u32 lane) const { return absent_[lane] != 0; }
    /// What a kernel's `return` becomes inside a piece: the lane takes no part in later pieces.
    void retire(const thread_ids& t) const { absent_[t.slot] = 1; }
    bool all_returned() const {
        for (mc_u32 l = 0; l < W; ++l)
            if (!absent_[l]) return false;
        return true;
    }
    const mc_group* group() const { return group_; }

private:
    const mc_group* group_;
    mc_u32 count_;
    mc_u32 first_ = 0;
    bool started_ = false;
    thread_ids ids_[W];
    mutable unsigned char absent_[W];
};

/// One variable of an interleaved kernel for each lane of a block: room only, each lane's object
/// made by place() or emplace() where its declaration runs (so T needs no default constructor).
template <class T, mc_u32 W>
struct lane_slots {
    union {
        typename remove_cv_t<T>::type lanes[W];
    };
    lane_slots() {}
    ~lane_slots() {}
    lane_slots(const lane_slots&) = delete;
    lane_slots& operator=(const lane_slots&) = delete;
};

/// Runs one piece of an interleaved kernel for each lane of the block whose thread has not
/// returned, unrolled, so each lane's slots are known places. The lane's `slot` is the loop's
/// counter, not the copy next() stored in the block: read back from there it was a load GCC
/// did not fold, so every slot access went through a computed address and the lanes'
/// accumulators stayed in memory, loaded and stored in every iteration of the uniform loop.
///
/// Not unrolled where the kernel's lane form runs the whole rows: the pieces then run only a
/// group's partial blocks and groups narrower than W, and their W copies were most of the
/// kernel's compile (the 8×4 matmul: 3.7 s of GCC's CPU time unrolled, 1.1 s not;
/// docs/compiler.md, "What a compile costs").
template <bool TracksReturns, mc_u32 W, bool HasLaneForm, class Piece>
__attribute__((always_inline)) inline void run_work_items(const lane_block<TracksReturns, W, HasLaneForm>& block,
                                                          Piece&& piece) {
    const auto lane = [&](mc_u32 l) __attribute__((always_inline)) {
        if (block.returned(l)) return;
#ifdef METALCPU_VALIDATION
        const_cast<mc_group*>(block.group())->current_thread = static_cast<unsigned short>(block.ids(l).linear); // reports
#endif
        thread_ids t = block.ids(l);
        t.slot = l; // a constant once unrolled
        piece(t);
    };
    if constexpr (HasLaneForm) { // lane_form_runs is complete only where the lane form's header is included
        if constexpr (lane_form_runs<W>::value) {
#pragma GCC unroll 1
            for (mc_u32 l = 0; l < W; ++l) lane(l);
            return;
        }
    }
#pragma GCC unroll 16
    for (mc_u32 l = 0; l < W; ++l) lane(l);
}

/// Runs `piece` for the threads that have not returned one at a time, in linear order,
/// handing it their thread_ids, until `done()` holds (asked first, then after each thread).
/// Returns the linear index of the first thread not run (the group's size when all ran).
template <bool TracksReturns, class Piece, class Done>
__attribute__((always_inline)) inline mc_u32 run_work_items_until(const work_items<TracksReturns>& threads,
                                                                  Piece& piece, const Done& done) {
    const mc_group* group = threads.group();
    const mc_u32 sx = group->size[0], sy = group->size[1], sz = group->size[2];
    if (done()) return 0;
    mc_u32 linear = 0;
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < sy; ++y)
            for (mc_u32 x = 0; x < sx; ++x, ++linear) {
                if (threads.returned(linear)) continue;
#ifdef METALCPU_VALIDATION
                const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(linear); // reports
#endif
                piece(thread_ids{x, y, z, linear});
                if (done()) return linear + 1;
            }
    return linear;
}

/// Runs `piece(make(ids))` for the threads from linear index `from` on that have not
/// returned, each row a loop the host compiler can vectorise, counted as
/// for_each_thread_in_row counts it (the grid's x positions, and thread_ids::slot in 64 bits),
/// from the row's first thread not run yet. As there, shader validation's loop records the
/// running thread and stays scalar.
template <bool TracksReturns, class Piece, class Make>
__attribute__((always_inline)) inline void run_work_items_from(const work_items<TracksReturns>& threads, mc_u32 from,
                                                               Piece& piece, const Make& make) {
    const mc_group* group = threads.group();
    const mc_u32 sx = group->size[0], sy = group->size[1], sz = group->size[2];
    const mc_u32 origin = group->position[0] * group->dispatch->threads_per_threadgroup[0];
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < sy; ++y) {
            const mc_u32 row = (z * sy + y) * sx;
            if (row + sx <= from) continue;
            const mc_u32 start = origin + (from > row ? from - row : 0);
#if defined(METALCPU_OPENMP_SIMD) && !defined(METALCPU_VALIDATION)
#pragma omp simd
#endif
            for (mc_u32 gx = start; gx < origin + sx; ++gx) {
                const mc_u32 x = gx - origin;
                const thread_ids t{x, y, z, row + x, mc_u64(row) + gx - origin};
                if (threads.returned(t.slot)) continue;
#ifdef METALCPU_VALIDATION
                const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(t.linear); // reports
#endif
                piece(make(t));
            }
        }
}

// The two loops of a SIMD-group function statement are functions of their own, one per
// statement (each piece is a lambda of its own type), called once per group and round: inlined,
// a kernel's collectives made one function of four loops each, which GCC optimised in time
// that grew faster than their number (a kernel of 42 collective statements: `metal -c` took
// 51.8 s of CPU for the baseline image, 21.6 s outlined; docs/compiler.md, "What a compile
// costs"). The piece still inlines into its loop.

/// The first loop of a SIMD-group function statement (docs/compiler.md, "Collective
/// statements"): starts the statement's round, runs `piece` for each thread, which hands in
/// its arguments (simd_deposit), then computes what it can of the round
/// (collective_site::compute). The first thread to hand in its arguments makes their room;
/// the others get deposit_thread_ids, in a loop with no test or call per thread. `piece` is
/// generic over the ids it is handed, so it is compiled for both.
template <bool TracksReturns, class Piece>
__attribute__((noinline)) void run_deposit_work_items(const work_items<TracksReturns>& threads,
                                                      collective_site& site, Piece&& piece) {
    site.recorded = ~0u;
    site.uniform_until = 0;
    const mc_u32 from = run_work_items_until(threads, piece, [&site] { return site.arguments != nullptr; });
    if (!site.arguments) return; // no thread took part
    run_work_items_from(threads, from, piece,
                        [arguments = site.arguments, deposited = site.deposited](const thread_ids& t)
                            __attribute__((always_inline)) { return deposit_thread_ids{t, arguments, deposited}; });
    if (site.compute) site.compute(site, &threads);
}

/// The second loop: runs `piece` for each thread, which takes its result (simd_collect).
/// When the round's computation gave every thread its result (a reduction), each thread gets
/// uniform_thread_ids and only takes it, in a loop with no test or call per thread;
/// otherwise each asks as simd_collect describes.
template <bool TracksReturns, class Piece>
__attribute__((noinline)) void run_collect_work_items(const work_items<TracksReturns>& threads,
                                                      collective_site& site, Piece&& piece) {
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    if (site.uniform_until >= count)
        run_work_items_from(threads, 0, piece, [results = site.results](const thread_ids& t) __attribute__((always_inline)) {
            return uniform_thread_ids{t, results};
        });
    else
        run_work_items(threads, piece);
}

/// The second loop of a product statement: every thread's result is there (the first loop's
/// computation, simd_compute_products), so each only takes it, and the piece is compiled for
/// uniform_thread_ids alone.
template <bool TracksReturns, class Piece>
__attribute__((noinline)) void run_product_collect_work_items(const work_items<TracksReturns>& threads,
                                                              collective_site& site, Piece&& piece) {
    run_work_items_from(threads, 0, piece, [results = site.results](const thread_ids& t) __attribute__((always_inline)) {
        return uniform_thread_ids{t, results};
    });
}

} // namespace metalcpu_kernel
