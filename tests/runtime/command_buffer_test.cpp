#include "metal_test.h"

#include "foundation/object.h"
#include "isolation/device_process.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace metalcpu::testing {
namespace {

using CommandBufferTest = MetalTest;

// Test the status transitions and that both handlers run, scheduled before completed.
TEST_F(CommandBufferTest, StatusAndHandlers) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusNotEnqueued);
    std::vector<int> order;
    commandBuffer->addScheduledHandler([&](MTL::CommandBuffer* buffer) {
        EXPECT_EQ(buffer, commandBuffer);
        order.push_back(1);
    });
    commandBuffer->addCompletedHandler([&](MTL::CommandBuffer* buffer) {
        EXPECT_EQ(buffer->status(), MTL::CommandBufferStatusCompleted);
        order.push_back(2);
    });
    commandBuffer->enqueue();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusEnqueued);
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
    EXPECT_EQ(commandBuffer->error(), nullptr);
    EXPECT_GE(commandBuffer->GPUEndTime(), commandBuffer->GPUStartTime());
    EXPECT_GT(commandBuffer->GPUStartTime(), 0.0);
}

// Test that command buffers of a queue run in enqueue order, even when committed out of order.
TEST_F(CommandBufferTest, RunInEnqueueOrder) {
    std::vector<int> order;
    MTL::CommandBuffer* first = queue_->commandBuffer();
    MTL::CommandBuffer* second = queue_->commandBuffer();
    first->addCompletedHandler([&](MTL::CommandBuffer*) { order.push_back(1); });
    second->addCompletedHandler([&](MTL::CommandBuffer*) { order.push_back(2); });
    first->enqueue();
    second->enqueue();
    second->commit();
    first->commit();
    second->waitUntilCompleted();
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

// Test that many command buffers without any autorelease pool keep live objects bounded.
TEST(CommandBufferNoPool, ThousandsOfCommandBuffersWithoutAPool) {
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    std::atomic<int> completed{0};
    const std::size_t liveBefore = metalcpu::ns::ObjectBase::liveObjectCount();
    std::size_t livePeak = liveBefore;
    for (int i = 0; i < 5000; ++i) {
        MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
        MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
        blit->endEncoding();
        commandBuffer->addCompletedHandler([&](MTL::CommandBuffer*) { ++completed; });
        commandBuffer->commit();
        if (i % 100 == 99) commandBuffer->waitUntilCompleted();
        livePeak = std::max(livePeak, metalcpu::ns::ObjectBase::liveObjectCount());
    }
    MTL::CommandBuffer* last = queue->commandBuffer();
    last->commit();
    last->waitUntilCompleted();
    EXPECT_EQ(completed.load(), 5000);
    // 5000 command buffers and 5000 encoders were autoreleased with no pool: the fallback
    // pool keeps about a thousand of them, not all ten thousand.
    EXPECT_LT(livePeak - liveBefore, 2500u);
    queue->release();
    device->release();
}

// Test that a second encoder while one is open is refused, not a crash.
TEST_F(CommandBufferTest, SecondOpenEncoderIsRefused) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    ASSERT_NE(encoder, nullptr);
    EXPECT_EQ(commandBuffer->blitCommandEncoder(), nullptr);
    encoder->endEncoding();
    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    EXPECT_NE(blit, nullptr);
    blit->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
}

// Test that committing twice is ignored and does not run the commands twice.
TEST_F(CommandBufferTest, CommitTwiceIsIgnored) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    int completions = 0;
    commandBuffer->addCompletedHandler([&](MTL::CommandBuffer*) { ++completions; });
    commandBuffer->commit();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    MTL::CommandBuffer* after = queue_->commandBuffer();
    EXPECT_EQ(run(after), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(completions, 1);
}

// Test that waiting on a command buffer that was never committed returns instead of hanging.
TEST_F(CommandBufferTest, WaitWithoutCommitReturns) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    commandBuffer->waitUntilCompleted();
    commandBuffer->waitUntilScheduled();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusNotEnqueued);
}

/// Makes `commandBuffer`, once scheduled, wait in a scheduled handler (on the queue's thread,
/// so neither it nor later command buffers of the queue complete) until the returned promise
/// is kept, or 30 seconds have passed.
std::promise<void> holdWhenScheduled(MTL::CommandBuffer* commandBuffer) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    commandBuffer->addScheduledHandler(
        [released](MTL::CommandBuffer*) { released.wait_for(std::chrono::seconds(30)); });
    return release;
}

// Test that a command buffer passes through Committed and Scheduled: Committed while an
// earlier command buffer of the queue still runs, Scheduled in its scheduled handler.
TEST_F(CommandBufferTest, StatusPassesThroughCommittedAndScheduled) {
    MTL::CommandBuffer* blocker = queue_->commandBuffer();
    std::promise<void> release = holdWhenScheduled(blocker);
    blocker->commit();
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    std::vector<MTL::CommandBufferStatus> seen;
    commandBuffer->addScheduledHandler([&](MTL::CommandBuffer* buffer) { seen.push_back(buffer->status()); });
    commandBuffer->addCompletedHandler([&](MTL::CommandBuffer* buffer) { seen.push_back(buffer->status()); });
    commandBuffer->commit();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusCommitted);
    release.set_value();
    commandBuffer->waitUntilCompleted();
    EXPECT_EQ(seen, (std::vector<MTL::CommandBufferStatus>{MTL::CommandBufferStatusScheduled,
                                                           MTL::CommandBufferStatusCompleted}));
    EXPECT_EQ(blocker->status(), MTL::CommandBufferStatusCompleted);
}

// Test that waitUntilScheduled after commit returns once the command buffer is scheduled,
// before its work has finished.
TEST_F(CommandBufferTest, WaitUntilScheduledAfterCommit) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    std::promise<void> finish = holdWhenScheduled(commandBuffer);
    commandBuffer->commit();
    commandBuffer->waitUntilScheduled();
    const MTL::CommandBufferStatus status = commandBuffer->status();
    finish.set_value();
    EXPECT_GE(status, MTL::CommandBufferStatusScheduled);
    EXPECT_LT(status, MTL::CommandBufferStatusCompleted) << "waitUntilScheduled waited for completion";
    commandBuffer->waitUntilCompleted();
    commandBuffer->waitUntilScheduled(); // returns at once once completed
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusCompleted);
}

// Test that a command buffer's label reads back as set, and can be cleared.
TEST_F(CommandBufferTest, Label) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    EXPECT_EQ(commandBuffer->label(), nullptr);
    commandBuffer->setLabel(NS::String::string("matmul pass", NS::UTF8StringEncoding));
    EXPECT_EQ(text(commandBuffer->label()), "matmul pass");
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(text(commandBuffer->label()), "matmul pass");
    MTL::CommandBuffer* other = queue_->commandBuffer();
    other->setLabel(NS::String::string("first", NS::UTF8StringEncoding));
    other->setLabel(nullptr);
    EXPECT_EQ(other->label(), nullptr);
}

// Test that a command buffer without retained references runs its work, and leaves the
// retain counts of what it uses alone, where the default command buffer retains them.
TEST_F(CommandBufferTest, UnretainedReferencesRunWork) {
    MTL::Library* library = compile(R"(
kernel void fill(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = i * i + 1; }
)");
    MTL::ComputePipelineState* state = pipeline(library, "fill");
    if (library) library->release();
    ASSERT_NE(state, nullptr);
    const unsigned count = 300;
    for (bool retained : {false, true}) {
        MTL::Buffer* out = device_->newBuffer(count * 4, MTL::ResourceStorageModeShared);
        MTL::CommandBuffer* commandBuffer =
            retained ? queue_->commandBuffer() : queue_->commandBufferWithUnretainedReferences();
        ASSERT_NE(commandBuffer, nullptr);
        EXPECT_EQ(commandBuffer->retainedReferences(), retained);
        const NS::UInteger before = out->retainCount();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(13, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(out->retainCount() > before, retained) << "retained references: " << retained;
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        const auto* values = static_cast<const std::uint32_t*>(out->contents());
        for (unsigned i = 0; i < count; ++i) ASSERT_EQ(values[i], i * i + 1) << i;
        EXPECT_EQ(out->retainCount(), before);
        out->release();
    }
    state->release();
}

// Test that the next command buffer of an idle queue, waited for, runs on one thread with its
// handlers: the waiting thread when kernels run in this process and the queue's thread has
// not taken it first (commit wakes that thread, so which one wins is a race; a fresh-clone run
// saw the queue's thread win), the queue's thread with a device process. The kernels' results
// are right for one thread, groups not a multiple of 32 and an uneven grid, canaries intact.
// Handing it over cost two thread wake-ups, 75-220 us under load against 1-6 us
// (bench/README.md).
TEST_F(CommandBufferTest, WaiterRunsTheNextBufferOfAnIdleQueue) {
    MTL::ComputePipelineState* state = pipeline(R"(
kernel void fill(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = i * 3 + 7; }
)", "fill");
    ASSERT_NE(state, nullptr);
    const bool inProcess = iso::DeviceProcess::forExecution() == nullptr;
    const unsigned canary = 0xC0FFEE11u;
    for (auto [count, group] : {std::pair{1u, 1u}, std::pair{45u, 45u}, std::pair{300u, 13u}}) {
        MTL::Buffer* out = device_->newBuffer((count + 2) * 4, MTL::ResourceStorageModeShared);
        auto* words = static_cast<std::uint32_t*>(out->contents());
        words[0] = words[count + 1] = canary;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        std::thread::id scheduledOn, completedOn;
        commandBuffer->addScheduledHandler([&](MTL::CommandBuffer*) { scheduledOn = std::this_thread::get_id(); });
        commandBuffer->addCompletedHandler([&](MTL::CommandBuffer*) { completedOn = std::this_thread::get_id(); });
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 4, 0);
        encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        EXPECT_EQ(scheduledOn, completedOn) << count << " threads";
        if (!inProcess) {
            EXPECT_NE(completedOn, std::this_thread::get_id()) << count << " threads";
        }
        for (unsigned i = 0; i < count; ++i) ASSERT_EQ(words[i + 1], i * 3 + 7) << i;
        EXPECT_EQ(words[0], canary);
        EXPECT_EQ(words[count + 1], canary);
        out->release();
    }
    state->release();
}

// Test that a waiter runs no command buffer out of the queue's order: the second of two waits
// while the first, held up by an event, runs on the queue's thread (or stands first in line),
// and finishes after it.
TEST_F(CommandBufferTest, WaiterKeepsTheQueueOrder) {
    MTL::SharedEvent* event = device_->newSharedEvent();
    std::vector<int> order;
    std::mutex orderMutex;
    MTL::CommandBuffer* first = queue_->commandBuffer();
    MTL::CommandBuffer* second = queue_->commandBuffer();
    first->encodeWait(event, 1);
    first->addCompletedHandler([&](MTL::CommandBuffer*) {
        std::lock_guard lock(orderMutex);
        order.push_back(1);
    });
    second->addCompletedHandler([&](MTL::CommandBuffer*) {
        std::lock_guard lock(orderMutex);
        order.push_back(2);
    });
    first->commit();
    second->commit();
    std::future<void> waiter = std::async(std::launch::async, [&] { second->waitUntilCompleted(); });
    EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "the second command buffer finished before the first could";
    event->setSignaledValue(1);
    waiter.get();
    first->waitUntilCompleted();
    EXPECT_EQ(first->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(second->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
    event->release();
}

METALCPU_NIL_TEST_BODY void messageNilCommandBuffer() {
    MTL::CommandBuffer* commandBuffer = nil<MTL::CommandBuffer>();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusNotEnqueued);
    EXPECT_EQ(commandBuffer->computeCommandEncoder(), nullptr);
    EXPECT_EQ(commandBuffer->error(), nullptr);
    MTL::CommandQueue* queue = nil<MTL::CommandQueue>();
    EXPECT_EQ(queue->commandBuffer(), nullptr);
}

// Test that command buffer methods on null do nothing.
TEST(CommandBufferNil, MethodsOnNullReturnZero) { messageNilCommandBuffer(); }

} // namespace
} // namespace metalcpu::testing
