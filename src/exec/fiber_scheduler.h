#pragma once

#include <metalcpu/kernel_abi.h>

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace metalcpu::exec {

/// Runs the threads of one threadgroup as fibers on the calling worker thread, for kernels
/// that wait at barriers.
///
/// A barrier is a counter: a thread arriving at one hands control straight to the next
/// live thread in a ring (one jump_fcontext, no central scheduler), and the last thread
/// to arrive simply continues, starting the next phase. Threads that have returned count
/// as arrived, so `if (i >= n) return;` before a barrier cannot deadlock. Stacks are
/// reused from group to group and have a guard page below them.
class FiberScheduler {
public:
    FiberScheduler();
    ~FiberScheduler();
    FiberScheduler(const FiberScheduler&) = delete;
    FiberScheduler& operator=(const FiberScheduler&) = delete;

    /// Runs `run(group, i)` for every i in [0, threadCount) until all have returned.
    void runGroup(const mc_group* group, mc_thread_fn run, std::uint32_t threadCount);

    /// Called by the kernel (through the services) at threadgroup_barrier(). Returns when
    /// every live thread of the group has arrived.
    void barrier();

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
    [[noreturn]] void finishCurrent();
    void ensureStacks(std::uint32_t count);
    char* stackTop(std::uint32_t index) const;
    /// AddressSanitizer builds: tells ASan the next jump goes to fiber `target` (or, with
    /// kMainContext, back to the worker's own stack). `fakeStack` is null for a fiber that
    /// never comes back. A no-op otherwise.
    void announceSwitch(void** fakeStack, std::uint32_t target) const;
    static void announceArrival(void* fakeStack, const void** fromBottom, std::size_t* fromSize);
    static constexpr std::uint32_t kMainContext = ~std::uint32_t(0);

    const mc_group* group_ = nullptr;
    mc_thread_fn run_ = nullptr;
    std::vector<Context> contexts_;
    std::vector<std::uint32_t> next_, previous_;
    Context mainContext_ = nullptr;
    Context discarded_ = nullptr;
    std::uint32_t current_ = 0;
    std::uint32_t alive_ = 0;
    std::uint32_t arrived_ = 0;
    std::uint64_t barriersCompleted_ = 0;
    bool leavingMain_ = false;             ///< the next fiber to start was entered from the worker
    const void* mainStackBottom_ = nullptr; ///< the worker's stack, for ASan's switch annotations
    std::size_t mainStackSize_ = 0;

    char* stackRegion_ = nullptr;
    std::size_t stackRegionBytes_ = 0;
    std::uint32_t stackCount_ = 0;
};

} // namespace metalcpu::exec
