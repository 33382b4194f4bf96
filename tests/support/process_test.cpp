#include "process_groups.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <set>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

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

// Test that the limits are set in the child: its address space and core size.
TEST(Process, LimitsReachTheChild) {
    ProcessLimits limits;
    limits.addressSpaceBytes = 256u << 20;
    ProcessResult limited = runProcess({"sh", "-c", "ulimit -v; ulimit -c"}, {}, limits);
    EXPECT_EQ(limited.exitCode, 0) << limited.output;
    EXPECT_EQ(limited.output, "262144\n0\n");
}

/// Expects the grandchild `pid` that a test's child started to have been killed with it: it
/// is gone, or a zombie its new parent has not reaped yet.
void expectEnded(pid_t pid) {
    int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    if (pidfd >= 0) {
        pollfd ended{pidfd, POLLIN, 0};
        EXPECT_EQ(poll(&ended, 1, 10000), 1) << "the grandchild " << pid << " still runs";
        close(pidfd);
    } else {
        EXPECT_EQ(errno, ESRCH);
    }
}

// Test that a child still running at the timeout is killed with everything it started, and
// is waited for: no zombie is left.
TEST(Process, TimeoutKillsTheProcessGroup) {
    ProcessLimits limits;
    limits.timeoutSeconds = 1;
    // The shell starts a grandchild, says its pid, and waits for it.
    ProcessResult result = runProcess({"sh", "-c", "sleep 300 & echo $!; wait"}, {}, limits);
    EXPECT_TRUE(result.started);
    EXPECT_TRUE(result.timedOut);
    EXPECT_EQ(result.signal, SIGKILL);
    EXPECT_EQ(result.exitCode, -1);
    EXPECT_EQ(waitpid(-1, nullptr, WNOHANG | __WALL), -1) << "a child of this process was left behind";
    EXPECT_EQ(errno, ECHILD);
    expectEnded(std::stoi(result.output));
}

// Test that the CPU time limit counts the whole group (a busy grandchild here) and kills it
// with everything it started.
TEST(Process, CpuTimeLimitKillsABusyProcessGroup) {
    ProcessLimits limits;
    limits.cpuSeconds = 1;
    limits.timeoutSeconds = 60;
    ProcessResult result = runProcess({"sh", "-c", "sh -c 'while :; do :; done' & echo $!; wait"}, {}, limits);
    EXPECT_TRUE(result.outOfCpuTime);
    EXPECT_FALSE(result.timedOut); // stopped after one second of CPU time, not at the wall limit
    EXPECT_EQ(result.signal, SIGKILL);
    expectEnded(std::stoi(result.output));
}

// Test that time a process spends waiting does not count against its CPU time limit: on a
// busy machine a compiler waits for a CPU, and must not be stopped for it.
TEST(Process, CpuTimeLimitIgnoresWaiting) {
    ProcessLimits limits;
    limits.cpuSeconds = 1;
    ProcessResult result = runProcess({"sh", "-c", "sleep 2; echo done"}, {}, limits);
    EXPECT_FALSE(result.outOfCpuTime);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(result.output, "done\n");
}

// Test that output beyond the limit is read and counted but not kept.
TEST(Process, OutputIsCapped) {
    ProcessLimits limits;
    limits.outputBytes = 1000;
    ProcessResult result = runProcess({"sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x"}, {}, limits);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(result.output, std::string(1000, 'x'));
    EXPECT_EQ(result.droppedBytes, 999000u);
}

// Test that a child ended by a signal says which.
TEST(Process, ReportsTheEndingSignal) {
    ProcessResult result = runProcess({"sh", "-c", "kill -TERM $$"});
    EXPECT_TRUE(result.started);
    EXPECT_FALSE(result.timedOut);
    EXPECT_EQ(result.signal, SIGTERM);
    EXPECT_EQ(result.exitCode, -1);
}

// Test that the child's environment is this process's with the given entries replaced or added.
TEST(Process, EnvironmentChanges) {
    setenv("METALCPU_PROCESS_TEST_KEPT", "kept", 1);
    setenv("METALCPU_PROCESS_TEST_REPLACED", "old", 1);
    ProcessResult result = runProcess(
        {"sh", "-c", "echo $METALCPU_PROCESS_TEST_KEPT $METALCPU_PROCESS_TEST_REPLACED $METALCPU_PROCESS_TEST_ADDED"}, {},
        {}, {"METALCPU_PROCESS_TEST_REPLACED=new", "METALCPU_PROCESS_TEST_ADDED=added"});
    unsetenv("METALCPU_PROCESS_TEST_KEPT");
    unsetenv("METALCPU_PROCESS_TEST_REPLACED");
    EXPECT_EQ(result.output, "kept new added\n");
}

// Test that a child's exit status is known also when this process ignores SIGCHLD (the
// kernel would reap a fork()ed child at once, and its status read as success), and when
// another thread reaps every child it can.
TEST(Process, ExitStatusSurvivesIgnoredSigchld) {
    struct sigaction ignore {}, old {};
    ignore.sa_handler = SIG_IGN;
    ASSERT_EQ(sigaction(SIGCHLD, &ignore, &old), 0);
    ProcessResult failed = runProcess({"sh", "-c", "exit 3"});
    ProcessResult killed = runProcess({"sh", "-c", "kill -TERM $$"});
    sigaction(SIGCHLD, &old, nullptr);
    EXPECT_EQ(failed.exitCode, 3) << failed.output;
    EXPECT_EQ(killed.signal, SIGTERM);
    EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1) << "a reaper waiting for any child does not see ours";
}

// Test that a child inherits no descriptor of this process but the standard ones, also
// one opened without O_CLOEXEC.
TEST(Process, ChildInheritsOnlyStandardDescriptors) {
    const int leaked = open("/dev/null", O_RDONLY);
    ASSERT_GE(leaked, 0);
    ASSERT_EQ(dup2(leaked, 100), 100);
    ProcessResult result = runProcess({"sh", "-c", "for fd in " + std::to_string(leaked) +
                                                       " 100; do test -e /proc/self/fd/$fd && echo open $fd; done; exit 0"});
    close(leaked);
    close(100);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(result.output, "");
}

// Test that a running child keeps no descriptor of this process open, not even in the process
// that supervises it: a pipe another thread opened before the fork (the output pipe of another
// child of this process, say) reaches its end as soon as this process closes its write end.
// When the supervisor kept it, a compile's runProcess() waited for its output to end until
// every compile another thread had started meanwhile had ended.
TEST(Process, ARunningChildHoldsNoPipeOfThisProcess) {
    testing::TemporaryDirectory scratch;
    const std::string started = (scratch.path() / "started").string();
    int ends[2];
    ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
    std::thread running([&] { runProcess({"sh", "-c", "touch '" + started + "'; sleep 5"}); });
    while (!fileExists(started)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    close(ends[1]);
    pollfd end{ends[0], POLLIN, 0};
    const int ready = poll(&end, 1, 2000);
    char byte;
    EXPECT_EQ(ready, 1) << "the pipe's write end is still open while the child runs";
    EXPECT_EQ(ready == 1 ? read(ends[0], &byte, 1) : -1, 0);
    close(ends[0]);
    running.join();
}

// Test that a child and everything it started end when the process that started it dies,
// whatever kills it (SIGKILL too): a compile's processes never outlive the program or tool that
// started them. The child is started from a thread other than the main one, as compiles are.
TEST(Process, ChildEndsWithItsParent) {
    for (int signal : {SIGKILL, SIGTERM}) {
        SCOPED_TRACE(strsignal(signal));
        testing::TemporaryDirectory scratch;
        const std::string started = (scratch.path() / "started").string();
        const pid_t parent = fork();
        if (parent == 0) {
            // The shell starts a grandchild (as a compiler driver starts cc1plus) and says both pids.
            std::thread([&] {
                runProcess({"sh", "-c", "sleep 300 & echo $$ $! > '" + started + ".new'; mv '" + started + ".new' '" +
                                            started + "'; wait"});
            }).join();
            _exit(0);
        }
        ASSERT_GT(parent, 0);
        ASSERT_TRUE(testing::eventually([&] { return fileExists(started); })) << "the child did not start";
        pid_t shell = 0, sleeper = 0;
        std::ifstream(started) >> shell >> sleeper;
        std::set<pid_t> groups;
        for (const testing::ProcessEntry& process : testing::listProcesses())
            if (process.pid == shell || process.pid == sleeper) groups.insert(process.group);
        ASSERT_EQ(groups.size(), 1u) << "the shell and its child run in one process group";
        ASSERT_GE(testing::runningInGroups(groups).size(), 3u) << "the supervisor, the shell and sleep";

        kill(parent, signal);
        int status = 0;
        ASSERT_EQ(waitpid(parent, &status, 0), parent);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal);
        testing::expectGroupsEnd(groups);
    }
}

// Test that programs are found as exec would find them.
TEST(Process, FindsPrograms) {
    EXPECT_EQ(findProgram("sh").back(), 'h');
    EXPECT_EQ(findProgram("/bin/sh"), "/bin/sh");
    EXPECT_EQ(findProgram("metalcpu-no-such-program"), "");
    EXPECT_EQ(findProgram("/nonexistent/sh"), "");
    EXPECT_EQ(findProgram(""), "");
}

// Test that commandLine quotes arguments that need it.
TEST(Process, CommandLineQuotes) { EXPECT_EQ(commandLine({"a", "b c", "it's"}), "a 'b c' 'it'\\''s'"); }

} // namespace
} // namespace metalcpu::support
