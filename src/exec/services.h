#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstdint>

namespace metalcpu::exec {

class FaultScratch;
class FrameArena;
class ThreadgroupMemory;
class WorkerState;
struct Dispatch;

/// The executor's state for the group a worker is running; mc_group::executor points here.
struct GroupContext {
    ThreadgroupMemory* memory = nullptr;
    FrameArena* frames = nullptr; ///< coroutine frames of this group's threads
    bool onFibers = false;
    /// Set when a kernel compiled as barrier-free reached a barrier (a compiler bug).
    bool unexpectedBarrier = false;
    /// Set by a service that cannot do what the kernel asks: the dispatch fails with it.
    const char* serviceFailure = nullptr;
    const Dispatch* dispatch = nullptr;
    /// Where invalid accesses of a validated kernel go instead.
    FaultScratch* scratch = nullptr;
    /// The observer's state for this group while it watches threadgroup memory, else null.
    WorkerState* watch = nullptr;
    /// Whether the observer watches device memory (DispatchObserver::watchesDeviceMemory).
    bool watchesDevice = false;
};

/// The services table handed to every kernel library when it is opened.
const mc_services* kernelServices();

/// Turns on the instrumented kernels' watch (mc_services::access_watch) for the rest of the
/// process: from then on, their threadgroup and device accesses reach the services, which pass
/// them on only in groups whose observer watches (GroupContext::watch, watchesDevice).
void watchAccesses();

/// Makes `group` the calling worker's current group (nullptr to clear).
void setCurrentGroup(const mc_group* group);

/// Tells the dispatch's observer, if any, of a barrier round of `group` that not all its
/// threads reached at one barrier (mc_services::barrier_round; the fiber scheduler's own).
void reportBarrierRound(const mc_group* group, const mc_barrier_round& round);

/// The dispatch the calling thread is running a group of, or nullptr. Async-signal-safe (a
/// device process's fault handler names the faulting dispatch with it).
const Dispatch* currentDispatch() noexcept;

} // namespace metalcpu::exec
