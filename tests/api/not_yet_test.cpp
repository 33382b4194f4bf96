// What the device answers about itself, and how the methods that need functionality metalcpu
// does not have yet behave on live objects: nullptr, an error where the method takes one, and
// one log line per method.
#include "foundation/test_support.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using metalcpu::ns::testing::LogCapture;

/// The number of times `needle` occurs in `haystack`.
std::size_t occurrences(const std::string& haystack, const std::string& needle) {
    std::size_t count = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++count;
    return count;
}

// Test that a device factory of an unsupported object returns nullptr with an
// NSFeatureUnsupportedError, and logs its name once however often it is called.
TEST(NotYetTest, FactoriesFailWithAnErrorAndLogOnce) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    auto device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    auto url = NS::TransferPtr(NS::URL::alloc()->initFileURLWithPath(NS::String::string("/tmp/archive", NS::UTF8StringEncoding)));
    LogCapture log;
    for (int i = 0; i < 3; ++i) {
        NS::Error* error = nullptr;
        EXPECT_EQ(device->newArchive(url.get(), &error), nullptr);
        ASSERT_NE(error, nullptr);
        EXPECT_EQ(error->code(), 3328);
        EXPECT_STREQ(error->domain()->utf8String(), "NSCocoaErrorDomain");
        EXPECT_NE(std::string(error->localizedDescription()->utf8String()).find("MTL::Device::newArchive"),
                  std::string::npos);
    }
    EXPECT_EQ(occurrences(log.text(), "MTL::Device::newArchive"), 1u) << log.text();
    EXPECT_EQ(device->newFence(), nullptr);
    EXPECT_EQ(device->newCounterHeap(nullptr, nullptr), nullptr);
    EXPECT_EQ(MTL::CaptureManager::sharedCaptureManager(), nullptr);
    EXPECT_EQ(CA::MetalLayer::layer(), nullptr);
    pool->release();
}

// Test that the MTL4 compute encoder's commands metalcpu cannot run yet (texture copies,
// indirect dispatch, indirect command buffers, mipmaps) each log exactly once however often
// they are called, instead of dropping the work silently.
TEST(NotYetTest, Mtl4EncoderCommandsLogOnce) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    auto device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    auto allocator = NS::TransferPtr(device->newCommandAllocator());
    auto commands = NS::TransferPtr(device->newCommandBuffer());
    commands->beginCommandBuffer(allocator.get());
    MTL4::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    ASSERT_NE(encoder, nullptr);
    LogCapture log;
    for (int i = 0; i < 3; ++i) {
        encoder->copyFromTexture(nullptr, nullptr);
        encoder->copyFromBuffer(nullptr, 0, 0, 0, MTL::Size(1, 1, 1), nullptr, 0, 0, MTL::Origin(0, 0, 0));
        encoder->copyFromTexture(nullptr, 0, 0, MTL::Origin(0, 0, 0), MTL::Size(1, 1, 1), nullptr, 0, 0, 0);
        encoder->dispatchThreads(MTL::GPUAddress(0));
        encoder->dispatchThreadgroups(MTL::GPUAddress(0), MTL::Size(1, 1, 1));
        encoder->executeCommandsInBuffer(nullptr, NS::Range(0, 1));
        encoder->generateMipmaps(nullptr);
    }
    for (const char* method :
         {"MTL4::ComputeCommandEncoder::copyFromTexture", "MTL4::ComputeCommandEncoder::copyFromBuffer(toTexture)",
          "MTL4::ComputeCommandEncoder::copyFromTexture(toBuffer)",
          "MTL4::ComputeCommandEncoder::dispatchThreads(indirectBuffer)",
          "MTL4::ComputeCommandEncoder::dispatchThreadgroups(indirectBuffer)",
          "MTL4::ComputeCommandEncoder::executeCommandsInBuffer", "MTL4::ComputeCommandEncoder::generateMipmaps"})
        EXPECT_EQ(occurrences(log.text(), std::string(method) + " is not supported"), 1u) << method << " in " << log.text();
    encoder->endEncoding();
    commands->endCommandBuffer();
    pool->release();
}

METALCPU_NIL_TEST_BODY void messageNilDevice() {
    LogCapture log;
    MTL::Device* device = metalcpu::ns::testing::nil<MTL::Device>();
    NS::Error* error = nullptr;
    EXPECT_EQ(device->newArchive(nullptr, &error), nullptr);
    EXPECT_EQ(error, nullptr);
    EXPECT_EQ(device->newHeap(nullptr), nullptr);
    EXPECT_EQ(log.text(), "");
}

// Test that methods called on nil neither log nor write their error argument.
TEST(NotYetTest, NilReceiversStaySilent) { messageNilDevice(); }

// Test that the device describes itself: its architecture is named after the host, its
// timestamps are nanoseconds of one clock, and it takes argument buffers of tier 2.
TEST(DeviceQueriesTest, IdentityTimestampsAndTiers) {
    auto device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    MTL::Architecture* architecture = device->architecture();
    ASSERT_NE(architecture, nullptr);
    EXPECT_EQ(std::string(architecture->name()->utf8String()).rfind("metalcpu_", 0), 0u);
    EXPECT_EQ(device->architecture(), architecture);
    EXPECT_EQ(device->location(), MTL::DeviceLocationBuiltIn);
    EXPECT_EQ(device->argumentBuffersSupport(), MTL::ArgumentBuffersTier2);
    EXPECT_EQ(device->readWriteTextureSupport(), MTL::ReadWriteTextureTier2);
    EXPECT_FALSE(device->supportsRaytracing());
    EXPECT_FALSE(device->supportsFunctionPointers());

    EXPECT_EQ(device->queryTimestampFrequency(), 1'000'000'000u);
    MTL::Timestamp cpu1 = 0, gpu1 = 0, cpu2 = 0, gpu2 = 0;
    device->sampleTimestamps(&cpu1, &gpu1);
    device->sampleTimestamps(&cpu2, &gpu2);
    EXPECT_GT(cpu1, 0u);
    EXPECT_EQ(cpu1, gpu1);
    EXPECT_LE(cpu1, cpu2);

    EXPECT_GE(device->maximumConcurrentCompilationTaskCount(), 2u);
    device->setShouldMaximizeConcurrentCompilation(true);
    EXPECT_TRUE(device->shouldMaximizeConcurrentCompilation());
    device->setShouldMaximizeConcurrentCompilation(false);
    EXPECT_EQ(device->minimumLinearTextureAlignmentForPixelFormat(MTL::PixelFormatRGBA8Unorm), 16u);
}

// Test that the device observer functions return the devices and an observer that can be removed.
TEST(DeviceQueriesTest, Observers) {
    NS::Object* observer = reinterpret_cast<NS::Object*>(1);
    NS::Array* devices = MTL::CopyAllDevicesWithObserver(&observer, [](MTL::Device*, MTL::DeviceNotificationName) {});
    ASSERT_NE(devices, nullptr);
    EXPECT_EQ(devices->count(), 1u);
    EXPECT_EQ(observer, nullptr);
    MTL::RemoveDeviceObserver(observer);
    devices->release();
}

// Test that the constant strings carry Apple's names.
TEST(ConstantsTest, ApplesNames) {
    EXPECT_STREQ(MTL::DeviceWasAddedNotification->utf8String(), "MTLDeviceWasAddedNotification");
    EXPECT_STREQ(MTL::DeviceRemovalRequestedNotification->utf8String(), "MTLDeviceRemovalRequestedNotification");
    EXPECT_STREQ(MTL::DeviceWasRemovedNotification->utf8String(), "MTLDeviceWasRemovedNotification");
    EXPECT_STREQ(MTL::CommandBufferEncoderInfoErrorKey->utf8String(), "MTLCommandBufferEncoderInfoErrorKey");
    EXPECT_STREQ(MTL::LogStateErrorDomain->utf8String(), "MTLLogStateErrorDomain");
    EXPECT_STREQ(MTL::TensorDomain->utf8String(), "MTLTensorDomain");
    // Constants are never freed.
    MTL::TensorDomain->release();
    EXPECT_STREQ(MTL::TensorDomain->utf8String(), "MTLTensorDomain");
}

} // namespace
