// `metal -g` under a real debugger: gdb stops at a breakpoint on a .metal line of a kernel the
// program runs, and prints a kernel local (docs/tools.md, "Debugging kernels with gdb").
#include "tools/tool_fixture.h"

namespace metalcpu::tools {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Line 5 holds the breakpoint; `partial` is 42 there for thread 0.
const char kKernel[] = "kernel void dbg(device int* out [[buffer(0)]],\n"
                       "                uint i [[thread_position_in_grid]]) {\n"
                       "    int partial = int(i) + 41;\n"
                       "    partial += 1;\n"
                       "    out[i] = partial;\n"
                       "}\n";

class Debugger : public ToolsTest {
protected:
    void SetUp() override {
        ToolsTest::SetUp();
        support::ProcessResult gdb = run({"gdb", "--version"});
        if (!gdb.started || gdb.exitCode != 0)
            GTEST_SKIP() << "gdb is not installed: the debugger test of metal -g needs it (issue 13)";
        write("d.metal", kKernel);
    }

    /// gdb, in batch mode, running the probe program (it runs `dbg` on one thread from
    /// d.metallib) with a breakpoint at d.metal:5, then printing `partial`. The kernel runs in
    /// the program's own process (METALCPU_ISOLATION=none): the device process, where it
    /// otherwise runs, is another process and refuses ptrace (docs/tools.md).
    support::ProcessResult debug() const {
        support::ProcessLimits limits;
        limits.timeoutSeconds = 300;
        return support::runProcess({"gdb", "-batch", "-nx", "-ex", "set breakpoint pending on", "-ex", "break d.metal:5",
                                    "-ex", "run", "-ex", "print partial", "-ex", "continue", "--args", PROBE_PROGRAM,
                                    "d.metallib", "dbg"},
                                   dir_, limits, {"METALCPU_ISOLATION=none", "METALCPU_LOG_LEVEL=error"});
    }
};

// Test -g: gdb stops at the .metal line in the kernel, prints its local, and the program then
// finishes with the kernel's result.
TEST_F(Debugger, StopsAtMetalLineAndPrintsLocal) {
    ASSERT_EQ(run({METAL_TOOL, "-g", "-O0", "d.metal", "-o", "d.metallib"}).exitCode, 0);
    support::ProcessResult session = debug();
    ASSERT_FALSE(session.timedOut) << session.output;
    EXPECT_TRUE(contains(session.output, "hit Breakpoint 1, dbg (")) << session.output;
    EXPECT_TRUE(contains(session.output, "at " + dir_ + "/d.metal:5\n5\t    out[i] = partial;\n")) << session.output;
    EXPECT_TRUE(contains(session.output, "\n$1 = 42\n")) << session.output;
    EXPECT_TRUE(contains(session.output, "dbg=42\n")) << session.output;
}

// Test -gline-tables-only and -frecord-sources, which give line tables only: gdb stops at the
// same .metal line (it has no variables to print there).
TEST_F(Debugger, LineTablesStopAtMetalLine) {
    for (const char* flag : {"-gline-tables-only", "-frecord-sources"}) {
        SCOPED_TRACE(flag);
        ASSERT_EQ(run({METAL_TOOL, flag, "-O0", "d.metal", "-o", "d.metallib"}).exitCode, 0);
        support::ProcessResult session = debug();
        ASSERT_FALSE(session.timedOut) << session.output;
        EXPECT_TRUE(contains(session.output, "hit Breakpoint 1, ")) << session.output;
        EXPECT_TRUE(contains(session.output, dir_ + "/d.metal:5\n5\t    out[i] = partial;\n")) << session.output;
        EXPECT_TRUE(contains(session.output, "dbg=42\n")) << session.output;
    }
}

} // namespace
} // namespace metalcpu::tools
