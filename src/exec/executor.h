#pragma once

#include "exec/dispatch.h"

namespace metalcpu::exec {

/// Runs dispatches on the process's worker threads: one tbb::parallel_for over the
/// threadgroups of the grid, taken in tiles of 8 x 8 groups (group_order.h), each threadgroup
/// run by one worker from start to end.
/// Kernels without barriers run a group as one call that loops over its threads; kernels
/// with barriers run each thread on a fiber (fiber_scheduler.h).
class Executor {
public:
    /// The process-wide executor (METALCPU_THREADS workers).
    static Executor& shared();

    /// Runs `dispatch` to completion on the workers; the caller takes part. Thread-safe.
    DispatchResult run(const Dispatch& dispatch);

    /// Called on each thread the first time it runs a threadgroup (a worker, or a caller of
    /// run()), before it does: a device process gives each an alternate signal stack there.
    /// Set before the first run().
    static void setThreadStartHook(void (*hook)());

    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

private:
    Executor();
    ~Executor();
    struct State;
    State* state_;
};

} // namespace metalcpu::exec
