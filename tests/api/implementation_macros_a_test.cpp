// metal-cpp programs define the implementation macros before including the headers, in one
// translation unit or (by mistake, and it works with Apple's headers) in two. This test and
// implementation_macros_b.cpp both do; linking them together must work.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#define CA_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#include <gtest/gtest.h>

MTL::CommandQueue* queueFromTheOtherUnit(MTL::Device* device);

namespace {

// Test that objects made in two translation units that both define the implementation
// macros work together.
TEST(ImplementationMacros, TwoTranslationUnits) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    ASSERT_NE(device, nullptr);
    MTL::CommandQueue* queue = queueFromTheOtherUnit(device);
    ASSERT_NE(queue, nullptr);
    EXPECT_EQ(queue->device(), device);
    MTL::CommandBuffer* commands = queue->commandBuffer();
    commands->commit();
    commands->waitUntilCompleted();
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    queue->release();
    device->release();
    pool->release();
}

} // namespace
