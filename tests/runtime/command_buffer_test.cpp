#include "metal_test.h"

#include "foundation/object.h"

#include <atomic>
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
