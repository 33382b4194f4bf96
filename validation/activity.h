// What the runtime tells validation about the work it runs: command buffers in flight (for
// waitForPendingWork) and dispatches executed (for dispatchCounts), both in
// <metalcpu/Validation.hpp>.
#pragma once

#include <cstdint>

namespace metalcpu::val {

/// A command buffer is being committed: waitForPendingWork() waits for it from now on.
/// Returns its ticket for commandBufferFinished(). Call before it can start running.
std::uint64_t commandBufferCommitted();

/// The command buffer with this ticket has completed (or failed) and its completed handlers
/// have returned.
void commandBufferFinished(std::uint64_t ticket);

/// A dispatch is about to run; `validated` when its pipeline has shader validation.
void dispatchExecuted(bool validated);

/// The calling thread runs command buffers (a command queue's thread): waitForPendingWork()
/// returns at once there instead of waiting for itself.
void markCommandQueueThread();

} // namespace metalcpu::val
