#include "exec/executor.h"

#include "exec/dispatch_observer.h"
#include "exec/fault_scratch.h"
#include "exec/fiber_scheduler.h"
#include "exec/frame_arena.h"
#include "exec/group_order.h"
#include "exec/services.h"
#include "exec/threadgroup_memory.h"
#include "support/config.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace metalcpu::exec {
namespace {

std::atomic<void (*)()> g_threadStartHook{nullptr};

/// What one worker thread keeps between groups. Written at every group and fiber switch:
/// a cache line of its own, so workers do not share lines.
struct alignas(128) Worker {
    Worker() {
        if (void (*hook)() = g_threadStartHook.load(std::memory_order_acquire)) hook();
    }
    ThreadgroupMemory memory;
    FiberScheduler fibers;
    FrameArena frames;
    FaultScratch scratch; ///< stands in for invalid accesses of validated kernels
    std::unique_ptr<WorkerState> observerState; ///< a watching observer's (DispatchObserver::beginGroup)
};

/// The first error of a dispatch; later ones are dropped.
class FirstError {
public:
    void set(std::string message) {
        std::lock_guard lock(mutex_);
        if (!failed_.exchange(true)) message_ = std::move(message);
    }
    bool failed() const { return failed_.load(std::memory_order_relaxed); }
    std::string message() const {
        std::lock_guard lock(mutex_);
        return message_;
    }

private:
    mutable std::mutex mutex_;
    std::atomic<bool> failed_{false};
    std::string message_;
};

int workerCount() {
    int configured = support::config().threads;
    if (configured > 0) return configured;
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

struct Executor::State {
    int threads = workerCount();
    tbb::global_control parallelism{tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads)};
    tbb::task_arena arena{threads};
    // std::allocator, not TBB's: LeakSanitizer does not scan tbbmalloc's memory, so workers
    // kept there would look leaked in sanitizer builds.
    tbb::enumerable_thread_specific<Worker, std::allocator<Worker>> workers;
};

Executor::Executor() : state_(new State) {}

void Executor::setThreadStartHook(void (*hook)()) { g_threadStartHook.store(hook, std::memory_order_release); }

Executor::~Executor() { delete state_; }

Executor& Executor::shared() {
    // Never destroyed: command queues may still be draining while static objects go away.
    static Executor* executor = new Executor;
    return *executor;
}

DispatchResult Executor::run(const Dispatch& dispatch) {
    DispatchResult result;
    const mc_kernel* kernel = dispatch.kernel;
    if (!kernel) {
        result.ok = false;
        result.error = "dispatch without a compute pipeline state";
        return result;
    }
    const std::uint32_t* groups = dispatch.threadgroups;
    const std::uint32_t* size = dispatch.parameters.threads_per_threadgroup;
    const std::uint64_t groupCount = std::uint64_t(groups[0]) * groups[1] * groups[2];
    if (groupCount == 0) return result;
    const bool onFibers = (kernel->flags & MC_KERNEL_USES_BARRIERS) != 0;

    // An observer that watches threadgroup memory is told of every group, access and barrier.
    DispatchObserver* watcher =
        dispatch.observer && dispatch.observer->watchesThreadgroupMemory() ? dispatch.observer : nullptr;
    const bool watchesDevice = dispatch.observer && dispatch.observer->watchesDeviceMemory();
    if (watcher || watchesDevice) watchAccesses();
    const unsigned char fill = watcher ? watcher->threadgroupFill() : 0;

    FirstError firstError;
    const GroupOrder dispatchOrder = GroupOrder::forGrid(groups); // copied by each range: tiny ranges are common
    auto runGroups = [&](const tbb::blocked_range<std::uint64_t>& range) {
        Worker& worker = state_->workers.local();
        // One group record for the range, reset field by field: zeroing the whole record
        // (560 bytes) for every group cost more than a small group's threads.
        mc_group group{};
        group.dispatch = &dispatch.parameters;
        // Groups in GroupOrder's tiles, not row by row: placed once (divisions), then stepped.
        GroupOrder order = dispatchOrder;
        bool argumentsBound = false; // the threadgroup arguments' layout, done at the first group
        const std::uint64_t first = range.begin();
        order.seek(first, group.position);
        for (std::uint64_t index = first; index != range.end(); ++index) {
            if (firstError.failed()) return;
            if (index != first) order.next(group.position);
            // What kernels may have left in the record (mc_group: the executor zeroes these).
            std::memset(group.threadgroup_site_keys, 0, sizeof group.threadgroup_site_keys);
            group.current_thread = 0;
            group.simd_replay = nullptr;
            // dispatchThreads: groups at the far edges hold only the threads inside the grid.
            for (int d = 0; d < 3; ++d) {
                std::uint32_t start = group.position[d] * size[d];
                group.size[d] = std::min(size[d], dispatch.gridThreads[d] - start);
            }
            const std::uint32_t threadCount = group.size[0] * group.size[1] * group.size[2];
            if (threadCount == 0) continue;

            if (!argumentsBound) {
                std::string error;
                if (!worker.memory.bindArguments(dispatch.threadgroupArgumentLengths, dispatch.threadgroupMemoryLimit,
                                                 group, error)) {
                    firstError.set("kernel '" + dispatch.kernelName + "': " + error);
                    return;
                }
                argumentsBound = true;
            }
            worker.memory.beginGroup(fill);
            GroupContext context;
            context.memory = &worker.memory;
            context.frames = &worker.frames;
            worker.frames.reset();
            context.onFibers = onFibers;
            context.dispatch = &dispatch;
            context.scratch = &worker.scratch;
            context.watchesDevice = watchesDevice;
            group.executor = &context;
            if (watcher)
                context.watch = watcher->beginGroup(worker.observerState,
                                                    ObservedGroup{&group, worker.memory.begin(), worker.memory.end()});
            setCurrentGroup(&group);
            if (onFibers) {
                worker.fibers.runGroup(&group, kernel->run_thread, threadCount);
            } else {
                kernel->run_group(&group);
            }
            setCurrentGroup(nullptr);
            if (context.watch) watcher->endGroup(context.watch);

            if (worker.memory.overflowed()) {
                firstError.set("kernel '" + dispatch.kernelName + "': threadgroup memory exceeds the maximum of " +
                               std::to_string(worker.memory.limit()) + " bytes");
            } else if (context.serviceFailure) {
                firstError.set("kernel '" + dispatch.kernelName + "': " + context.serviceFailure);
            } else if (context.unexpectedBarrier) {
                firstError.set("kernel '" + dispatch.kernelName +
                               "' reached a barrier or SIMD-group function although the compiler found none in it "
                               "(a metalcpu bug; please report it)");
            }
        }
    };

    state_->arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, groupCount), runGroups);
    });
    if (firstError.failed()) {
        result.ok = false;
        result.error = firstError.message();
    }
    return result;
}

} // namespace metalcpu::exec
