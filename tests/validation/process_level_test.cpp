// What shader validation does to whole processes, run as separate programs: a GoogleTest suite
// linked with metalcpu::gtest_main (listener_suite.cpp) fails exactly the tests whose kernels go
// out of bounds, at the kernel's line; METALCPU_SHADER_VALIDATION_EXIT_CODE turns a report into
// an exit status.
#include "support/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// The line of the off-by-one store in kernels/copy_shifted.metal.
constexpr int kStoreLine = 11;

/// Runs `argv` with `environment` (NAME=value) added to ours, where shader validation and the
/// variables under test start unset.
support::ProcessResult runWith(const std::vector<std::string>& environment, const std::vector<std::string>& argv) {
    std::vector<std::string> command = {"env",
                                        "-u", "MTL_SHADER_VALIDATION",
                                        "-u", "MTL_SHADER_VALIDATION_DEFAULT_STATE",
                                        "-u", "MTL_SHADER_VALIDATION_ENABLE_PIPELINES",
                                        "-u", "MTL_SHADER_VALIDATION_DISABLE_PIPELINES",
                                        "-u", "MTL_SHADER_VALIDATION_DUMP_PIPELINES",
                                        "-u", "MTL_SHADER_VALIDATION_REPORT_TO_STDERR",
                                        "-u", "METALCPU_SHADER_VALIDATION_EXIT_CODE"};
    command.insert(command.end(), environment.begin(), environment.end());
    command.insert(command.end(), argv.begin(), argv.end());
    support::ProcessResult result = support::runProcess(command);
    EXPECT_TRUE(result.started) << support::commandLine(command);
    return result;
}

/// What the suite printed for one test: from its "[ RUN      ]" line to its result line.
std::string testOutput(const std::string& output, const std::string& test) {
    const std::string run = "[ RUN      ] ListenerSuite." + test + "\n";
    const std::size_t begin = output.find(run);
    if (begin == std::string::npos) return "";
    const std::size_t ok = output.find("[       OK ] ListenerSuite." + test + " ", begin);
    const std::size_t failed = output.find("[  FAILED  ] ListenerSuite." + test + " ", begin);
    const std::size_t end = std::min(ok, failed);
    if (end == std::string::npos) return output.substr(begin);
    return output.substr(begin, output.find('\n', end) - begin);
}

// ---- The listener suite -------------------------------------------------------------------------------

// Test that with MTL_SHADER_VALIDATION=1 the suite fails the off-by-one tests, each at the
// kernel's .metal line with Apple's report, the unwaited one included, passes the clean tests
// and the one that expects the report, and exits with a failure.
TEST(ListenerSuite, FailsTheTestsThatGoOutOfBounds) {
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_LISTENER_SUITE});
    // ADD_FAILURE_AT's form: the location, "Failed", then the message.
    const std::string location =
        std::string(METALCPU_COPY_SHIFTED_SOURCE) + ":" + std::to_string(kStoreLine) + ": Failure\nFailed\n";

    const std::string offByOne = testOutput(run.output, "OffByOne");
    EXPECT_THAT(offByOne, HasSubstr(location + "shader validation reported an invalid access:\n"
                                               "Invalid device store at offset 1024, executing kernel function: "
                                               "\"copy_shifted\"\nbuffer: <unnamed>, length:1024, resident:Read Write\n"));
    EXPECT_THAT(offByOne, HasSubstr("[  FAILED  ] ListenerSuite.OffByOne ")) << run.output;

    const std::string unwaited = testOutput(run.output, "OffByOneNotWaitedFor");
    EXPECT_THAT(unwaited, HasSubstr(location + "shader validation reported an invalid access:\n"
                                               "Invalid device store at offset 4194304"));
    EXPECT_THAT(unwaited, HasSubstr("[  FAILED  ] ListenerSuite.OffByOneNotWaitedFor ")) << run.output;

    for (const char* clean : {"InBounds", "InBoundsAfterTheUnwaitedOne", "ExpectedReport"}) {
        const std::string output = testOutput(run.output, clean);
        EXPECT_THAT(output, HasSubstr(std::string("[       OK ] ListenerSuite.") + clean + " ")) << run.output;
        EXPECT_THAT(output, Not(HasSubstr("Invalid device"))) << clean;
    }
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] 2 tests, listed below:"));
    EXPECT_THAT(run.output, Not(HasSubstr("NOTE"))) << "every dispatch was validated";
    EXPECT_NE(run.exitCode, 0);
}

// Test that with validation off the suite passes, and says once that nothing was checked.
TEST(ListenerSuite, ValidationOffIsNoted) {
    support::ProcessResult run = runWith({}, {METALCPU_LISTENER_SUITE});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    EXPECT_THAT(run.output, HasSubstr("[  PASSED  ] 5 tests."));
    const std::string note = "[   NOTE   ] ListenerSuite.OffByOne ran 1 kernel dispatch(es) and none had shader "
                             "validation, so invalid memory accesses were not checked. Run with "
                             "MTL_SHADER_VALIDATION=1";
    EXPECT_THAT(testOutput(run.output, "OffByOne"), HasSubstr(note)) << run.output;
    EXPECT_EQ(run.output.find("NOTE"), run.output.rfind("NOTE")) << "once per process";
}

// ---- METALCPU_SHADER_VALIDATION_EXIT_CODE -------------------------------------------------------------

// Test that a process that made a report and would exit with 0 exits with the chosen status,
// with what stdio still buffered written out.
TEST(ExitCode, ReportsTurnSuccessIntoTheCode) {
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=42"},
                                         {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_EQ(run.exitCode, 42) << run.output;
    EXPECT_THAT(run.output, HasSubstr("copied"));
}

// Test that a process that already fails keeps its own status.
TEST(ExitCode, AFailingProcessKeepsItsStatus) {
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=42"},
                                         {METALCPU_VALIDATION_PROBE, "copy", "1", "3"});
    EXPECT_EQ(run.exitCode, 3) << run.output;
}

// Test that without reports, or without the variable, the status is the program's.
TEST(ExitCode, NoReportsOrNoCodeLeaveTheStatus) {
    support::ProcessResult clean = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=42"},
                                           {METALCPU_VALIDATION_PROBE, "copy", "0", "0"});
    EXPECT_EQ(clean.exitCode, 0) << clean.output;
    EXPECT_THAT(clean.output, HasSubstr("copied"));
    support::ProcessResult unset = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_EQ(unset.exitCode, 0) << "Apple's behaviour: reports do not change the status";
}

} // namespace
} // namespace metalcpu::testing
