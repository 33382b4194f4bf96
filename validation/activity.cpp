#include "validation/activity.h"

#include <metalcpu/Validation.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>

namespace metalcpu::val {
namespace {

struct Activity {
    std::mutex mutex;
    std::condition_variable finished; ///< signalled when a command buffer finishes
    std::uint64_t lastTicket = 0;     ///< the ticket of the latest commit
    /// Tickets of the command buffers committed and not finished. Queues run independently,
    /// so they finish in any order; a waiter looks at the oldest.
    std::set<std::uint64_t> inFlight;
    std::atomic<std::uint64_t> dispatches{0}, validatedDispatches{0};
};

Activity& activity() {
    static Activity* shared = new Activity; // command buffers may finish during static destruction
    return *shared;
}

thread_local bool t_commandQueueThread = false;

} // namespace

std::uint64_t commandBufferCommitted() {
    Activity& a = activity();
    std::lock_guard lock(a.mutex);
    a.inFlight.insert(++a.lastTicket);
    return a.lastTicket;
}

void commandBufferFinished(std::uint64_t ticket) {
    Activity& a = activity();
    {
        std::lock_guard lock(a.mutex);
        a.inFlight.erase(ticket);
    }
    a.finished.notify_all();
}

void dispatchExecuted(bool validated) {
    Activity& a = activity();
    a.dispatches.fetch_add(1, std::memory_order_relaxed);
    if (validated) a.validatedDispatches.fetch_add(1, std::memory_order_relaxed);
}

void markCommandQueueThread() { t_commandQueueThread = true; }

} // namespace metalcpu::val

namespace metalcpu::validation {

DispatchCounts dispatchCounts() {
    val::Activity& a = val::activity();
    // Validated first: a dispatch counted in between shows as unvalidated, never the reverse.
    DispatchCounts counts;
    counts.validated = a.validatedDispatches.load(std::memory_order_relaxed);
    counts.total = a.dispatches.load(std::memory_order_relaxed);
    return counts;
}

void waitForPendingWork() {
    if (val::t_commandQueueThread) return;
    val::Activity& a = val::activity();
    std::unique_lock lock(a.mutex);
    // Only what was committed before the call: work committed meanwhile by other threads
    // could otherwise keep the caller waiting for ever.
    const std::uint64_t last = a.lastTicket;
    a.finished.wait(lock, [&] { return a.inFlight.empty() || *a.inFlight.begin() > last; });
}

} // namespace metalcpu::validation
