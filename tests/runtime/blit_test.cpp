#include "metal_test.h"

namespace metalcpu::testing {
namespace {

using BlitTest = MetalTest;

// Test that copies and fills happen in encoding order.
TEST_F(BlitTest, CopyAndFill) {
    MTL::Buffer* source = device_->newBuffer(16, MTL::ResourceStorageModeShared);
    MTL::Buffer* destination = device_->newBuffer(16, MTL::ResourceStorageModeShared);
    auto* s = static_cast<unsigned char*>(source->contents());
    for (int i = 0; i < 16; ++i) s[i] = static_cast<unsigned char>(i + 1);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    blit->fillBuffer(destination, NS::Range::Make(0, 16), 0xAB);
    blit->copyFromBuffer(source, 4, destination, 8, 4);
    blit->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    auto* d = static_cast<unsigned char*>(destination->contents());
    for (int i = 0; i < 16; ++i) EXPECT_EQ(d[i], (i >= 8 && i < 12) ? i - 8 + 5 : 0xAB) << i;
    source->release();
    destination->release();
}

// Test that a copy past the end of a buffer fails the command buffer instead of corrupting memory.
TEST_F(BlitTest, CopyPastTheEndFails) {
    MTL::Buffer* small = device_->newBuffer(16, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    blit->copyFromBuffer(small, 0, small, 8, 16);
    blit->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    EXPECT_NE(commandBuffer->error(), nullptr);
    small->release();
}

} // namespace
} // namespace metalcpu::testing
