#pragma once

#include <metalcpu/kernel_abi.h>

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace metalcpu::exec {

/// Runs the threads of one threadgroup as fibers on the calling worker thread, for kernels
/// that wait at barriers or take part in SIMD-group collectives.
///
/// A barrier is a counter: a thread arriving at one hands control straight to the next
/// runnable thread in a ring (one jump_fcontext, no central scheduler), and the last thread
/// to arrive releases the waiting ones and simply continues, starting the next phase. A
/// SIMD-group collective is the same, scoped to the `simd_width` consecutive threads of the
/// caller's SIMD-group, and it also collects each thread's value for the round. Threads that
/// have returned count as arrived, so `if (i >= n) return;` before a barrier cannot
/// deadlock; so do the SIMD-group's threads waiting at a threadgroup barrier, which cannot
/// come to the collective before the barrier opens.
///
/// Each collective call carries its site (mc_simd_site: source position and function), and
/// the thread carries the chain of calls it reached it through (swapCallPath(), one link per
/// call of a helper that can reach a collective): together they are the collective's place.
/// A round holds only the lanes at one place, as Metal's active threads are those that
/// reached that collective. When all lanes are at the same place (the common case, checked
/// with one comparison per arrival, and a walk of the chains when there are any) they are
/// released as one round. When they diverged to different collectives, only the lanes at the
/// place earliest in the source are released: places compare call by call from the kernel's
/// body inwards, each by line, then column, so a helper's collectives count where the helper
/// is called, not where it is defined. The others wait on and are looked at again when every
/// lane of the SIMD-group is waiting once more. Earliest first is how structured code
/// reconverges: lanes that left a loop wait at the collective after it until the last lane
/// has left, and the lanes of each side of an `if` run their own collective before they all
/// meet at the one after it.
///
/// Released lanes resume in lane order, the first lane of the round first, even when the last
/// lane to arrive released them (it yields to the first): a SIMD-group in lockstep goes on
/// together, and code written for one has lane 0 store what the others read next.
///
/// If every live thread waits and none can be released (a scope operation split from a
/// collective), the SIMD-groups' and scopes' rounds are forced, and only if there are none
/// the threadgroup barrier, rather than hanging. Stacks are reused from group to group and
/// have a guard page below them.
class FiberScheduler {
public:
    FiberScheduler();
    ~FiberScheduler();
    FiberScheduler(const FiberScheduler&) = delete;
    FiberScheduler& operator=(const FiberScheduler&) = delete;

    /// Runs `run(group, i)` for every i in [0, threadCount) until all have returned.
    void runGroup(const mc_group* group, mc_thread_fn run, std::uint32_t threadCount);

    /// Called by the kernel (through the services) at threadgroup_barrier(). Returns when
    /// every live thread of the group has arrived. Validated kernels pass the barrier's `site`:
    /// when the dispatch asks for the barrier-divergence check (MC_CHECK_BARRIERS), a round
    /// that opens with threads at different barriers, or with some finished, is reported
    /// (reportBarrierRound).
    void barrier(const mc_simd_site* site = nullptr);

    /// Called by the kernel (through the services) at a SIMD-group collective: hands in
    /// `size` bytes at `value` and returns when every live thread of the caller's SIMD-group
    /// has (here or at another collective), with the round of the lanes at `site` described
    /// in `round`. A null site is one site that every null site shares.
    void simdExchange(const void* value, std::uint32_t size, const mc_simd_site* site, mc_simd_round* round);

    /// Called by the kernel (through the services) around a call that can reach a collective:
    /// makes `innermost` the running thread's current call and returns the one before. A
    /// collective's place is its site and the chain of calls from there (mc_simd_call).
    const mc_simd_call* swapCallPath(const mc_simd_call* innermost) {
        const mc_simd_call* before = callOf_[current_];
        callOf_[current_] = innermost;
        return before;
    }

    /// Called by the kernel (through the services) at a Metal 4 tensor operation over a scope
    /// of `simdgroups` consecutive SIMD-groups (the caller's is scope index / simdgroups):
    /// hands in the caller's record and returns when every live thread of the scope has. The
    /// last live thread to arrive runs fn(context, records, count) once, on its own fiber,
    /// with its own context (the operation's arguments are uniform); a thread returning
    /// counts as arrived, and then the last arriver's fn runs.
    void scopeCall(std::uint32_t simdgroups, const mc_scope_record* mine, mc_scope_fn fn, void* context);

    /// Scope operations run so far (for tests).
    std::uint64_t scopeCallsCompleted() const { return scopeCallsCompleted_; }

    /// The scheduler running on this worker thread, or nullptr outside runGroup().
    static FiberScheduler* current();

    /// The linear index of the thread running now.
    std::uint32_t currentThread() const { return current_; }

    /// Barriers passed so far (for tests).
    std::uint64_t barriersCompleted() const { return barriersCompleted_; }

private:
    using Context = boost::context::detail::fcontext_t;
    static void fiberMain(boost::context::detail::transfer_t transfer);
    void switchTo(std::uint32_t target, Context* saveSlot);
    /// Makes `thread` the current one, here and in mc_group::current_thread (which
    /// cooperative tensors read to find their place in a scope).
    void setCurrent(std::uint32_t thread);
    [[noreturn]] void finishCurrent();
    void ensureStacks(std::uint32_t count);
    char* stackTop(std::uint32_t index) const;
    /// AddressSanitizer builds: tells ASan the next jump goes to fiber `target` (or, with
    /// kMainContext, back to the worker's own stack). `fakeStack` is null for a fiber that
    /// never comes back. A no-op otherwise.
    void announceSwitch(void** fakeStack, std::uint32_t target) const;
    static void announceArrival(void* fakeStack, const void** fromBottom, std::size_t* fromSize);
    static constexpr std::uint32_t kMainContext = ~std::uint32_t(0);

    enum class Wait : std::uint8_t { None, Threadgroup, Simdgroup, Scope };
    /// One SIMD-group's rendezvous: two value buffers used in turn, so a released thread can
    /// hand in its next value while the others still read the last round's.
    struct SimdGroup {
        std::uint32_t alive = 0, arrived = 0, round = 0;
        std::uint32_t atBarrier = 0; ///< its threads waiting at the threadgroup barrier
        std::uint64_t active[2] = {0, 0};
        const mc_simd_site* site = nullptr; ///< of the first thread to arrive, while !divergent
        const mc_simd_call* path = nullptr; ///< its chain of calls
        bool divergent = false;            ///< the threads that arrived are at different sites
    };
    /// A scope operation gathering its threads' records; indexed by the scope's first
    /// SIMD-group.
    struct Scope {
        std::uint32_t simdgroups = 0; ///< N of the operation in progress (0: none)
        std::vector<mc_scope_record> records;
        mc_scope_fn fn = nullptr; ///< of the latest arriver
        void* context = nullptr;
    };
    /// Live threads of the scope of `simdgroups` SIMD-groups starting at `first`.
    std::uint32_t scopeAlive(std::uint32_t first, std::uint32_t simdgroups) const;
    /// Runs the scope's operation and releases its threads.
    void completeScope(std::uint32_t first);
    /// Blocks the current thread until another releases it; the next to run is the first
    /// runnable thread from `from` on in the ring (by default the one after the current).
    void wait(Wait reason, std::uint32_t from = kMainContext);
    /// The first lane (its thread index) of the round `simdgroup` released last. Released lanes
    /// resume in lane order from it, as a SIMD-group in lockstep goes on together: a store lane 0
    /// makes after a rendezvous is seen by the other lanes' reads after it (docs/msl-support.md).
    std::uint32_t firstOfLastRound(std::uint32_t simdgroup) const;
    /// The first thread from `from` on in the ring that is not waiting; if every live thread
    /// waits, forces rounds open (releaseAll) until one can run.
    std::uint32_t runnableFrom(std::uint32_t from);
    /// Opens the threadgroup barrier; `complete`: every live thread is at it (not forced open).
    void releaseThreadgroup(bool complete = true);
    /// The barrier-divergence check of a round about to open.
    void checkBarrierRound() const;
    /// The barrier-divergence check of a SIMD-group whose live threads all wait: some at a
    /// simdgroup_barrier (MC_SIMD_BARRIER_KIND) and others elsewhere is a report.
    void checkSimdgroupBarrier(std::uint32_t simdgroup) const;
    /// Every thread of the SIMD-group waits (at a collective or the threadgroup barrier), some
    /// at a collective: releases the round of the earliest site (all of them when they agree).
    void resolveSimdgroup(std::uint32_t simdgroup);
    void releaseSimdgroup(std::uint32_t simdgroup);
    void releaseAll();
    unsigned char* simdValues(std::uint32_t simdgroup, std::uint32_t round);

    const mc_group* group_ = nullptr;
    mc_thread_fn run_ = nullptr;
    std::vector<Context> contexts_;
    std::vector<std::uint32_t> next_, previous_;
    std::vector<Wait> waiting_;
    std::vector<std::uint32_t> roundOf_; ///< the value buffer (round parity) of each thread's last value
    std::vector<const mc_simd_site*> siteOf_; ///< the collective each waiting thread is at
    std::vector<const mc_simd_call*> callOf_; ///< each thread's current call (swapCallPath)
    std::vector<const mc_simd_call*> pathOf_; ///< the calls each waiting thread came through
    std::vector<SimdGroup> simdgroups_;
    std::vector<unsigned char> simdValues_; ///< per SIMD-group, two rounds of width values
    std::vector<Scope> scopes_;
    std::vector<std::uint32_t> scopeOf_; ///< the scope (first SIMD-group) each waiting thread joined
    std::uint64_t scopeCallsCompleted_ = 0;
    std::uint32_t simdWidth_ = 32;
    Context mainContext_ = nullptr;
    Context discarded_ = nullptr;
    std::uint32_t current_ = 0;
    std::uint32_t alive_ = 0;
    std::uint32_t arrived_ = 0;
    std::uint64_t barriersCompleted_ = 0;
    bool checkBarriers_ = false;              ///< the dispatch asks for MC_CHECK_BARRIERS
    std::vector<mc_simd_site> barrierSiteOf_; ///< with it: the barrier each waiting thread is at
    std::vector<unsigned char> finished_;     ///< with it: which threads have returned
    bool leavingMain_ = false;             ///< the next fiber to start was entered from the worker
    const void* mainStackBottom_ = nullptr; ///< the worker's stack, for ASan's switch annotations
    std::size_t mainStackSize_ = 0;

    char* stackRegion_ = nullptr;
    std::size_t stackRegionBytes_ = 0;
    std::uint32_t stackCount_ = 0;
};

} // namespace metalcpu::exec
