// Tests of runtime/in_flight: which command buffers waitForPendingWork() waits for, per queue,
// and what a bounded wait says it left.
#include "metal_test.h"

#include "runtime/in_flight.h"

#include <metalcpu/Validation.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace metalcpu::testing {
namespace {

using rt::InFlight;
using rt::QueueProgress;

/// A bounded wait that returns at once: what is pending right now.
InFlight::Pending pendingNow() { return InFlight::shared().waitUntil(std::chrono::steady_clock::now()); }

// Test that a command buffer enqueued and not committed is not waited for, and a committed one
// is until it finishes.
TEST(InFlight, WaitsForCommittedCommandBuffersOnly) {
    std::shared_ptr<QueueProgress> queue = InFlight::shared().addQueue();
    const std::uint64_t first = queue->enqueue();
    EXPECT_TRUE(pendingNow().empty());
    queue->commit(first);
    InFlight::Pending pending = pendingNow();
    EXPECT_EQ(pending.committed, 1u);
    EXPECT_EQ(pending.notCommitted, 0u);
    queue->finish(first);
    EXPECT_TRUE(pendingNow().empty());
    InFlight::shared().wait(); // returns: nothing pending
}

// Test that a command buffer committed behind one that was enqueued and never committed is
// pending, and that the wait says what holds it back.
TEST(InFlight, CommittedBehindAnUncommittedOneIsPending) {
    std::shared_ptr<QueueProgress> queue = InFlight::shared().addQueue();
    const std::uint64_t first = queue->enqueue();
    const std::uint64_t second = queue->enqueue();
    queue->commit(second);
    InFlight::Pending pending = pendingNow();
    EXPECT_EQ(pending.committed, 1u);
    EXPECT_EQ(pending.notCommitted, 1u);
    queue->commit(first);
    queue->finish(first);
    EXPECT_EQ(pendingNow().committed, 1u);
    queue->finish(second);
    EXPECT_TRUE(pendingNow().empty());
}

// Test that queues are waited for independently: a queue that is done is not pending because
// another is not.
TEST(InFlight, QueuesAreIndependent) {
    std::shared_ptr<QueueProgress> stuck = InFlight::shared().addQueue();
    std::shared_ptr<QueueProgress> done = InFlight::shared().addQueue();
    const std::uint64_t running = stuck->enqueue();
    stuck->commit(running);
    for (int i = 0; i < 3; ++i) {
        const std::uint64_t number = done->enqueue();
        done->commit(number);
        done->finish(number);
    }
    EXPECT_EQ(pendingNow().committed, 1u);
    stuck->finish(running);
    EXPECT_TRUE(pendingNow().empty());
}

// Test that after giveUp() bounded waits leave the command buffers committed until then
// alone, and wait for the ones committed afterwards; the unbounded wait still waits for all.
TEST(InFlight, GivingUpLeavesWhatWasCommittedAlone) {
    std::shared_ptr<QueueProgress> queue = InFlight::shared().addQueue();
    const std::uint64_t never = queue->enqueue(); // never committed
    const std::uint64_t behind = queue->enqueue();
    queue->commit(behind);
    ASSERT_FALSE(pendingNow().empty());
    InFlight::shared().giveUp();
    EXPECT_TRUE(pendingNow().empty());
    const std::uint64_t later = queue->enqueue();
    queue->commit(later);
    EXPECT_EQ(pendingNow().committed, 2u) << "the later one waits behind the one given up on";
    queue->commit(never);
    queue->finish(never);
    queue->finish(behind);
    queue->finish(later);
    EXPECT_TRUE(pendingNow().empty());
}

// Test that a queue that no longer exists is not waited for.
TEST(InFlight, ForgottenQueuesAreNotWaitedFor) {
    std::shared_ptr<QueueProgress> queue = InFlight::shared().addQueue();
    queue->commit(queue->enqueue());
    ASSERT_FALSE(pendingNow().empty());
    queue.reset();
    EXPECT_TRUE(pendingNow().empty());
}

// Test that a waiter on another thread is woken when the command buffer it waits for
// finishes, long before its deadline.
TEST(InFlight, AWaiterIsWokenWhenItsWorkFinishes) {
    std::shared_ptr<QueueProgress> queue = InFlight::shared().addQueue();
    const std::uint64_t number = queue->enqueue();
    queue->commit(number);
    std::atomic<bool> waiting{false};
    InFlight::Pending pending{1, 1};
    std::thread waiter([&] {
        waiting = true;
        pending = InFlight::shared().waitUntil(std::chrono::steady_clock::now() + std::chrono::minutes(10));
    });
    while (!waiting) std::this_thread::yield();
    queue->finish(number);
    waiter.join(); // a lost wake-up would hold this for ten minutes, and ctest's timeout fails it
    EXPECT_TRUE(pending.empty());
}

using PendingWork = MetalTest;

// Test that waitForPendingWork() returns after a committed command buffer's completed
// handlers have returned, though nobody waited for it.
TEST_F(PendingWork, WaitsForCompletedHandlers) {
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    std::atomic<bool> handled{false};
    commands->addCompletedHandler([&](MTL::CommandBuffer*) {
        // Long enough that returning early would be seen; the test's outcome does not depend on it.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        handled = true;
    });
    commands->commit();
    validation::waitForPendingWork();
    EXPECT_TRUE(handled);
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
}

// Test that waitForPendingWork() called on a command queue's thread (from a completed handler)
// returns at once instead of waiting for the command buffer that is running the handler.
TEST_F(PendingWork, OnAQueueThreadReturnsAtOnce) {
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    std::atomic<bool> returned{false};
    commands->addCompletedHandler([&](MTL::CommandBuffer*) {
        validation::waitForPendingWork();
        returned = true;
    });
    run(commands);
    EXPECT_TRUE(returned);
}

// Test that command buffers made and not committed, or enqueued and not committed, are not
// pending, and that one committed behind those is.
TEST_F(PendingWork, OnlyCommittedCommandBuffersArePending) {
    MTL::CommandBuffer* made = queue_->commandBuffer();
    EXPECT_TRUE(pendingNow().empty());
    made->enqueue();
    EXPECT_TRUE(pendingNow().empty());
    MTL::CommandBuffer* behind = queue_->commandBuffer();
    behind->commit();
    InFlight::Pending pending = pendingNow();
    EXPECT_EQ(pending.committed, 1u);
    EXPECT_EQ(pending.notCommitted, 1u);
    made->commit();
    behind->waitUntilCompleted();
    EXPECT_TRUE(InFlight::shared().waitUntil(std::chrono::steady_clock::now() + std::chrono::minutes(1)).empty());
}

} // namespace
} // namespace metalcpu::testing
