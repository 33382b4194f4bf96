// API validation turned on by Apple's variables rather than the test hook. ctest runs this
// program with MTL_DEBUG_LAYER=1 (DebugLayerAssertMode.*), with
// MTL_DEBUG_LAYER_ERROR_MODE=nslog under both switches (DebugLayerNSLogMode.*), and with
// MTL_DEBUG_LAYER_ERROR_MODE=ignore (DebugLayerIgnoreMode.*); see CMakeLists.txt.
#include "metal_test.h"

#include "runtime/debug_layer.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

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

class DebugLayerIgnoreMode : public MetalTest {
protected:
    /// What a program sees of one run of its mistakes: stderr, results and statuses.
    struct Outcome {
        std::string printed;
        bool bufferMade;
        MTL::CommandBufferStatus status;
        std::uint32_t scratchResult, bytesResult;
    };

    /// Makes three mistakes, each in its own command buffer where it has one: a zero-length
    /// buffer (refused with or without the layer), a threadgroup memory length that is not a
    /// multiple of 16 and setBytes bound to a writable argument (both only the layer objects
    /// to).
    Outcome makeMistakes(MTL::ComputePipelineState* scratch, MTL::ComputePipelineState* bump) {
        Outcome outcome{};
        MTL::Buffer* out = device_->newBuffer(8, MTL::ResourceStorageModeShared);
        auto* values = static_cast<std::uint32_t*>(out->contents());
        values[0] = values[1] = 0;
        const std::uint32_t bytes = 41;
        ::testing::internal::CaptureStderr();
        MTL::Buffer* empty = device_->newBuffer(0, MTL::ResourceStorageModeShared);
        outcome.bufferMade = empty != nullptr;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(scratch);
        encoder->setBuffer(out, 0, 0);
        encoder->setThreadgroupMemoryLength(4, 0);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->setComputePipelineState(bump);
        encoder->setBytes(&bytes, sizeof bytes, 0);
        encoder->setBuffer(out, 4, 1);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        outcome.status = run(commandBuffer);
        outcome.printed = ::testing::internal::GetCapturedStderr();
        outcome.scratchResult = values[0];
        outcome.bytesResult = values[1];
        if (empty) empty->release();
        out->release();
        return outcome;
    }
};

// Test that ignore mode turns the layer on and then reports nothing: each mistake behaves
// exactly as with the layer off, with no Apple-worded report.
TEST_F(DebugLayerIgnoreMode, MistakesBehaveAsWithoutTheLayer) {
    ASSERT_EQ(DebugLayer::mode(), DebugLayer::Mode::Ignore);
    MTL::Library* library = compile(R"(
#include <metal_stdlib>
using namespace metal;
kernel void scratch(device uint* out [[buffer(0)]], threadgroup uint* slot [[threadgroup(0)]],
                    uint local [[thread_index_in_threadgroup]]) {
    slot[local] = 7 + local;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[0] = slot[0];
}
kernel void bump(device uint* value [[buffer(0)]], device uint* out [[buffer(1)]]) {
    out[0] = value[0] + 1;
    value[0] = 0;
}
)");
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* scratch = pipeline(library, "scratch");
    MTL::ComputePipelineState* bump = pipeline(library, "bump");
    library->release();
    ASSERT_NE(scratch, nullptr);
    ASSERT_NE(bump, nullptr);

    std::vector<std::string> reports;
    DebugLayer::setForTesting(DebugLayer::Mode::Ignore, [&](const std::string& report) { reports.push_back(report); });
    const Outcome ignored = makeMistakes(scratch, bump);
    DebugLayer::setForTesting(DebugLayer::Mode::Off);
    const Outcome off = makeMistakes(scratch, bump);
    DebugLayer::setForTesting(DebugLayer::Mode::Ignore);

    EXPECT_TRUE(reports.empty()) << (reports.empty() ? "" : reports.front());
    EXPECT_EQ(ignored.printed.find("failed assertion"), std::string::npos) << ignored.printed;
    EXPECT_EQ(ignored.printed.find("MTLDebug"), std::string::npos) << ignored.printed;
    EXPECT_EQ(ignored.printed, off.printed);
    EXPECT_FALSE(ignored.bufferMade);
    EXPECT_EQ(ignored.bufferMade, off.bufferMade);
    EXPECT_EQ(ignored.status, MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(ignored.status, off.status);
    EXPECT_EQ(ignored.scratchResult, 7u);
    EXPECT_EQ(ignored.scratchResult, off.scratchResult);
    EXPECT_EQ(ignored.bytesResult, 42u);
    EXPECT_EQ(ignored.bytesResult, off.bytesResult);
    scratch->release();
    bump->release();
}

} // namespace
} // namespace metalcpu::testing
