#include "metal_test.h"

namespace metalcpu::testing {
namespace {

using DeviceTest = MetalTest;

// Test that the device reports Apple-GPU limits that programs size their work from.
TEST_F(DeviceTest, ReportsAppleLimits) {
    MTL::Size maxThreads = device_->maxThreadsPerThreadgroup();
    EXPECT_EQ(maxThreads.width, 1024u);
    EXPECT_EQ(maxThreads.height, 1024u);
    EXPECT_EQ(maxThreads.depth, 1024u);
    EXPECT_EQ(device_->maxThreadgroupMemoryLength(), 32768u);
    EXPECT_TRUE(device_->hasUnifiedMemory());
    EXPECT_GT(device_->maxBufferLength(), 256u << 20);
    EXPECT_GE(device_->recommendedMaxWorkingSetSize(), device_->maxBufferLength());
    EXPECT_TRUE(device_->supportsFamily(MTL::GPUFamilyApple7));
    EXPECT_TRUE(device_->supportsFamily(MTL::GPUFamilyMetal3));
    EXPECT_FALSE(device_->supportsFamily(MTL::GPUFamilyApple10));
    EXPECT_NE(text(device_->name()).find("metalcpu"), std::string::npos);
}

// Test that there is one device: the default one is also the only one listed.
TEST_F(DeviceTest, CreateSystemDefaultDeviceReturnsTheSameDevice) {
    MTL::Device* again = MTL::CreateSystemDefaultDevice();
    EXPECT_EQ(again, device_);
    again->release();
    NS::Array* devices = MTL::CopyAllDevices();
    ASSERT_EQ(devices->count(), 1u);
    EXPECT_EQ(devices->object<MTL::Device>(0), device_);
    devices->release();
}

// Test that releasing the device more than the program retained it does not destroy it.
TEST_F(DeviceTest, SurvivesReleaseOfEveryReference) {
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    device->release();
    MTL::Device* again = MTL::CreateSystemDefaultDevice();
    EXPECT_EQ(again->maxThreadgroupMemoryLength(), 32768u);
    again->release();
}

// Test that currentAllocatedSize follows buffer allocations.
TEST_F(DeviceTest, TracksAllocatedSize) {
    NS::UInteger before = device_->currentAllocatedSize();
    MTL::Buffer* buffer = device_->newBuffer(1 << 20, MTL::ResourceStorageModeShared);
    EXPECT_GE(device_->currentAllocatedSize(), before + (1 << 20));
    buffer->release();
    EXPECT_EQ(device_->currentAllocatedSize(), before);
}

METALCPU_NIL_TEST_BODY void messageNilDevice() {
    MTL::Device* device = nil<MTL::Device>();
    EXPECT_EQ(device->newBuffer(16, MTL::ResourceStorageModeShared), nullptr);
    EXPECT_EQ(device->newCommandQueue(), nullptr);
    EXPECT_EQ(device->newDefaultLibrary(), nullptr);
    EXPECT_EQ(device->maxThreadgroupMemoryLength(), 0u);
    EXPECT_EQ(device->name(), nullptr);
    EXPECT_FALSE(device->hasUnifiedMemory());
    device->release();
}

// Test that methods on a null device do nothing and return zero, as in metal-cpp.
TEST(DeviceNil, MethodsOnNullReturnZero) { messageNilDevice(); }

} // namespace
} // namespace metalcpu::testing
