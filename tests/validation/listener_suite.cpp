// A GoogleTest suite as a user writes one for their kernels, linked with metalcpu::gtest_main: no
// guard, no collector in most tests — the listener alone fails the tests whose kernels go out of
// bounds. Not a test of its own: process_level_test.cpp runs it, with and without
// MTL_SHADER_VALIDATION, and reads what it printed. ListenerSuite is the user's suite; the
// other suites each show one more case, run on their own.
#include "copy_shifted.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using namespace metalcpu::testing;

constexpr NS::UInteger kCount = 256;
/// Enough threads that a dispatch nobody waits for is still running when its test returns.
constexpr NS::UInteger kManyThreads = NS::UInteger(1) << 20;

class ListenerSuite : public ::testing::Test {
protected:
    static void SetUpTestSuite() { copy_ = copy_shifted::pipeline("copy_shifted"); }
    static void TearDownTestSuite() { copy_->release(); }
    static MTL::ComputePipelineState* copy_;
};

MTL::ComputePipelineState* ListenerSuite::copy_ = nullptr;

// Stores one element past the end of its output: fails at copy_shifted.metal:11.
TEST_F(ListenerSuite, OffByOne) {
    static float storage[kCount + 1];
    copy_shifted::copy(copy_, storage, kCount, 1)->waitUntilCompleted();
}

// Stays in bounds: passes.
TEST_F(ListenerSuite, InBounds) {
    static float storage[kCount + 1];
    copy_shifted::copy(copy_, storage, kCount, 0)->waitUntilCompleted();
}

// Commits an off-by-one store and returns without waiting: the report is this test's.
TEST_F(ListenerSuite, OffByOneNotWaitedFor) {
    static float storage[kManyThreads + 1]; // outlives the test, which the kernel may outlive
    copy_shifted::copy(copy_, storage, kManyThreads, 1);
}

// Stays in bounds, right after the test that did not wait: passes.
TEST_F(ListenerSuite, InBoundsAfterTheUnwaitedOne) {
    static float storage[kCount + 1];
    copy_shifted::copy(copy_, storage, kCount, 0)->waitUntilCompleted();
}

// Expects the off-by-one: the collector takes the report, and the listener leaves it alone.
TEST_F(ListenerSuite, ExpectedReport) {
    ValidationReportCollector reports;
    static float storage[kCount + 1];
    copy_shifted::copy(copy_, storage, kCount, 1);
    if (metalcpu::validation::shaderValidationEnabled())
        EXPECT_THAT(reports.take(), ::testing::ElementsAre(::testing::AllOf(
                                        InvalidStore("copy_shifted", 1), AtLine(11), AtThread(kCount - 1))));
    else
        EXPECT_THAT(reports.take(), ::testing::IsEmpty());
}

// Its SetUpTestSuite stores out of bounds, before any test runs: the listener fails the suite,
// which GoogleTest reports as a failure in SetUpTestSuite or TearDownTestSuite, while the test
// itself, clean, passes.
class SuiteSetUpGoesOutOfBounds : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        static float storage[kCount + 1];
        MTL::ComputePipelineState* copy = copy_shifted::pipeline("copy_shifted");
        copy_shifted::copy(copy, storage, kCount, 1)->waitUntilCompleted();
        copy->release();
    }
};

TEST_F(SuiteSetUpGoesOutOfBounds, CleanTest) {
    static float storage[kCount + 1];
    MTL::ComputePipelineState* copy = copy_shifted::pipeline("copy_shifted");
    copy_shifted::copy(copy, storage, kCount, 0)->waitUntilCompleted();
    copy->release();
}

// Its SetUpTestSuite fails (as when a suite's kernels do not compile): GoogleTest runs none of
// its tests. metalcpu::gtest_main's SuiteSetUpFailureListener makes the test fail when it is
// the only one selected, as ctest runs it.
class SuiteSetUpFails : public ::testing::Test {
protected:
    static void SetUpTestSuite() { ADD_FAILURE() << "the suite's kernels did not compile"; }
};

TEST_F(SuiteSetUpFails, NeverRuns) {}

// Commits a command buffer behind one that was enqueue()d and never committed, on a queue of
// its own: neither can ever run. Passes without the listener; with it, fails when the wait
// for its command buffers reaches METALCPU_SHADER_VALIDATION_WAIT_LIMIT, and the suite goes

// Run with MTL_DEBUG_LAYER=1 and MTL_DEBUG_LAYER_ERROR_MODE=nslog: the layer reports the missing
// binding and drops the dispatch, so shader validation never sees it; the listener fails the
// test on the layer's report.
TEST(DebugLayerGoesOn, MissingBinding) {
    copy_shifted::Kernels& k = copy_shifted::kernels();
    MTL::ComputePipelineState* pipeline = copy_shifted::pipeline("copy_shifted");
    MTL::Buffer* in = k.device->newBuffer(kCount * sizeof(float), MTL::ResourceStorageModeShared);
    const std::uint32_t shift = 0;
    MTL::CommandBuffer* commands = k.queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(in, 0, 0); // [[buffer(1)]], the output, is never bound
    encoder->setBytes(&shift, sizeof shift, 2);
    encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(64, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    in->release();
    pipeline->release();
}

// The same layer and mode, and nothing wrong: passes.
TEST(DebugLayerGoesOn, Clean) {
    MTL::ComputePipelineState* pipeline = copy_shifted::pipeline("copy_shifted");
    static float storage[kCount + 1];
    copy_shifted::copy(pipeline, storage, kCount, 0)->waitUntilCompleted();
    pipeline->release();
}

// on. The queue's thread waits for `never` until the process exits.
TEST(StuckQueue, CommittedBehindAnUncommittedOne) {
    MTL::CommandQueue* queue = copy_shifted::kernels().device->newCommandQueue();
    MTL::CommandBuffer* never = queue->commandBuffer();
    never->enqueue();
    queue->commandBuffer()->commit();
}

// Runs after the stuck test, on another queue: passes, and the listener does not wait for the
// stuck command buffers again.
TEST(StuckQueue, AnotherQueueRunsOn) {
    static float storage[kCount + 1];
    MTL::ComputePipelineState* copy = copy_shifted::pipeline("copy_shifted");
    copy_shifted::copy(copy, storage, kCount, 0)->waitUntilCompleted();
    copy->release();
}

} // namespace
