// Barrier kernels as C++20 coroutines: the front end turns a kernel whose barriers are all
// in its own body into a coroutine that suspends at each barrier, and its group function
// resumes every thread's coroutine in turn (run_coroutines). No stacks are switched, so
// a barrier costs about a function call.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/barrier_rounds.h>
#endif

#if __has_include(<coroutine>)
#include <coroutine>
#else
// Kernels compile without host headers, so the few names the compiler's coroutine support
// looks up in namespace std are defined here, on the compiler's builtins.
namespace std {

template <class Result, class... Arguments>
struct coroutine_traits {
    using promise_type = typename Result::promise_type;
};

template <class Promise = void>
struct coroutine_handle;

template <>
struct coroutine_handle<void> {
    constexpr coroutine_handle() noexcept = default;
    static coroutine_handle from_address(void* address) noexcept {
        coroutine_handle handle;
        handle.frame_ = address;
        return handle;
    }
    void* address() const noexcept { return frame_; }
    explicit operator bool() const noexcept { return frame_ != nullptr; }
    bool done() const noexcept { return __builtin_coro_done(frame_); }
    void resume() const { __builtin_coro_resume(frame_); }
    void operator()() const { resume(); }
    void destroy() const { __builtin_coro_destroy(frame_); }

protected:
    void* frame_ = nullptr;
};

template <class Promise>
struct coroutine_handle : coroutine_handle<void> {
    static coroutine_handle from_address(void* address) noexcept {
        coroutine_handle handle;
        handle.frame_ = address;
        return handle;
    }
    static coroutine_handle from_promise(Promise& promise) noexcept {
        coroutine_handle handle;
        handle.frame_ = __builtin_coro_promise(&promise, alignof(Promise), true);
        return handle;
    }
    Promise& promise() const { return *static_cast<Promise*>(__builtin_coro_promise(frame_, alignof(Promise), false)); }
};

struct suspend_always {
    constexpr bool await_ready() const noexcept { return false; }
    constexpr void await_suspend(coroutine_handle<>) const noexcept {}
    constexpr void await_resume() const noexcept {}
};

struct suspend_never {
    constexpr bool await_ready() const noexcept { return true; }
    constexpr void await_suspend(coroutine_handle<>) const noexcept {}
    constexpr void await_resume() const noexcept {}
};

} // namespace std
#endif

namespace metalcpu_kernel {

/// A tensor operation a coroutine thread is suspended in (metalcpu/stdlib/tensor/scope.h): its
/// part of the operation, run once per scope by run_coroutines between two passes.
struct pending_scope_op {
    mc_scope_record record;
    mc_scope_fn fn;
    void* context;       ///< the operation's uniform arguments, in the awaiting frame
    mc_u32 simdgroups;   ///< the scope: this many consecutive SIMD-groups
};

/// The return type of a kernel lowered to a coroutine. It starts suspended, so the group
/// function creates every thread first and then runs them phase by phase.
struct barrier_task {
    struct promise_type {
        barrier_task get_return_object() noexcept {
            return barrier_task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { __builtin_trap(); }
        // Frames come from the worker's arena, reset at every group: no heap, no libc.
        static void* operator new(decltype(sizeof 0) size) { return g_services->coroutine_frame(size); }
        static void operator delete(void*) noexcept {}
        pending_scope_op* pending = nullptr; ///< set while suspended in a tensor operation
        /// Where the thread is suspended: at a threadgroup barrier (1), a SIMD-group barrier
        /// (2), or neither (0). run_coroutines holds the threads at a threadgroup barrier while
        /// others are at a SIMD-group barrier.
        unsigned char barrier_scope = 0;
#ifdef METALCPU_VALIDATION
        /// For the barrier-divergence check: the barrier's site.
        mc_simd_site barrier_at{};
#endif
    };
    std::coroutine_handle<promise_type> handle;
};

/// What `threadgroup_barrier(flags)` becomes in a coroutine kernel: a suspension point.
/// All threads of a group share one worker, so the memory flags need no fence.
#ifndef METALCPU_VALIDATION
/// Scope 1 for a threadgroup barrier, 2 for a SIMD-group barrier (barrier_task's barrier_scope).
template <unsigned char Scope>
struct scoped_barrier_point {
    scoped_barrier_point() = default;
    template <class Flags>
    explicit scoped_barrier_point(Flags) {}
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<barrier_task::promise_type> thread) const noexcept {
        thread.promise().barrier_scope = Scope;
    }
    void await_resume() const noexcept {}
};
using barrier_point = scoped_barrier_point<1>;
/// `simdgroup_barrier(flags)`: a pass orders more than its SIMD-group needs, but the threads
/// of other SIMD-groups at a threadgroup barrier wait until every thread is at one.
using simdgroup_barrier_point = scoped_barrier_point<2>;
#else
/// Validated kernels record where each thread is suspended, for the barrier-divergence check
/// (run_coroutines); a SIMD-group barrier is told apart, since Metal asks only its SIMD-group
/// to reach it. A thread that resumes after a threadgroup barrier tells the threadgroup watch
/// so (mc_services::threadgroup_barrier_passed); after a SIMD-group barrier it tells it of a
/// SIMD-group synchronisation (MC_SIMD_SYNC), which orders only its SIMD-group's accesses.
template <unsigned char Scope>
struct site_barrier_point {
    template <class Flags>
    explicit site_barrier_point(Flags flags, simd_site where = {})
        : site(where), mem_flags(static_cast<mc_u32>(flags)) {}
    site_barrier_point(const mc_simd_site& where, mc_u32 flags) : site(where), mem_flags(flags) {}
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<barrier_task::promise_type> thread) const noexcept {
        thread.promise().barrier_scope = Scope;
        thread.promise().barrier_at = site;
    }
    void await_resume() const noexcept {
        if (__builtin_expect(*g_access_watch != 0, 0))
            g_services->threadgroup_barrier_passed(Scope == 1 ? mem_flags : MC_SIMD_SYNC, 0);
    }
    mc_simd_site site;
    mc_u32 mem_flags = 0;
};
using barrier_point = site_barrier_point<1>;
using simdgroup_barrier_point = site_barrier_point<2>;

/// What the validated flavour writes for a barrier (scope 1) or SIMD-group barrier (2):
/// `barrier_at<1>{{file, line, column}}(flags)`, the site as the front end saw it.
template <unsigned char Scope>
struct barrier_at {
    mc_simd_site site;
    template <class Flags>
    site_barrier_point<Scope> operator()(Flags flags) const {
        return site_barrier_point<Scope>(site, static_cast<mc_u32>(flags));
    }
};

/// The barrier-divergence check of SIMD-group barriers, in a pass that left threads at
/// barriers: in each SIMD-group with a thread at a `simdgroup_barrier`, the live threads not at
/// that barrier (at another, at a threadgroup barrier, in a tensor operation) make a round the
/// runtime reports. Threads that returned are not active and are not counted.
inline void check_simdgroup_barriers(const mc_group* group,
                                     std::coroutine_handle<barrier_task::promise_type>* threads, mc_u32 count) {
    const mc_u32 width = group->dispatch->simd_width ? group->dispatch->simd_width : 32;
    for (mc_u32 begin = 0; begin < count; begin += width) {
        const mc_u32 end = begin + width < count ? begin + width : count;
        const auto at_barrier = [&](mc_u32 i) {
            return threads[i] && threads[i].promise().barrier_scope == 2 && !threads[i].promise().pending;
        };
        mc_u32 at = end;
        for (mc_u32 i = begin; i < end && at == end; ++i)
            if (at_barrier(i)) at = i;
        if (at == end) continue;
        mc_barrier_round round{};
        round.site = threads[at].promise().barrier_at;
        round.site.kind = MC_SIMD_BARRIER_KIND;
        round.first_missing = count;
        for (mc_u32 i = begin; i < end; ++i) {
            if (!threads[i]) continue;
            ++round.threads;
            const barrier_task::promise_type& p = threads[i].promise();
            if (at_barrier(i) && same_barrier(p.barrier_at, threads[at].promise().barrier_at)) {
                ++round.reached;
                continue;
            }
            if (round.elsewhere++ == 0) round.other = p.barrier_at;
            if (i < round.first_missing) round.first_missing = i;
        }
        if (round.elsewhere > 0) g_services->barrier_round(group, &round);
    }
}

/// The barrier-divergence check of a pass that left threads at barriers: tells the runtime
/// when they did not all reach the same threadgroup barrier (finished threads count as not).
/// A pass in which a thread waits at a SIMD-group barrier or in a tensor operation is not
/// judged: those need not be reached by the whole group.
inline void check_barrier_round(const mc_group* group, std::coroutine_handle<barrier_task::promise_type>* threads,
                                mc_u32 count) {
    check_simdgroup_barriers(group, threads, count);
    barrier_round_tally tally(count);
    for (mc_u32 i = 0; i < count; ++i) {
        if (!threads[i]) {
            tally.finished(i);
            continue;
        }
        const barrier_task::promise_type& p = threads[i].promise();
        if (p.barrier_scope != 1 || p.pending) return;
        tally.waiting(i, p.barrier_at);
    }
    if (tally.divergent()) g_services->barrier_round(group, &tally.round());
}
#endif

/// Runs the tensor operations the threads of a pass suspended in, once per scope: the first
/// waiting thread of each scope runs it with the records of all its waiting threads (those
/// that returned are absent). `records` is scratch for `count` records, made on first use.
inline void run_scope_operations(const mc_group* group, std::coroutine_handle<barrier_task::promise_type>* threads,
                                 mc_u32 count, mc_scope_record*& records) {
    const mc_u32 width = group->dispatch->simd_width ? group->dispatch->simd_width : 32;
    for (mc_u32 i = 0; i < count;) {
        pending_scope_op* lead = threads[i] ? threads[i].promise().pending : nullptr;
        if (!lead) {
            ++i;
            continue;
        }
        if (!records) records = static_cast<mc_scope_record*>(g_services->coroutine_frame(sizeof(mc_scope_record) * count));
        const mc_u32 span = lead->simdgroups * width;
        const mc_u32 end = (i / span + 1) * span < count ? (i / span + 1) * span : count;
        mc_u32 arrived = 0;
        for (mc_u32 j = i; j < end; ++j) {
            if (!threads[j] || !threads[j].promise().pending) continue;
            records[arrived++] = threads[j].promise().pending->record;
            threads[j].promise().pending = nullptr;
        }
        const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(i);
        lead->fn(lead->context, records, arrived);
        i = end;
    }
}

/// Runs a group of coroutine threads: starts one per thread, then resumes each live one in
/// turn until all have returned. Every pass is one barrier phase; a thread that returned
/// early simply drops out, which is how returned threads count as arrived. Tensor operations
/// the threads suspended in run between two passes. While a thread waits at a SIMD-group
/// barrier (or in a tensor operation), the threads at a threadgroup barrier are not resumed:
/// they pass it only once every live thread is at one, so that a SIMD-group whose branch or
/// loop holds simdgroup_barriers (`if (simd_group_id == 1)`, trips per SIMD-group) is done with
/// it before the others read what it wrote there.
template <class Start>
inline void run_coroutines(const mc_group* group, Start&& start) {
    const mc_u32 count = group->size[0] * group->size[1] * group->size[2];
    std::coroutine_handle<barrier_task::promise_type> threads[1024];
    for (mc_u32 i = 0; i < count; ++i) threads[i] = start(thread_ids_of(group, i)).handle;
    // current_thread names the thread in reports and places cooperative tensors in their scope.
    mc_group* running = const_cast<mc_group*>(group);
    mc_u32 live = count;
    mc_scope_record* scope_records = nullptr;
    const auto at_threadgroup_barrier = [](const barrier_task::promise_type& p) {
        return p.barrier_scope == 1 && !p.pending;
    };
    bool hold = false; // a thread is at a SIMD-group barrier or in a tensor operation
    while (live != 0) {
        bool others = false;
        for (mc_u32 i = 0; i < count; ++i) {
            std::coroutine_handle<barrier_task::promise_type> thread = threads[i];
            if (!thread || (hold && at_threadgroup_barrier(thread.promise()))) continue;
            running->current_thread = static_cast<unsigned short>(i);
            thread.promise().barrier_scope = 0; // until it suspends at a barrier again
            thread.resume();
            if (thread.done()) {
                thread.destroy();
                threads[i] = {};
                --live;
            } else if (!at_threadgroup_barrier(thread.promise())) {
                others = true;
            }
        }
        hold = others;
#ifdef METALCPU_VALIDATION
        if (live != 0 && (group->dispatch->checks & MC_CHECK_BARRIERS)) check_barrier_round(group, threads, count);
#endif
        run_scope_operations(group, threads, count, scope_records);
    }
}

} // namespace metalcpu_kernel
