// Barrier kernels as work-item loops: the front end splits a kernel at its barriers (see
// src/compiler/passes/work_item_loops.h) and runs each piece as a loop over the group's
// threads. This is what that code calls: the per-thread slots of variables that live across
// a barrier, and the loop itself.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
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

private:
    const mc_group* group_;
    mc_u32 count_;
    unsigned char* returned_ = nullptr;
};

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
    /// A reduction's result for each SIMD-group (simd_reduce_ahead), in SIMD-group order, and
    /// the thread below which every thread takes its SIMD-group's from there.
    unsigned char* results = nullptr;
    mc_u32 uniform_until = 0;
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

/// First loop: thread t's arguments of the statement at `site`.
template <bool TracksReturns, class... A>
__attribute__((always_inline)) inline void simd_deposit(collective_site& site, const work_items<TracksReturns>& threads,
                                                        const thread_ids& t, const A&... arguments) {
    using Pack = arg_pack<A...>;
    if (!site.arguments) site.arguments = threads.template slots<Pack>();
    site.recorded = ~0u;
    site.uniform_until = 0;
    place(static_cast<Pack*>(site.arguments)[t.slot], make_arg_pack(arguments...));
}

/// First loop, under an `if` whose condition differs per thread: whether thread t takes the
/// branch, so hands in its arguments this round. Metal's collectives cover the active
/// threads, and the threads that did not take the branch are not.
template <bool TracksReturns>
__attribute__((always_inline)) inline void simd_mark(collective_site& site, const work_items<TracksReturns>& threads,
                                                     const thread_ids& t, bool taken) {
    if (!site.deposited) site.deposited = threads.template slots<unsigned char>();
    site.deposited[t.slot] = taken;
    site.recorded = ~0u;
    site.uniform_until = 0;
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
    simd_replay recorder{site.values, 0, 0, true, width, nullptr, nullptr};
    simd_site here;
    here.replay = &recorder;
    const auto call = [&here, &function](const auto&... arguments) __attribute__((always_inline)) {
        return function(here, arguments...);
    };
    const mc_u32 present = count - first < width ? count - first : width;
    if (active == (present >= 64 ? ~mc_u64(0) : (mc_u64(1) << present) - 1)) {
        // Every lane (the usual case): a counted loop, without a bit scan per lane.
        for (recorder.lane = 0; recorder.lane < present; ++recorder.lane)
            (void)packs[first + recorder.lane].apply(call);
    } else {
        for (mc_u64 left = active; left; left &= left - 1) {
            recorder.lane = static_cast<mc_u32>(__builtin_ctzll(left));
            (void)packs[first + recorder.lane].apply(call);
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
                       site.values + METALCPU_MAX_SIMD_WIDTH * METALCPU_SIMD_VALUE_BYTES};
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

/// After thread `first`'s SIMD-group has reduced to one result: keeps it for the group, then
/// records and reduces every later SIMD-group of the threadgroup the same way, by its first
/// active lane, so that each of their threads only takes its group's result (uniform_until)
/// instead of asking whether its group has been recorded and reduced. Stops at a group whose
/// replay is not one result for the group (a function that is not a reduction), where each
/// thread replays as before: that group's record is the current one. Once per round, out of
/// the loop over the threads; `flatten`, so that the SIMD-group function is inlined here too.
template <class Result, class Pack, bool TracksReturns, class Function>
__attribute__((noinline, flatten)) void simd_reduce_ahead(collective_site& site, const work_items<TracksReturns>& threads,
                                                 mc_u32 first, mc_u32 width, const Pack* packs,
                                                 const Function& function) {
    const mc_group* group = threads.group();
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    const mc_u32 shift = static_cast<mc_u32>(__builtin_ctz(width)); // a power of two
    if (!site.results)
        site.results = static_cast<unsigned char*>(
            g_services->coroutine_frame((((count + width - 1) >> shift) + 1) * sizeof(Result)));
    const unsigned char* const uniform = site.values + METALCPU_MAX_SIMD_WIDTH * METALCPU_SIMD_VALUE_BYTES;
    for (mc_u32 at = first;;) {
        __builtin_memcpy(site.results + (at >> shift) * sizeof(Result), uniform, sizeof(Result));
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
    using Result = decltype(simd_replay_lane(site, threads, 0, 0, width, packs, function));
    // The bytes reduce() copied from its result (vec is not trivially copyable, so no
    // bit_cast): read back through a union, as GCC and Clang define.
    union kept_result {
        Result value;
        unsigned char bytes[sizeof(Result)];
        kept_result() {}
        ~kept_result() {}
    } kept;
    if (t.linear < site.uniform_until) {
        __builtin_memcpy(kept.bytes, site.results + (t.linear >> __builtin_ctz(width)) * sizeof(Result),
                         sizeof(Result));
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
    if (!site.values)
        site.values = static_cast<unsigned char*>(g_services->coroutine_frame((METALCPU_MAX_SIMD_WIDTH + 1) *
                                                                               METALCPU_SIMD_VALUE_BYTES));
    if (site.recorded != first) simd_record(site, threads, first, width, packs, function);
    auto result = simd_replay_lane(site, threads, first, own_lane, width, packs, function);
    if (simd_uniform_group(site, width)) simd_reduce_ahead<Result>(site, threads, first, width, packs, function);
    return result;
}

/// Second loop of a call statement that writes its result to its first argument
/// (`simdgroup_multiply_accumulate(d, a, b, c);`, where d may be one of the others): thread
/// t's `function(result, arguments...)`, over the arguments the first loop handed in, so
/// that overwriting `destination` cannot change what another thread's replay reads.
template <class Pack, bool TracksReturns, class D, class Function>
__attribute__((always_inline)) inline void simd_collect_into(D& destination, collective_site& site,
                                                             const work_items<TracksReturns>& threads,
                                                             const thread_ids& t, const Function& function) {
    const D start = destination;
    destination = simd_collect<Pack>(site, threads, t, [&start, &function](const simd_site& here, const auto&... arguments) {
        D result = start;
        function(here, result, arguments...);
        return result;
    });
}

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
        replay_ = simd_replay{nullptr, 0, t.linear & (width - 1), true, width, nullptr, nullptr}; // a power of two
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
/// fastest, each row a loop the host compiler can vectorise (for_each_thread_in_row).
template <bool TracksReturns, class Piece>
__attribute__((always_inline)) inline void run_work_items(const work_items<TracksReturns>& threads, Piece&& piece) {
    const mc_group* group = threads.group();
    const mc_u32 sx = group->size[0], sy = group->size[1], sz = group->size[2];
    const auto returned = [&threads](mc_u64 slot) { return threads.returned(slot); };
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < sy; ++y) for_each_thread_in_row(group, y, z, (z * sy + y) * sx, returned, piece);
}

} // namespace metalcpu_kernel
