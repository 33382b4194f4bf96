// METALCPU_ISOLATION's modes, each in a process of its own (tests/isolation/isolation_probe).
#include "support/process.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metalcpu::iso {
namespace {

/// What the probe printed and logged, run with `environment` and `arguments`.
support::ProcessResult probe(const std::vector<std::string>& environment, const std::vector<std::string>& arguments = {}) {
    std::vector<std::string> argv{ISOLATION_PROBE};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    support::ProcessLimits limits;
    limits.timeoutSeconds = 120;
    support::ProcessResult result = support::runProcess(argv, {}, limits, environment);
    EXPECT_TRUE(result.started);
    EXPECT_EQ(result.exitCode, 0) << result.output;
    return result;
}

bool has(const support::ProcessResult& result, const std::string& text) {
    return result.output.find(text) != std::string::npos;
}

// Test that METALCPU_ISOLATION=none runs kernels in the program's own process.
TEST(IsolationModes, NoneRunsInTheProgram) {
    support::ProcessResult result = probe({"METALCPU_ISOLATION=none"});
    EXPECT_TRUE(has(result, "status=4 result=right device=no error=none")) << result.output;
}

// Test that METALCPU_ISOLATION=process, and the default, run kernels in a device process.
TEST(IsolationModes, ProcessAndTheDefaultRunInADeviceProcess) {
    for (const char* setting : {"METALCPU_ISOLATION=process", "METALCPU_ISOLATION="}) {
        support::ProcessResult result = probe({setting});
        EXPECT_TRUE(has(result, "status=4 result=right device=yes error=none")) << setting << "\n" << result.output;
    }
}

// Test that by default a program that may not start a device process runs its kernels
// itself, after one warning that says why.
TEST(IsolationModes, DefaultFallsBackWithOneWarning) {
    support::ProcessResult result = probe({"METALCPU_ISOLATION="}, {"--deny-processes"});
    EXPECT_TRUE(has(result, "status=4 result=right device=no error=none")) << result.output;
    const std::string warning = "no device process (";
    const std::size_t first = result.output.find(warning);
    ASSERT_NE(first, std::string::npos) << result.output;
    EXPECT_EQ(result.output.find(warning, first + 1), std::string::npos) << "warned twice:\n" << result.output;
}

// Test that a value of METALCPU_ISOLATION or METALCPU_GPU_TIMEOUT metalcpu cannot use is
// named in one warning each, and the defaults are taken.
TEST(IsolationModes, UnusableSettingsWarnOnceAndTakeTheDefault) {
    support::ProcessResult result = probe({"METALCPU_ISOLATION=sandbox", "METALCPU_GPU_TIMEOUT=soon"});
    EXPECT_TRUE(has(result, "status=4 result=right device=yes error=none")) << result.output;
    for (const std::string warning : {"METALCPU_ISOLATION=sandbox is not", "METALCPU_GPU_TIMEOUT=soon is not"}) {
        const std::size_t first = result.output.find(warning);
        ASSERT_NE(first, std::string::npos) << warning << "\n" << result.output;
        EXPECT_EQ(result.output.find(warning, first + 1), std::string::npos) << "warned twice:\n" << result.output;
    }
}

// Test that with METALCPU_ISOLATION=process such a program's command buffers fail with an
// error that says why, and nothing hangs or crashes.
TEST(IsolationModes, RequiredIsolationFailsCommandBuffersWithAReason) {
    support::ProcessResult result = probe({"METALCPU_ISOLATION=process"}, {"--deny-processes"});
    EXPECT_TRUE(has(result, "status=5 result=wrong device=no error=METALCPU_ISOLATION: ")) << result.output;
}

// Test that a kernel that scans its thread's stack sees the program's own data there when it
// runs in the program's process (the queue's thread holds its command buffer's address), and
// nothing of the program's in a device process.
TEST(IsolationModes, KernelsSeeTheProgramsStackOnlyWithoutIsolation) {
    support::ProcessResult none = probe({"METALCPU_ISOLATION=none"}, {"--scan-stack"});
    EXPECT_TRUE(has(none, "stack shows the program: yes")) << none.output;
    support::ProcessResult isolated = probe({"METALCPU_ISOLATION=process"}, {"--scan-stack"});
    EXPECT_TRUE(has(isolated, "device=yes")) << isolated.output;
    EXPECT_TRUE(has(isolated, "stack shows the program: no")) << isolated.output;
}

} // namespace
} // namespace metalcpu::iso
