// Tests of the GoogleTest helpers of <metalcpu/ValidationTesting.hpp> with real dispatches: the
// guard and the listener fail on the test's thread at the kernel's line, wait for dispatches
// nobody waited for, and leave the reports a collector or a guard took. The listener is driven
// by hand here (its events called as GoogleTest would); tests/validation/listener_suite runs it
// for real, as metalcpu::gtest_main installs it.
#include "validation_fixture.h"

#include "validation/settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <chrono>
#include <string>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::TestPartResultArray;
using validation::ShaderValidationReport;
using Failures = std::vector<::testing::TestPartResult>;

// Line numbers matter: the tests assert them.
const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void store_at(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = 1.0f;
}
)";
constexpr int kStoreLine = 5;
/// Enough threads that a dispatch nobody waits for is still running a moment later.
constexpr NS::UInteger kManyThreads = NS::UInteger(1) << 20;

/// Shader validation on for the process; no sink installed by the fixture, so the helpers
/// under test are the only ones.
class ValidationTesting : public KernelFixture {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        KernelFixture::SetUp();
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        val::overrideShaderValidationSettings(settings);
        store_ = pipeline(library_, "store_at");
    }
    void TearDown() override {
        validation::waitForPendingWork(); // nothing of this test runs into the next
        val::overrideShaderValidationSettings(std::nullopt);
        KernelFixture::TearDown();
    }

    /// store_at over `threads` threads into a buffer of as many floats, one float past its end
    /// for each thread when `offset` is 1; committed, and waited for when `wait`.
    void storeAt(int offset, bool wait = true, NS::UInteger threads = 64) {
        MTL::Buffer* out = buffer((threads + 1) * sizeof(float));
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(store_);
        encoder->setBuffer(out, sizeof(float), 0); // bound from the second float: one past the end is past the buffer
        encoder->setBytes(&offset, sizeof offset, 1);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(64, 1, 1));
        encoder->endEncoding();
        commands->commit();
        if (wait) commands->waitUntilCompleted();
    }

    /// The failures `statement` reports on this thread.
    template <class Statement>
    static Failures failuresOf(Statement&& statement) {
        TestPartResultArray intercepted;
        {
            ::testing::ScopedFakeTestPartResultReporter intercept(
                ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &intercepted);
            statement();
        }
        Failures failures;
        for (int i = 0; i < intercepted.size(); ++i) failures.push_back(intercepted.GetTestPartResult(i));
        return failures;
    }

    static const ::testing::TestInfo& currentTest() { return *::testing::UnitTest::GetInstance()->current_test_info(); }

    static MTL::Library* library_;
    MTL::ComputePipelineState* store_ = nullptr;
};

MTL::Library* ValidationTesting::library_ = nullptr;

/// Checks that `failures` is one non-fatal failure at the kernel's store with Apple's text, for
/// storeAt(1) over `threads` threads.
void expectOneFailureAtTheStore(const Failures& failures, NS::UInteger threads = 64) {
    ASSERT_EQ(failures.size(), 1u);
    const ::testing::TestPartResult& failure = failures[0];
    EXPECT_TRUE(failure.nonfatally_failed());
    EXPECT_STREQ(failure.file_name(), "program_source");
    EXPECT_EQ(failure.line_number(), kStoreLine);
    const std::string length = std::to_string((threads + 1) * sizeof(float));
    EXPECT_THAT(failure.message(), Not(HasSubstr("committed before this test started")));
    EXPECT_THAT(failure.message(), HasSubstr("Invalid device store at offset " + length +
                                             ", executing kernel function: \"store_at\"\nbuffer: <unnamed>, length:" +
                                             length + ", resident:Read Write\n"));
}

// ---- FailOnValidationReports ---------------------------------------------------------------------

// Test that EXPECT_NONFATAL_FAILURE sees the guard's failure: it is raised on the test's thread.
TEST_F(ValidationTesting, GuardWorksWithExpectNonfatalFailure) {
    EXPECT_NONFATAL_FAILURE(
        {
            FailOnValidationReports guard;
            storeAt(1);
        },
        "Invalid device store");
}

// Test that the guard's failure is located at the kernel's line, with Apple's report text.
TEST_F(ValidationTesting, GuardFailsAtTheKernelLine) {
    expectOneFailureAtTheStore(failuresOf([&] {
        FailOnValidationReports guard;
        storeAt(1);
    }));
}

// Test that the guard waits for a dispatch nobody waited for before it checks.
TEST_F(ValidationTesting, GuardWaitsForUnwaitedDispatches) {
    expectOneFailureAtTheStore(failuresOf([&] {
        FailOnValidationReports guard;
        storeAt(1, /*wait=*/false);
    }));
}

// Test that the guard leaves alone the reports of a dispatch committed before it was made,
// still running then.
TEST_F(ValidationTesting, GuardIgnoresEarlierDispatches) {
    storeAt(1, /*wait=*/false, kManyThreads);
    EXPECT_EQ(failuresOf([&] {
                  FailOnValidationReports guard;
                  storeAt(0);
              }).size(),
              0u);
}

// Test that the guard stays quiet for a kernel that stays in bounds.
TEST_F(ValidationTesting, GuardIsQuietForCleanKernels) {
    EXPECT_EQ(failuresOf([&] {
                  FailOnValidationReports guard;
                  storeAt(0);
              }).size(),
              0u);
}

// Test that a report with no source line fails at the test's own declaration instead.
TEST_F(ValidationTesting, ReportWithoutALineFailsAtTheTest) {
    ShaderValidationReport report;
    report.kernel = "k";
    Failures failures = failuresOf([&] { detail::failOnReport(report, "my_test.cpp", 12); });
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_STREQ(failures[0].file_name(), "my_test.cpp");
    EXPECT_EQ(failures[0].line_number(), 12);
    EXPECT_THAT(failures[0].message(), HasSubstr("(the report names no source line)"));
}

// ---- ValidationReportCollector ---------------------------------------------------------------------

// Test that take() waits for a dispatch nobody waited for.
TEST_F(ValidationTesting, CollectorTakeWaitsForUnwaitedDispatches) {
    ValidationReportCollector reports;
    storeAt(1, /*wait=*/false);
    std::vector<ShaderValidationReport> got = reports.take();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("store_at", 0), AtLine(kStoreLine), WithCount(1)));
}

// Test that a collector does not take the reports of a dispatch committed before it was made,
// still running then.
TEST_F(ValidationTesting, CollectorIgnoresEarlierDispatches) {
    storeAt(1, /*wait=*/false, kManyThreads);
    ValidationReportCollector reports;
    storeAt(0);
    EXPECT_THAT(reports.take(), ::testing::IsEmpty());
}

// ---- ValidationListener ------------------------------------------------------------------------------

// Test that the listener fails the running test at OnTestEnd, on this thread, at the kernel's line.
TEST_F(ValidationTesting, ListenerFailsTheTestAtTheKernelLine) {
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    storeAt(1);
    expectOneFailureAtTheStore(failuresOf([&] { listener.OnTestEnd(currentTest()); }));
}

// Test that the listener waits at OnTestEnd for a dispatch the test did not wait for, so the
// report is charged to the test that made it.
TEST_F(ValidationTesting, ListenerWaitsForUnwaitedDispatches) {
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    storeAt(1, /*wait=*/false, kManyThreads);
    expectOneFailureAtTheStore(failuresOf([&] { listener.OnTestEnd(currentTest()); }), kManyThreads);
}

// Test that reports a collector took are expected: the listener does not fail on them.
TEST_F(ValidationTesting, ListenerLeavesCollectedReports) {
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    {
        ValidationReportCollector reports;
        storeAt(1);
        EXPECT_EQ(reports.take().size(), 1u);
    }
    EXPECT_EQ(failuresOf([&] { listener.OnTestEnd(currentTest()); }).size(), 0u);
}

// Test that reports a guard failed on are not failed a second time by the listener.
TEST_F(ValidationTesting, ListenerLeavesGuardedReports) {
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    EXPECT_EQ(failuresOf([&] {
                  FailOnValidationReports guard;
                  storeAt(1);
              }).size(),
              1u);
    EXPECT_EQ(failuresOf([&] { listener.OnTestEnd(currentTest()); }).size(), 0u);
}

// Test that reports made before a test started (in SetUpTestSuite, say) are not the test's:
// they fail the suite when it ends, saying so.
TEST_F(ValidationTesting, ListenerChargesEarlierReportsToTheSuite) {
    ValidationListener listener;
    storeAt(1, /*wait=*/false);
    listener.OnTestStart(currentTest());
    storeAt(0);
    EXPECT_EQ(failuresOf([&] { listener.OnTestEnd(currentTest()); }).size(), 0u);
    Failures failures = failuresOf(
        [&] { listener.OnTestSuiteEnd(*::testing::UnitTest::GetInstance()->current_test_suite()); });
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_THAT(failures[0].message(), HasSubstr("while no test was running"));
    EXPECT_EQ(failures[0].line_number(), kStoreLine);
}

// Test that the listener gives up on command buffers that cannot run (committed behind one
// that was enqueue()d and never committed) after the wait limit: it says it is waiting, fails
// the test saying why, does not wait for them again, and charges their reports, when they come
// after all, to the test running then.
TEST_F(ValidationTesting, ListenerGivesUpOnWorkThatCannotRun) {
    val::ShaderValidationSettings settings = val::shaderValidationSettings();
    settings.waitLimit = std::chrono::milliseconds(200);
    val::overrideShaderValidationSettings(settings);
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    MTL::CommandBuffer* first = queue_->commandBuffer();
    first->enqueue();
    storeAt(1, /*wait=*/false); // committed behind `first`
    ::testing::internal::CaptureStdout();
    Failures failures = failuresOf([&] { listener.OnTestEnd(currentTest()); });
    const std::string printed = ::testing::internal::GetCapturedStdout();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_THAT(failures[0].message(),
                HasSubstr("gave up after 0.2 s (METALCPU_SHADER_VALIDATION_WAIT_LIMIT) waiting for 1 command buffer "
                          "committed and not completed (1 command buffer on the same queue was enqueue()d and never "
                          "committed"));
    EXPECT_EQ(failures[0].line_number(), currentTest().line());
    EXPECT_THAT(printed, HasSubstr("[ WAITING  ] ValidationTesting.ListenerGivesUpOnWorkThatCannotRun has waited 0.1 s "
                                   "for 1 command buffer committed and not completed"));

    listener.OnTestStart(currentTest());
    EXPECT_EQ(failuresOf([&] { listener.OnTestEnd(currentTest()); }).size(), 0u) << "given up on: not waited for again";

    listener.OnTestStart(currentTest());
    first->commit();
    validation::waitForPendingWork(); // the listener's waits leave them alone now
    failures = failuresOf([&] { listener.OnTestEnd(currentTest()); });
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].line_number(), kStoreLine);
    EXPECT_THAT(failures[0].message(), HasSubstr("shader validation reported an invalid access (its command buffer "
                                                 "was committed before this test started):\nInvalid device store"));
}

// Test that with --gtest_throw_on_failure the listener and the guard record their failures
// without throwing out of OnTestEnd or a destructor, and fail on every report.
TEST_F(ValidationTesting, ThrowOnFailureStaysInside) {
    struct ThrowOnFailure {
        ThrowOnFailure() { GTEST_FLAG_SET(throw_on_failure, true); }
        ~ThrowOnFailure() { GTEST_FLAG_SET(throw_on_failure, false); }
    };
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    storeAt(1);
    storeAt(1);
    Failures failures;
    {
        ThrowOnFailure flag;
        EXPECT_NO_THROW(failures = failuresOf([&] { listener.OnTestEnd(currentTest()); }));
    }
    EXPECT_EQ(failures.size(), 2u);
    {
        ThrowOnFailure flag;
        failures = failuresOf([&] {
            FailOnValidationReports guard; // its destructor is noexcept: a throw would end the program
            storeAt(1);
        });
    }
    EXPECT_EQ(failures.size(), 1u);
}

// Test that a clean test passes under the listener.
TEST_F(ValidationTesting, ListenerIsQuietForCleanKernels) {
    ValidationListener listener;
    listener.OnTestStart(currentTest());
    storeAt(0, /*wait=*/false);
    EXPECT_EQ(failuresOf([&] { listener.OnTestEnd(currentTest()); }).size(), 0u);
}

} // namespace
} // namespace metalcpu::testing
