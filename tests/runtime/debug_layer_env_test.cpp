// API validation turned on by Apple's variables rather than the test hook. ctest runs this
// program with MTL_DEBUG_LAYER=1 (DebugLayerAssertMode.*), and with
// MTL_DEBUG_LAYER_ERROR_MODE=nslog under both switches (DebugLayerNSLogMode.*); see
// CMakeLists.txt.
#include "metal_test.h"

#include "runtime/debug_layer.h"

#include <cstdlib>

namespace metalcpu::testing {
namespace {

using rt::DebugLayer;

const char* const kZeroLengthReport =
    "-[MTLDebugDevice validateNewBufferArgs:options:]:365: failed assertion `Cannot create buffer of zero length.'";

class DebugLayerAssertMode : public MetalTest {
protected:
    void SetUp() override {
        // A fresh copy of the program per death test: it creates the device, so it reads the
        // environment and prints the banner itself.
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        MetalTest::SetUp();
    }
};

// Test that the layer is on, in assert mode, once the device exists.
TEST_F(DebugLayerAssertMode, TurnedOnByTheEnvironment) {
    EXPECT_EQ(DebugLayer::mode(), DebugLayer::Mode::Assert);
}

// Test that the device prints the banner once, however often it is asked for.
TEST_F(DebugLayerAssertMode, BannerPrintedOnce) {
    EXPECT_EXIT(
        {
            MTL::CreateSystemDefaultDevice()->release();
            MTL::CreateSystemDefaultDevice()->release();
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "^Metal API Validation Enabled\n$");
}

// Test that a mistake prints Apple's line and aborts.
TEST_F(DebugLayerAssertMode, AbortsWithAppleMessage) {
    EXPECT_DEATH(device_->newBuffer(0, MTL::ResourceStorageModeShared), regexLiteral(kZeroLengthReport));
}

// Test that an encoder mistake aborts at encode time, before anything is committed.
TEST_F(DebugLayerAssertMode, AbortsAtEncodeTime) {
    MTL::ComputeCommandEncoder* encoder = queue_->commandBuffer()->computeCommandEncoder();
    EXPECT_DEATH(encoder->setThreadgroupMemoryLength(4, 0),
                 regexLiteral("-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:817: failed "
                              "assertion `length(4) must be a multiple of 16 bytes.'"));
    encoder->endEncoding();
}

using DebugLayerNSLogMode = MetalTest;

// Test that nslog mode prints Apple's line to stderr and the program goes on.
TEST_F(DebugLayerNSLogMode, PrintsAndContinues) {
    EXPECT_EQ(DebugLayer::mode(), DebugLayer::Mode::NSLog);
    ::testing::internal::CaptureStderr();
    MTL::Buffer* buffer = device_->newBuffer(0, MTL::ResourceStorageModeShared);
    const std::string printed = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(buffer, nullptr);
    EXPECT_EQ(printed.find(std::string(kZeroLengthReport) + "\n"), 0u) << printed;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
}

} // namespace
} // namespace metalcpu::testing
