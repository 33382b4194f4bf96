// What shader validation does to whole processes, run as separate programs: a GoogleTest suite
// linked with metalcpu::gtest_main (listener_suite.cpp) fails exactly the tests whose kernels go
// out of bounds, at the kernel's line; METALCPU_SHADER_VALIDATION_EXIT_CODE turns a report into
// an exit status; pipelines have UIDs that stay the same from run to run and select them in
// Apple's lists; unimplemented Apple variables are named.
#include "support/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// The line of the off-by-one store in kernels/copy_shifted.metal.
constexpr int kStoreLine = 11;

/// Whether the child keeps our value of `name`: none of Apple's or metalcpu's variables, which
/// would change what the child does, but where and with what kernels compile.
bool inherited(const std::string& name) {
    const bool ours = name.rfind("MTL_", 0) == 0 || name.rfind("METAL_", 0) == 0 || name.rfind("METALCPU_", 0) == 0;
    return !ours || name == "METALCPU_CACHE_DIR" || name == "METALCPU_CXX";
}

/// Runs `argv` with `environment` (NAME=value) added to ours, from which every MTL_*, METAL_*
/// and METALCPU_* variable but the cache directory and the compiler is removed first.
support::ProcessResult runWith(const std::vector<std::string>& environment, const std::vector<std::string>& argv) {
    std::vector<std::string> command = {"env"};
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string name = std::string(*entry).substr(0, std::string(*entry).find('='));
        if (!inherited(name)) command.insert(command.end(), {"-u", name});
    }
    command.insert(command.end(), environment.begin(), environment.end());
    command.insert(command.end(), argv.begin(), argv.end());
    support::ProcessLimits limits;
    limits.timeoutSeconds = 300; // a child that hangs fails its test instead of holding up the suite
    support::ProcessResult result = support::runProcess(command, {}, limits);
    EXPECT_TRUE(result.started) << support::commandLine(command);
    EXPECT_FALSE(result.timedOut) << support::commandLine(command) << "\n" << result.output;
    return result;
}

/// What the suite printed for one test: from its "[ RUN      ]" line to its result line.
std::string testOutput(const std::string& output, const std::string& suite, const std::string& test) {
    const std::string name = suite + "." + test;
    const std::size_t begin = output.find("[ RUN      ] " + name + "\n");
    if (begin == std::string::npos) return "";
    const std::size_t ok = output.find("[       OK ] " + name + " ", begin);
    const std::size_t failed = output.find("[  FAILED  ] " + name + " ", begin);
    const std::size_t end = std::min(ok, failed);
    if (end == std::string::npos) return output.substr(begin);
    return output.substr(begin, output.find('\n', end) - begin);
}

// ---- The listener suite -------------------------------------------------------------------------------

// Test that with MTL_SHADER_VALIDATION=1 the suite fails the off-by-one tests, each at the
// kernel's .metal line with Apple's report, the unwaited one included, passes the clean tests
// and the one that expects the report, and exits with a failure.
TEST(ListenerSuite, FailsTheTestsThatGoOutOfBounds) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_LISTENER_SUITE, "--gtest_filter=ListenerSuite.*"});
    // ADD_FAILURE_AT's form: the location, "Failed", then the message.
    const std::string location =
        std::string(METALCPU_COPY_SHIFTED_SOURCE) + ":" + std::to_string(kStoreLine) + ": Failure\nFailed\n";

    const std::string offByOne = testOutput(run.output, "ListenerSuite", "OffByOne");
    EXPECT_THAT(offByOne, HasSubstr(location + "shader validation reported an invalid access:\n"
                                               "Invalid device store at offset 1024, executing kernel function: "
                                               "\"copy_shifted\"\nbuffer: <unnamed>, length:1024, resident:Read Write\n"));
    EXPECT_THAT(offByOne, HasSubstr("[  FAILED  ] ListenerSuite.OffByOne ")) << run.output;

    const std::string unwaited = testOutput(run.output, "ListenerSuite", "OffByOneNotWaitedFor");
    EXPECT_THAT(unwaited, HasSubstr(location + "shader validation reported an invalid access:\n"
                                               "Invalid device store at offset 4194304"));
    EXPECT_THAT(unwaited, HasSubstr("[  FAILED  ] ListenerSuite.OffByOneNotWaitedFor ")) << run.output;

    for (const char* clean : {"InBounds", "InBoundsAfterTheUnwaitedOne", "ExpectedReport"}) {
        const std::string output = testOutput(run.output, "ListenerSuite", clean);
        EXPECT_THAT(output, HasSubstr(std::string("[       OK ] ListenerSuite.") + clean + " ")) << run.output;
        EXPECT_THAT(output, Not(HasSubstr("Invalid device"))) << clean;
    }
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] 2 tests, listed below:"));
    EXPECT_THAT(run.output, Not(HasSubstr("NOTE"))) << "every dispatch was validated";
    EXPECT_NE(run.exitCode, 0);
}

// Test that with the debug layer in nslog mode, a dispatch it drops for a missing binding fails
// its test with the layer's report, and the clean test beside it passes.
TEST(ListenerSuite, DebugLayerReportsInNSLogModeFailTheTest) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1", "MTL_DEBUG_LAYER=1", "MTL_DEBUG_LAYER_ERROR_MODE=nslog"},
                {METALCPU_LISTENER_SUITE, "--gtest_filter=DebugLayerGoesOn.*"});
    const std::string missing = testOutput(run.output, "DebugLayerGoesOn", "MissingBinding");
    EXPECT_THAT(missing, HasSubstr("the Metal debug layer reported a mistake (MTL_DEBUG_LAYER_ERROR_MODE=nslog goes "
                                   "on after it; a command it names was not run):\n"))
        << run.output;
    EXPECT_THAT(missing, HasSubstr("missing buffer binding at index 1")) << run.output;
    EXPECT_THAT(missing, HasSubstr("[  FAILED  ] DebugLayerGoesOn.MissingBinding ")) << run.output;
    EXPECT_THAT(testOutput(run.output, "DebugLayerGoesOn", "Clean"), HasSubstr("[       OK ] DebugLayerGoesOn.Clean "))
        << run.output;
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] 1 test, listed below:"));
    EXPECT_NE(run.exitCode, 0);
}

// Test that with validation off the suite passes, and says once that nothing was checked.
TEST(ListenerSuite, ValidationOffIsNoted) {
    support::ProcessResult run = runWith({}, {METALCPU_LISTENER_SUITE, "--gtest_filter=ListenerSuite.*"});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    EXPECT_THAT(run.output, HasSubstr("[  PASSED  ] 5 tests."));
    const std::string note = "[   NOTE   ] ListenerSuite.OffByOne ran 1 kernel dispatch(es) and none had shader "
                             "validation, so invalid memory accesses were not checked. Run with "
                             "MTL_SHADER_VALIDATION=1";
    EXPECT_THAT(testOutput(run.output, "ListenerSuite", "OffByOne"), HasSubstr(note)) << run.output;
    EXPECT_EQ(run.output.find("NOTE"), run.output.rfind("NOTE")) << "once per process";
}

// Test that a report made in SetUpTestSuite, before any test ran, fails the suite — GoogleTest's
// summary names it — at the kernel's line, and not the clean test that follows.
TEST(ListenerSuite, SuiteSetUpReportsFailTheSuite) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_LISTENER_SUITE, "--gtest_filter=SuiteSetUpGoesOutOfBounds.*"});
    const std::string location =
        std::string(METALCPU_COPY_SHIFTED_SOURCE) + ":" + std::to_string(kStoreLine) + ": Failure\nFailed\n";
    EXPECT_THAT(run.output, HasSubstr(location + "shader validation reported an invalid access while no test was "
                                                 "running (SetUpTestSuite, TearDownTestSuite or an environment):\n"
                                                 "Invalid device store at offset 1024"));
    EXPECT_THAT(testOutput(run.output, "SuiteSetUpGoesOutOfBounds", "CleanTest"),
                HasSubstr("[       OK ] SuiteSetUpGoesOutOfBounds.CleanTest "));
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] SuiteSetUpGoesOutOfBounds: SetUpTestSuite or TearDownTestSuite\n"));
    EXPECT_THAT(run.output, HasSubstr(" 1 FAILED TEST SUITE"));
    EXPECT_EQ(run.exitCode, 1);
}

// Test that a test run alone (as ctest runs each) in a suite whose SetUpTestSuite failed fails,
// saying why, before GoogleTest prints the "[  SKIPPED ]" line ctest would count as a skip;
// and that under a wider filter GoogleTest's own handling is left alone.
TEST(ListenerSuite, FailedSuiteSetUpFailsTheTestRunAlone) {
    support::ProcessResult alone = runWith({}, {METALCPU_LISTENER_SUITE, "--gtest_filter=SuiteSetUpFails.NeverRuns"});
    EXPECT_EQ(alone.exitCode, 1) << alone.output;
    EXPECT_THAT(alone.output, HasSubstr("the suite's kernels did not compile"));
    EXPECT_THAT(alone.output, HasSubstr("[  FAILED  ] SuiteSetUpFails.NeverRuns: SetUpTestSuite of SuiteSetUpFails "
                                        "failed (above), so the test cannot run\n"));
    EXPECT_THAT(alone.output, Not(HasSubstr("[  SKIPPED ]")));

    support::ProcessResult suite = runWith({}, {METALCPU_LISTENER_SUITE, "--gtest_filter=SuiteSetUpFails.*"});
    EXPECT_EQ(suite.exitCode, 1) << suite.output;
    EXPECT_THAT(suite.output, HasSubstr("[  SKIPPED ] SuiteSetUpFails.NeverRuns"));
    EXPECT_THAT(suite.output, HasSubstr("[  FAILED  ] SuiteSetUpFails: SetUpTestSuite or TearDownTestSuite\n"));
    EXPECT_THAT(suite.output, Not(HasSubstr("so the test cannot run")));
}

// Test that a test whose command buffers can never run fails when the wait for them reaches
// the limit, after a [ WAITING  ] line, and that the suite goes on: the next test passes.
TEST(ListenerSuite, GivesUpOnCommandBuffersThatCannotRun) {
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_WAIT_LIMIT=0.5"},
                                         {METALCPU_LISTENER_SUITE, "--gtest_filter=StuckQueue.*"});
    const std::string stuck = testOutput(run.output, "StuckQueue", "CommittedBehindAnUncommittedOne");
    const std::string pending = "1 command buffer committed and not completed (1 command buffer on the same queue was "
                                "enqueue()d and never committed, and a queue runs nothing behind such a one until it "
                                "is committed)";
    EXPECT_THAT(stuck, HasSubstr("[ WAITING  ] StuckQueue.CommittedBehindAnUncommittedOne has waited 0.25 s for " +
                                 pending + "; it gives up after 0.5 s (METALCPU_SHADER_VALIDATION_WAIT_LIMIT)\n"));
    EXPECT_THAT(stuck, HasSubstr("the listener gave up after 0.5 s (METALCPU_SHADER_VALIDATION_WAIT_LIMIT) waiting for " +
                                 pending));
    EXPECT_THAT(stuck, HasSubstr("[  FAILED  ] StuckQueue.CommittedBehindAnUncommittedOne ")) << run.output;
    EXPECT_THAT(testOutput(run.output, "StuckQueue", "AnotherQueueRunsOn"), HasSubstr("[       OK ] StuckQueue.AnotherQueueRunsOn "));
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] 1 test, listed below:"));
    EXPECT_EQ(run.exitCode, 1);
}

// Test that with validation on but the default state none, the note names that switch instead
// of asking for MTL_SHADER_VALIDATION=1.
TEST(ListenerSuite, NoteNamesTheSwitchThatLeftPipelinesOut) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_DEFAULT_STATE=none"},
                {METALCPU_LISTENER_SUITE, "--gtest_filter=ListenerSuite.InBounds"});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    EXPECT_THAT(run.output, HasSubstr("none had shader validation, so invalid memory accesses were not checked. "
                                      "MTL_SHADER_VALIDATION_DEFAULT_STATE=none validates only the pipelines named in "
                                      "MTL_SHADER_VALIDATION_ENABLE_PIPELINES"));
    EXPECT_THAT(run.output, Not(HasSubstr("Run with MTL_SHADER_VALIDATION=1")));
}

// ---- METALCPU_SHADER_VALIDATION_EXIT_CODE -------------------------------------------------------------

// Test that a process that made a report and would exit with 0 exits with the chosen status,
// with what stdio still buffered written out, after the exit handlers and static destructors
// the program registered before its first device.
TEST(ExitCode, ReportsTurnSuccessIntoTheCode) {
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=42"},
                                         {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_EQ(run.exitCode, 42) << run.output;
    EXPECT_THAT(run.output, HasSubstr("copied destructor exit handler"));
}

// Test that a value that is not an exit status is named in a warning and changes nothing.
TEST(ExitCode, AnInvalidCodeIsNamedAndIgnored) {
    for (const char* value : {"yes", "86x", "256", "-1"}) {
        support::ProcessResult run =
            runWith({"MTL_SHADER_VALIDATION=1", std::string("METALCPU_SHADER_VALIDATION_EXIT_CODE=") + value},
                    {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
        EXPECT_EQ(run.exitCode, 0) << run.output;
        EXPECT_THAT(run.output, HasSubstr(std::string("METALCPU_SHADER_VALIDATION_EXIT_CODE=") + value +
                                          " is not an exit status (0 to 255); ignored"));
    }
    support::ProcessResult off = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=0"},
                                         {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_EQ(off.exitCode, 0);
    EXPECT_THAT(off.output, Not(HasSubstr("not an exit status")));
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

/// The listener suite's tests `filter` (a --gtest_filter), validated, with the exit code 86.
support::ProcessResult runSuiteWithExitCode(const std::string& filter) {
    return runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_SHADER_VALIDATION_EXIT_CODE=86"},
                   {METALCPU_LISTENER_SUITE, "--gtest_filter=" + filter});
}

// Test that in a GoogleTest suite the code counts only the reports nobody expected: a suite
// whose only report a collector took passes and exits with 0.
TEST(ExitCode, ExpectedReportsLeaveTheStatus) {
    support::ProcessResult run = runSuiteWithExitCode("ListenerSuite.ExpectedReport:ListenerSuite.InBounds");
    EXPECT_THAT(run.output, HasSubstr("[  PASSED  ] 2 tests."));
    EXPECT_EQ(run.exitCode, 0) << run.output;
}

// Test that an unexpected report in a GoogleTest suite fails it with the suite's own status,
// which the code leaves alone.
TEST(ExitCode, UnexpectedReportsFailTheSuite) {
    support::ProcessResult run = runSuiteWithExitCode("ListenerSuite.ExpectedReport:ListenerSuite.OffByOne");
    EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] ListenerSuite.OffByOne "));
    EXPECT_EQ(run.exitCode, 1) << run.output;
}

// ---- Reports that nobody would see ----------------------------------------------------------------------

// Test that with MTL_SHADER_VALIDATION=1 alone, as a Mac user runs it, the reports go to the log
// at level info (Apple's unified log has no Linux viewer) and one warning per process, at the
// first dispatch that made reports, says how many and how to see them; REPORT_TO_STDERR=1 (the
// reports printed) and METALCPU_LOG_LEVEL=info (the log shown) have no note, nor has a run
// without reports.
TEST(ReportsNotShown, OneNoteNamesTheSwitch) {
    const std::string note = "shader validation made 1 report in kernel 'copy_shifted', sent to the log at level "
                             "info, which is not shown: set MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1 to print the "
                             "reports on stderr (or METALCPU_LOG_LEVEL=info); this note is printed once per process";
    support::ProcessResult run = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_VALIDATION_PROBE, "copy", "1", "0", "3"});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    const std::size_t at = run.output.find(note);
    ASSERT_NE(at, std::string::npos) << run.output;
    EXPECT_EQ(at, run.output.rfind("shader validation made")) << "once, for 3 dispatches with reports";
    EXPECT_THAT(run.output, Not(HasSubstr("Invalid device ")));

    support::ProcessResult printed = runWith({"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1"},
                                             {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_THAT(printed.output, HasSubstr("Invalid device "));
    EXPECT_THAT(printed.output, Not(HasSubstr("shader validation made")));
    support::ProcessResult logged = runWith({"MTL_SHADER_VALIDATION=1", "METALCPU_LOG_LEVEL=info"},
                                            {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    EXPECT_THAT(logged.output, HasSubstr("[GPUDebug] Invalid device "));
    EXPECT_THAT(logged.output, Not(HasSubstr("shader validation made")));
    support::ProcessResult clean = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_VALIDATION_PROBE, "copy", "0", "0"});
    EXPECT_THAT(clean.output, Not(HasSubstr("shader validation made")));
}

// ---- Shader Validation UIDs and pipeline selection ------------------------------------------------------

/// The UIDs MTL_SHADER_VALIDATION_DUMP_PIPELINES printed, by pipeline label.
std::map<std::string, std::string> dumpedUids(const std::string& output) {
    std::map<std::string, std::string> uids;
    const std::regex line("Shader Validation UID: ([0-9a-f]{16}), pipeline: ([^,]*), function: \"([a-z_]*)\", "
                          "shader validation: (on|off)\n");
    for (auto match = std::sregex_iterator(output.begin(), output.end(), line); match != std::sregex_iterator(); ++match)
        uids[(*match)[2]] = (*match)[1];
    return uids;
}

// Test that DUMP_PIPELINES prints every pipeline's UID with its label and function, and that the
// UIDs are the same in a second process.
TEST(PipelineUids, DumpedAndStableAcrossProcesses) {
    const std::vector<std::string> dump = {"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_DUMP_PIPELINES=1"};
    support::ProcessResult first = runWith(dump, {METALCPU_VALIDATION_PROBE, "pipelines"});
    support::ProcessResult second = runWith(dump, {METALCPU_VALIDATION_PROBE, "pipelines"});
    EXPECT_THAT(first.output, HasSubstr(", pipeline: copy, function: \"copy_shifted\", shader validation: on\n"));
    EXPECT_THAT(first.output, HasSubstr(", pipeline: fill, function: \"fill\", shader validation: on\n"));
    std::map<std::string, std::string> uids = dumpedUids(first.output);
    ASSERT_EQ(uids.size(), 2u) << first.output;
    EXPECT_NE(uids["copy"], uids["fill"]);
    EXPECT_EQ(dumpedUids(second.output), uids);

    support::ProcessResult quiet = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_VALIDATION_PROBE, "pipelines"});
    EXPECT_THAT(quiet.output, Not(HasSubstr("Shader Validation UID"))) << "only when asked";
}

/// Whether each pipeline of the probe was validated under `environment`.
std::string selected(const std::vector<std::string>& environment) {
    support::ProcessResult run = runWith(environment, {METALCPU_VALIDATION_PROBE, "pipelines"});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    std::smatch copy, fill;
    const bool found = std::regex_search(run.output, copy, std::regex("copy (validated|plain)\n")) &&
                       std::regex_search(run.output, fill, std::regex("fill (validated|plain)\n"));
    return found ? "copy " + copy[1].str() + ", fill " + fill[1].str() : run.output;
}

// Test Apple's lists by label and by the UID a report prints: ENABLE with the default state
// none, DISABLE with all.
TEST(PipelineUids, SelectPipelinesByLabelAndUid) {
    std::map<std::string, std::string> uids = dumpedUids(
        runWith({"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_DUMP_PIPELINES=1"}, {METALCPU_VALIDATION_PROBE, "pipelines"})
            .output);
    ASSERT_EQ(uids.size(), 2u);
    const std::string on = "MTL_SHADER_VALIDATION=1";
    const std::string none = "MTL_SHADER_VALIDATION_DEFAULT_STATE=none";
    EXPECT_EQ(selected({on}), "copy validated, fill validated");
    EXPECT_EQ(selected({on, none}), "copy plain, fill plain");
    EXPECT_EQ(selected({on, none, "MTL_SHADER_VALIDATION_ENABLE_PIPELINES=copy"}), "copy validated, fill plain");
    EXPECT_EQ(selected({on, none, "MTL_SHADER_VALIDATION_ENABLE_PIPELINES=" + uids["fill"]}), "copy plain, fill validated");
    EXPECT_EQ(selected({on, "MTL_SHADER_VALIDATION_DISABLE_PIPELINES=fill"}), "copy validated, fill plain");
    EXPECT_EQ(selected({on, "MTL_SHADER_VALIDATION_DISABLE_PIPELINES=" + uids["copy"]}), "copy plain, fill validated");
    EXPECT_EQ(selected({on, "MTL_SHADER_VALIDATION_DISABLE_PIPELINES=" + uids["copy"] + ",fill"}), "copy plain, fill plain");
    EXPECT_EQ(selected({"MTL_SHADER_VALIDATION_DISABLE_PIPELINES=fill"}), "copy plain, fill plain")
        << "the lists need MTL_SHADER_VALIDATION";
}

// Test that a report prints the pipeline's label and the UID DUMP_PIPELINES printed for it.
TEST(PipelineUids, ReportsPrintTheUid) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_DUMP_PIPELINES=1",
                 "MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1"},
                {METALCPU_VALIDATION_PROBE, "copy", "1", "0"});
    std::map<std::string, std::string> uids = dumpedUids(run.output);
    ASSERT_EQ(uids.count("copy"), 1u) << run.output;
    EXPECT_THAT(run.output, HasSubstr("\npipeline: copy, UID: " + uids["copy"] + " encoder: \"0\", dispatch: 0\n"));
}

// ---- Apple's variables metalcpu does not implement -------------------------------------------------------

// Test that Apple validation variables metalcpu does not implement, set to ask for something
// while their layer is on, are named, once, in one warning, and implemented ones are not.
TEST(UnimplementedVariables, NamedOnceInAWarning) {
    support::ProcessResult run =
        runWith({"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_TEXTURE_USAGE=1", "MTL_DEBUG_LAYER=1",
                 "MTL_DEBUG_LAYER_WARNING_MODE=nslog", "MTL_SHADER_VALIDATION_FAIL_MODE=zerofill"},
                {METALCPU_VALIDATION_PROBE, "pipelines"});
    EXPECT_EQ(run.exitCode, 0) << run.output;
    const std::size_t warning = run.output.find("warning: metalcpu does not implement ");
    ASSERT_NE(warning, std::string::npos) << run.output;
    EXPECT_EQ(warning, run.output.rfind("warning: metalcpu does not implement ")) << "once";
    const std::string line = run.output.substr(warning, run.output.find('\n', warning) - warning);
    EXPECT_THAT(line, HasSubstr("MTL_SHADER_VALIDATION_TEXTURE_USAGE"));
    EXPECT_THAT(line, HasSubstr("MTL_DEBUG_LAYER_WARNING_MODE"));
    EXPECT_THAT(line, Not(HasSubstr("FAIL_MODE")));
    EXPECT_THAT(line, HasSubstr("docs/configuration.md"));

    support::ProcessResult clean = runWith({"MTL_SHADER_VALIDATION=1"}, {METALCPU_VALIDATION_PROBE, "pipelines"});
    EXPECT_THAT(clean.output, Not(HasSubstr("does not implement")));
}

// Test that no warning comes for an ignored variable set to its harmless value, or while its
// layer is off.
TEST(UnimplementedVariables, QuietWhenTheyAskForNothing) {
    for (const std::vector<std::string>& environment :
         {std::vector<std::string>{"MTL_SHADER_VALIDATION=1", "MTL_SHADER_VALIDATION_TEXTURE_USAGE=0"},
          std::vector<std::string>{"MTL_SHADER_VALIDATION_TEXTURE_USAGE=1"},
          std::vector<std::string>{"MTL_SHADER_VALIDATION=1", "MTL_DEBUG_LAYER_WARNING_MODE=nslog"}}) {
        support::ProcessResult run = runWith(environment, {METALCPU_VALIDATION_PROBE, "pipelines"});
        EXPECT_EQ(run.exitCode, 0) << run.output;
        EXPECT_THAT(run.output, Not(HasSubstr("does not implement"))) << ::testing::PrintToString(environment);
    }
}

} // namespace
} // namespace metalcpu::testing
