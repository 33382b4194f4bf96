#include "metal_test.h"
#include "runtime/device.h"

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
    EXPECT_NE(text(device_->name()).find("metalcpu"), std::string::npos);
}

// Test that supportsFamily answers for the emulated GPU family: AppleN up to it, Apple10
// only on apple10, and Mac2, Common1-3, Metal3 and Metal4 on every family.
TEST_F(DeviceTest, SupportsFamilyPerEmulatedFamily) {
    auto* device = rt::Device::systemDefault();
    const rt::GpuEmulation saved = device->emulation();
    for (mc_u32 emulated : {MC_GPU_FAMILY_APPLE7, MC_GPU_FAMILY_APPLE8, MC_GPU_FAMILY_APPLE9, MC_GPU_FAMILY_APPLE10}) {
        SCOPED_TRACE(rt::GpuEmulation::familyName(emulated));
        rt::GpuEmulation emulation = saved;
        emulation.family = emulated;
        device->setEmulationForTesting(emulation);
        for (NS::Integer apple = MTL::GPUFamilyApple1; apple <= MTL::GPUFamilyApple10; ++apple)
            EXPECT_EQ(device_->supportsFamily(static_cast<MTL::GPUFamily>(apple)), apple <= NS::Integer(emulated))
                << "Apple" << apple - 1000;
        for (MTL::GPUFamily always : {MTL::GPUFamilyMac2, MTL::GPUFamilyCommon1, MTL::GPUFamilyCommon2,
                                      MTL::GPUFamilyCommon3, MTL::GPUFamilyMetal3, MTL::GPUFamilyMetal4})
            EXPECT_TRUE(device_->supportsFamily(always)) << always;
        for (MTL::GPUFamily never : {MTL::GPUFamilyMac1, MTL::GPUFamilyMacCatalyst1, MTL::GPUFamilyMacCatalyst2,
                                     static_cast<MTL::GPUFamily>(1011), static_cast<MTL::GPUFamily>(0)})
            EXPECT_FALSE(device_->supportsFamily(never)) << never;
    }
    device->setEmulationForTesting(saved);
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
