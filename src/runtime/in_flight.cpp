#include "runtime/in_flight.h"

#include <algorithm>
#include <utility>

namespace metalcpu::rt {
namespace {

thread_local bool t_queueThread = false;

} // namespace

std::uint64_t QueueProgress::enqueue() { return enqueued_.fetch_add(1) + 1; }

std::uint64_t QueueProgress::commit(std::uint64_t number) {
    committed_.fetch_add(1);
    // Commits may come in any order (enqueue() reserves a place early); keep the highest.
    std::uint64_t last = lastCommitted_.load();
    while (last < number && !lastCommitted_.compare_exchange_weak(last, number)) {
    }
    return InFlight::shared().commits_.fetch_add(1) + 1;
}

void QueueProgress::finish(std::uint64_t number) {
    finished_.store(number);
    InFlight::shared().notifyFinished();
}

InFlight& InFlight::shared() {
    static InFlight* tracker = new InFlight; // command buffers may finish during static destruction
    return *tracker;
}

std::shared_ptr<QueueProgress> InFlight::addQueue() {
    auto progress = std::make_shared<QueueProgress>();
    std::lock_guard lock(mutex_);
    std::erase_if(queues_, [](const std::weak_ptr<QueueProgress>& queue) { return queue.expired(); });
    queues_.push_back(progress);
    return progress;
}

bool InFlight::markQueueThread(bool running) {
    const bool was = t_queueThread;
    t_queueThread = running;
    return was;
}

void InFlight::wait() { waitFor(std::nullopt, false); }

InFlight::Pending InFlight::waitUntil(std::chrono::steady_clock::time_point deadline) {
    return waitFor(deadline, true);
}

InFlight::Pending InFlight::waitFor(std::optional<std::chrono::steady_clock::time_point> deadline, bool skipGivenUp) {
    if (t_queueThread) return {};
    std::unique_lock lock(mutex_);
    // Only what was committed before the call: work committed meanwhile by other threads
    // could otherwise keep the caller waiting for ever.
    std::vector<std::pair<std::shared_ptr<QueueProgress>, std::uint64_t>> awaited;
    for (const std::weak_ptr<QueueProgress>& weak : queues_) {
        std::shared_ptr<QueueProgress> queue = weak.lock();
        if (!queue) continue;
        const std::uint64_t target = queue->lastCommitted_.load();
        if (skipGivenUp && target <= queue->givenUpTo_) continue;
        if (queue->finished_.load() < target) awaited.emplace_back(std::move(queue), target);
    }
    auto done = [&] {
        return std::all_of(awaited.begin(), awaited.end(),
                           [](const auto& entry) { return entry.first->finished_.load() >= entry.second; });
    };
    // Counted under the lock, before the condition is checked: a command buffer finishing
    // afterwards sees a waiter and takes the lock to notify (notifyFinished()).
    waiters_.fetch_add(1);
    if (deadline) finished_.wait_until(lock, *deadline, done);
    else finished_.wait(lock, done);
    waiters_.fetch_sub(1);

    Pending pending;
    for (const auto& [queue, target] : awaited) {
        const std::uint64_t finished = queue->finished_.load();
        if (finished >= target) continue;
        const std::uint64_t committed = queue->committed_.load();
        pending.committed += committed - finished;
        pending.notCommitted += queue->enqueued_.load() - committed;
    }
    return pending;
}

void InFlight::giveUp() {
    std::lock_guard lock(mutex_);
    for (const std::weak_ptr<QueueProgress>& weak : queues_)
        if (std::shared_ptr<QueueProgress> queue = weak.lock()) queue->givenUpTo_ = queue->lastCommitted_.load();
}

void InFlight::notifyFinished() {
    if (waiters_.load() == 0) return;
    { std::lock_guard lock(mutex_); } // a waiter between its check and its sleep holds the lock
    finished_.notify_all();
}

} // namespace metalcpu::rt
