#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

namespace metalcpu::support {
namespace {

// Test that a child's exit code and interleaved output are captured.
TEST(Process, CapturesOutputAndExitCode) {
    ProcessResult result = runProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_TRUE(result.started);
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_NE(result.output.find("out"), std::string::npos);
    EXPECT_NE(result.output.find("err"), std::string::npos);
}

// Test that a program that does not exist is reported, not thrown.
TEST(Process, MissingProgramIsReported) {
    ProcessResult result = runProcess({"/nonexistent/metalcpu-no-such-tool"});
    EXPECT_FALSE(result.started);
}

// Test that the working directory is honoured.
TEST(Process, RunsInTheWorkingDirectory) {
    std::string dir = makeTemporaryDirectory("metalcpu-test-");
    ASSERT_FALSE(dir.empty());
    ProcessResult result = runProcess({"pwd"}, dir);
    EXPECT_NE(result.output.find(dir), std::string::npos);
    removeTree(dir);
}

// Test that commandLine quotes arguments that need it.
TEST(Process, CommandLineQuotes) { EXPECT_EQ(commandLine({"a", "b c", "it's"}), "a 'b c' 'it'\\''s'"); }

} // namespace
} // namespace metalcpu::support
