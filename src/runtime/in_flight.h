// Command buffers in flight, for metalcpu::validation::waitForPendingWork(). Each queue numbers
// its command buffers in the order they are enqueued — the order it runs them — and counts, in
// atomics, how far it has committed and finished them; a waiter reads every queue's counts. So
// commit and completion take no lock shared with other queues, and wake a waiter only when
// there is one.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace metalcpu::rt {

/// One queue's command buffers, by the number each got when it was enqueued (1, 2, ...).
class QueueProgress {
public:
    /// A command buffer takes the next place in the queue: returns its number. Call under the
    /// queue's lock, so that numbers follow the queue's order.
    std::uint64_t enqueue();
    /// Command buffer `number` is committed: waits started from now on wait for it. Call
    /// before the queue's thread can run it. Returns its place among the command buffers the
    /// process committed (1, 2, ...).
    std::uint64_t commit(std::uint64_t number);
    /// Command buffer `number` has completed and its completed handlers have returned. Called
    /// on the queue's thread, in number order.
    void finish(std::uint64_t number);

private:
    friend class InFlight;
    std::atomic<std::uint64_t> enqueued_{0};      ///< the latest number given
    std::atomic<std::uint64_t> committed_{0};     ///< how many were committed
    std::atomic<std::uint64_t> lastCommitted_{0}; ///< the highest number committed
    std::atomic<std::uint64_t> finished_{0};      ///< the latest number finished; all before it are too
    std::uint64_t givenUpTo_ = 0; ///< bounded waits leave numbers up to this alone (InFlight's mutex)
};

/// Every queue's progress, and the waits for it.
class InFlight {
public:
    static InFlight& shared();

    /// The progress of a new queue, watched while anything holds it.
    std::shared_ptr<QueueProgress> addQueue();

    /// What a wait was still waiting for when it returned.
    struct Pending {
        std::uint64_t committed = 0;    ///< committed and not finished, on the queues waited for
        std::uint64_t notCommitted = 0; ///< enqueued and never committed, on those queues
        bool empty() const { return committed == 0; }
    };

    /// Waits until every command buffer committed before the call has finished. Returns at
    /// once, with nothing pending, on a queue's thread (it would wait for itself there).
    void wait();
    /// The same, until `deadline` at the latest, and without waiting for what giveUp() gave up
    /// on: returns what is still pending (nothing when everything finished).
    Pending waitUntil(std::chrono::steady_clock::time_point deadline);
    /// Later waitUntil() calls do not wait for the command buffers committed until now: one
    /// that never finishes then holds up one bounded wait, not every one after it.
    void giveUp();

    /// How many command buffers the process has committed.
    std::uint64_t commits() const { return commits_.load(); }

    /// Whether the calling thread runs command buffers now (a queue's thread, or a waiter
    /// running the one it waits for): such a thread's waits for all work return at once.
    /// Returns what it was.
    static bool markQueueThread(bool running = true);

private:
    friend class QueueProgress;
    Pending waitFor(std::optional<std::chrono::steady_clock::time_point> deadline, bool skipGivenUp);
    void notifyFinished();

    std::mutex mutex_;
    std::condition_variable finished_;
    std::atomic<int> waiters_{0}; ///< so that a command buffer finishing with none takes no lock
    std::atomic<std::uint64_t> commits_{0};
    std::vector<std::weak_ptr<QueueProgress>> queues_;
};

} // namespace metalcpu::rt
