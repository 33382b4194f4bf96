#include "runtime/command_queue.h"

#include "runtime/buffer_memory.h"
#include "runtime/command_buffer.h"
#include "runtime/in_flight.h"
#include "runtime/log_state.h"
#include "support/log.h"
#include "support/spin.h"

#include <atomic>
#include <chrono>

namespace metalcpu::rt {

/// What the queue's thread needs; it outlives the queue object when the last reference
/// to the queue is dropped on that thread.
struct CommandQueue::Shared {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<CommandBuffer*> order; ///< enqueued buffers, each retained, oldest first
    std::atomic<std::uint64_t> commits{0}; ///< commit() calls, which the thread spins on
    bool stop = false;
    bool running = false; ///< the thread was started
    bool busy = false;    ///< a command buffer of the queue is running, on the thread or a waiter's
    std::thread thread;
    /// How far the queue has committed and finished, for waitForPendingWork().
    std::shared_ptr<QueueProgress> progress = InFlight::shared().addQueue();
};

CommandQueue::CommandQueue(Device* device, std::uint64_t /*maxCommandBufferCount*/)
    : device_(device), shared_(std::make_shared<Shared>()) {}

CommandQueue::~CommandQueue() {
    if (logState_) logState_->release();
    std::thread thread;
    {
        std::lock_guard lock(shared_->mutex);
        shared_->stop = true;
        thread = std::move(shared_->thread);
    }
    shared_->ready.notify_all();
    if (!thread.joinable()) return;
    // Command buffers hold the queue, so the last release can happen on the queue's own
    // thread; it then finishes by itself.
    if (thread.get_id() == std::this_thread::get_id()) thread.detach();
    else thread.join();
}

MTL::CommandBuffer* CommandQueue::commandBuffer(bool retainReferences, MTL::CommandBufferErrorOption errorOptions,
                                                LogState* logState) {
    return ns::autoreleased(
        ns::make<CommandBuffer>(this, retainReferences, errorOptions, logState ? logState : logState_));
}

void CommandQueue::setLogState(LogState* logState) {
    if (logState) logState->retain();
    if (logState_) logState_->release();
    logState_ = logState;
}

std::uint64_t CommandQueue::enqueue(CommandBuffer* buffer) {
    buffer->retain();
    std::lock_guard lock(shared_->mutex);
    shared_->order.push_back(buffer);
    if (!shared_->running) {
        shared_->running = true;
        shared_->thread = std::thread(&CommandQueue::run, shared_);
    }
    return shared_->progress->enqueue();
}

QueueProgress& CommandQueue::progress() { return *shared_->progress; }

void CommandQueue::commit(CommandBuffer* /*buffer*/) {
    // The buffer already has its place in `order`; wake the thread to look at it.
    std::lock_guard lock(shared_->mutex);
    shared_->commits.fetch_add(1, std::memory_order_release);
    shared_->ready.notify_all();
}

void CommandQueue::run(std::shared_ptr<Shared> shared) {
    InFlight::markQueueThread();
    for (;;) {
        CommandBuffer* next = nullptr;
        {
            std::unique_lock lock(shared->mutex);
            const auto ready = [&] {
                return (shared->stop && shared->order.empty()) ||
                       (!shared->busy && !shared->order.empty() && shared->order.front()->isCommitted());
            };
            if (!ready() && !BufferMemory::sharedWithDevice()) {
                // A program that commits one command buffer after another commits the next
                // within microseconds: spin for it before sleeping (support/spin.h). Not with
                // a device process, whose channels spin instead.
                constexpr auto kSpin = std::chrono::microseconds(50);
                const std::uint64_t seen = shared->commits.load(std::memory_order_acquire);
                lock.unlock();
                support::spinFor(kSpin, [&] { return shared->commits.load(std::memory_order_acquire) != seen; });
                lock.lock();
            }
            shared->ready.wait(lock, ready);
            if (shared->order.empty()) return;
            next = shared->order.front();
            shared->order.pop_front();
            shared->busy = true;
        }
        next->execute();
        {
            std::lock_guard lock(shared->mutex);
            shared->busy = false;
        }
        next->release(); // may destroy the queue; only `shared` is used from here on
    }
}

bool CommandQueue::runOnCaller(CommandBuffer* buffer) {
    // With a device process the buffer's commands go to it from the queue's thread, whose
    // channel spins for the answer.
    if (BufferMemory::sharedWithDevice()) return false;
    {
        std::lock_guard lock(shared_->mutex);
        if (shared_->busy || shared_->order.empty() || shared_->order.front() != buffer || !buffer->isCommitted())
            return false;
        shared_->order.pop_front();
        shared_->busy = true;
    }
    support::log().trace("a command buffer runs on the thread that waits for it");
    {
        // Its handlers run here as on the queue's thread, where waiting for all work in
        // flight (InFlight) returns at once rather than wait for itself.
        const bool wasQueueThread = InFlight::markQueueThread(true);
        buffer->execute();
        InFlight::markQueueThread(wasQueueThread);
    }
    {
        std::lock_guard lock(shared_->mutex);
        shared_->busy = false;
    }
    // The queue's thread may be asleep with the next buffer ready behind this one.
    shared_->ready.notify_all();
    buffer->release(); // the queue's reference; the waiter holds its own
    return true;
}

} // namespace metalcpu::rt
