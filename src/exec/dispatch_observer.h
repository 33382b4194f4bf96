// What watches a dispatch run. The executor calls its observer through this interface only
// and never knows what it is: shader validation (val::DispatchValidation) today; checks such
// as races, barrier divergence or uninitialised reads plug in the same way, as Oclgrind's
// plugins do: the executor tells a watching observer of each threadgroup access and barrier,
// never knowing what it checks.
#pragma once

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <memory>

namespace metalcpu::exec {

/// The thread an observer is told about, as the executor knows it.
struct ObservedThread {
    validation::Position grid, local, group;
    /// The worker's threadgroup memory, for untagged pointers into it.
    std::uint64_t threadgroupBegin = 0, threadgroupEnd = 0;
};

/// What an observer keeps on a worker thread from group to group (shader validation's shadow
/// of threadgroup memory): made by the observer, owned by the worker, handed back with every
/// group the worker runs for a dispatch that watches threadgroup memory.
class WorkerState {
public:
    virtual ~WorkerState() = default;
};

/// A group starting, as a watching observer is told of it.
struct ObservedGroup {
    const mc_group* group = nullptr;
    std::uint64_t threadgroupBegin = 0, threadgroupEnd = 0; ///< the worker's threadgroup memory
};

/// threadgroupBarrier()'s `thread` when the whole group passed the barrier at once.
inline constexpr std::uint32_t kWholeGroup = ~std::uint32_t(0);

class DispatchObserver {
public:
    virtual ~DispatchObserver() = default;

    /// An instrumented kernel's access of `size` bytes at checked pointer `pointer` +
    /// `byteOffset` (`op`: MC_OP_*) fell outside its region, at `site`. Returns the address
    /// the kernel touches instead: `standIn` (zero-filled, at least `size` bytes), or the
    /// real one when the observer lets the access through.
    virtual void* invalidAccess(std::uint64_t pointer, std::uint64_t byteOffset, std::uint64_t size,
                                std::uint32_t op, const mc_site* site, const ObservedThread& thread,
                                void* standIn) = 0;

    /// Whether pointers into threadgroup memory are checked against their variable or
    /// argument; when not, they may touch anything (MTL_SHADER_VALIDATION_THREADGROUP_MEMORY=0).
    virtual bool checksThreadgroupMemory() const = 0;

    // ---- Watching threadgroup memory (checks beyond Apple's; all optional) -------------
    // Asked once per dispatch: when it says yes, the executor turns the instrumented kernels'
    // watch on (mc_services::access_watch), calls beginGroup() for every group and passes
    // on each threadgroup access and barrier of its threads, on the worker running the group.

    virtual bool watchesThreadgroupMemory() const { return false; }
    /// The byte threadgroup memory is filled with when a group starts (0: zeroed).
    virtual unsigned char threadgroupFill() const { return 0; }
    /// A group starts on the worker that keeps `state` (empty the first time: the observer
    /// makes it). Returns what to hand to the calls below for this group.
    virtual WorkerState* beginGroup(std::unique_ptr<WorkerState>& /*state*/, const ObservedGroup& /*group*/) {
        return nullptr;
    }
    /// Thread `thread` (linear index in the group) touched `size` bytes of threadgroup memory
    /// at checked pointer bits `bits` (tag | address); `op`: MC_OP_* bits.
    virtual void threadgroupAccess(WorkerState* /*state*/, std::uint32_t /*thread*/, std::uint64_t /*bits*/,
                                   std::uint64_t /*size*/, std::uint32_t /*op*/, const mc_site* /*site*/) {}
    /// Thread `thread` (kWholeGroup: every thread at once) passed a threadgroup barrier with
    /// `memFlags` (Metal's mem_flags bits).
    virtual void threadgroupBarrier(WorkerState* /*state*/, std::uint32_t /*thread*/, std::uint32_t /*memFlags*/) {}
    /// The group beginGroup() returned `state` for has run to its end.
    virtual void endGroup(WorkerState* /*state*/) {}
    /// A round of a threadgroup barrier in `group` that not all its threads reached at one
    /// barrier (told only of dispatches whose mc_dispatch::checks has MC_CHECK_BARRIERS).
    virtual void barrierRound(const mc_barrier_round& /*round*/, const mc_group& /*group*/) {}

    // ---- Watching device memory (the hazard check between dispatches; optional) ----------
    // Asked once per dispatch: when it says yes, the executor turns the instrumented kernels'
    // watch on and passes on each access of device or constant memory they make inside the
    // pointer's region, on the worker running the thread's group.

    virtual bool watchesDeviceMemory() const { return false; }
    /// `thread` touched `size` bytes at checked pointer bits `bits` (tag | address); `op`:
    /// MC_OP_* bits.
    virtual void deviceAccess(std::uint64_t /*bits*/, std::uint64_t /*size*/, std::uint32_t /*op*/,
                              const mc_site* /*site*/, const ObservedThread& /*thread*/) {}
};

} // namespace metalcpu::exec
