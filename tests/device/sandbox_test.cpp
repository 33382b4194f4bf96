// The device sandbox as a whole: what it reports, the privileges it gives up, when it
// refuses to be entered, and that each layer (Landlock, the system-call filter) holds on its
// own. What works and what is refused inside the whole sandbox is in sandbox_allowed_test.cpp
// and sandbox_refused_test.cpp.
#include "sandbox_probe.h"

#include "support/landlock.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <condition_variable>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <mutex>
#include <netinet/in.h>
#include <seccomp.h>
#include <set>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>

namespace metalcpu::device {
namespace {

/// The child entered; its outcome's note holds what its probe found wrong (empty: nothing).
void expectNothingWrong(const ProbeRun& run) {
    ASSERT_TRUE(run.reported) << "the child died first, wait status " << run.status;
    ASSERT_TRUE(run.entered) << run.enterError;
    EXPECT_STREQ(run.outcome.note, "");
}

/// Collects what went wrong in a probe that checks several calls.
class Checks {
public:
    /// Expects `outcome` to be a failure with `error` (or a success when `error` is 0).
    void expect(const char* what, const Outcome& outcome, int error) {
        if (outcome.error != error)
            wrong_ += std::string(what) + " gave " + std::to_string(outcome.result) + " (" +
                      std::strerror(outcome.error) + "); ";
    }
    /// Expects `holds`.
    void expect(const std::string& what, bool holds) {
        if (!holds) wrong_ += what + "; ";
    }
    Outcome outcome() const { return noted(wrong_.empty() ? 0 : -1, wrong_); }

private:
    std::string wrong_;
};

// Test that the report names the Landlock ABI used and the filter, and says nothing is
// missing on a machine that has every layer.
TEST(Sandbox, ReportSaysWhatIsInPlace) {
    ProbeRun run = runProbe(Confined::Fully, [] { return tried(0); });
    ASSERT_TRUE(run.reported) << "wait status " << run.status;
    ASSERT_TRUE(run.entered) << run.enterError;
    EXPECT_EQ(run.report.landlockAbi, support::landlockAbi());
    EXPECT_TRUE(run.report.seccomp);
    if (run.report.landlockAbi >= 6) EXPECT_EQ(run.report.missing, "");
    else EXPECT_NE(run.report.missing.find("Landlock"), std::string::npos) << run.report.missing;
}

// Test that the process gives up privileges for good: no_new_privs, no core dumps, not
// dumpable, no capabilities. (Checked under Landlock alone: the filter would refuse prctl.)
TEST(Sandbox, PrivilegesAreGivenUp) {
    ProbeRun run = runProbe(Confined::ByLandlockOnly, [] {
        Checks checks;
        checks.expect("no_new_privs", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1);
        checks.expect("not dumpable", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0);
        rlimit core{};
        checks.expect("no core dumps", getrlimit(RLIMIT_CORE, &core) == 0 && core.rlim_max == 0);
        __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
        __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3] = {};
        const bool none = syscall(SYS_capget, &header, held) == 0 && held[0].permitted == 0 && held[1].permitted == 0 &&
                          held[0].effective == 0 && held[1].effective == 0;
        checks.expect("no capabilities", none);
        return checks.outcome();
    });
    expectNothingWrong(run);
    EXPECT_EQ(run.outcome.result, 0) << run.outcome.note;
}

// Test that the sandbox is not entered while other threads run (Landlock would bind only the
// calling one), and that nothing changes then.
TEST(Sandbox, RefusedWhileThreadsRun) {
    ProbeRun run = runProbe(Confined::No, [] {
        std::mutex mutex;
        std::condition_variable changed;
        bool started = false, done = false;
        std::thread other([&] {
            std::unique_lock lock(mutex);
            started = true;
            changed.notify_all();
            changed.wait(lock, [&] { return done; });
        });
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return started; });
        }
        SandboxReport report;
        std::string error;
        const bool entered = enterSandbox(&report, &error);
        const bool unchanged = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0 && prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1;
        {
            std::lock_guard lock(mutex);
            done = true;
        }
        changed.notify_all();
        other.join();
        if (entered) return noted(-1, "entered with two threads");
        return noted(unchanged ? 0 : -1, error);
    });
    ASSERT_TRUE(run.reported) << "wait status " << run.status;
    EXPECT_EQ(run.outcome.result, 0) << "the process changed though entering was refused";
    EXPECT_NE(std::string(run.outcome.note).find("2 threads"), std::string::npos) << run.outcome.note;
}

// Test that every call of the allowlist is one this machine knows (a misspelt name would be
// passed over silently, as a call another architecture lacks is).
TEST(Sandbox, AllowlistNamesThisMachinesCalls) {
    for (const AllowedCall& call : kAllowedCalls) {
#if !defined(__x86_64__)
        if (std::string(call.name) == "poll") continue; // arm64 has ppoll only
#endif
        EXPECT_NE(seccomp_syscall_resolve_name(call.name), __NR_SCMP_ERROR) << call.name;
    }
}

/// A memfd holding `text`, made outside the sandbox; -1 on failure.
int memfdHolding(const char* text) {
    const int fd = memfd_create("metalcpu-sandbox-test", MFD_CLOEXEC);
    const std::size_t size = std::strlen(text);
    if (fd >= 0 && write(fd, text, size) != static_cast<ssize_t>(size)) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Reads what the file `path` holds, through a new descriptor.
Outcome readThrough(const std::string& path, std::string* text) {
    Outcome outcome = tried(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (outcome.result < 0) return outcome;
    char bytes[64] = {};
    const ssize_t got = pread(static_cast<int>(outcome.result), bytes, sizeof bytes - 1, 0);
    close(static_cast<int>(outcome.result));
    *text = got > 0 ? std::string(bytes, static_cast<std::size_t>(got)) : std::string();
    return outcome;
}

// Test that Landlock alone refuses every path (a file of the user's, the host's memory, a new
// file in /tmp) yet lets the process reopen a memfd it holds through /proc/self/fd/N, which
// is how kernel libraries are loaded.
TEST(SandboxLandlockAlone, RefusesPathsButNotItsMemfds) {
    if (std::string reason = withoutLandlock(); !reason.empty()) GTEST_SKIP() << reason;
    const int memfd = memfdHolding("kernel library");
    ASSERT_GE(memfd, 0);
    const std::string created = "/tmp/metalcpu-sandbox-landlock-test-" + std::to_string(getpid());
    ProbeRun run = runProbe(Confined::ByLandlockOnly, [&] {
        Checks checks;
        std::string text;
        checks.expect("/etc/passwd", readThrough("/etc/passwd", &text), EACCES);
        checks.expect("the host's memory", readThrough("/proc/" + std::to_string(hostPid()) + "/mem", &text), EACCES);
        checks.expect("a new file", tried(open(created.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)), EACCES);
        checks.expect("its memfd", readThrough("/proc/self/fd/" + std::to_string(memfd), &text), 0);
        checks.expect("its memfd held '" + text + "'", text == "kernel library");
        return checks.outcome();
    });
    close(memfd);
    expectNothingWrong(run);
    EXPECT_FALSE(access(created.c_str(), F_OK) == 0);
}

/// Tries to trace `victim` and read its memory, expecting `expected` (0: success), and to
/// open its /proc/<pid>/mem, expecting `expectedOpen`.
Outcome reachVictim(const Victim& victim, int expected, int expectedOpen) {
    Checks checks;
    checks.expect("ptrace", tried(ptrace(PTRACE_SEIZE, victim.pid(), nullptr, nullptr)), expected);
    std::uint64_t word = 0;
    iovec local{&word, sizeof word}, remote{const_cast<void*>(Victim::marker()), sizeof word};
    checks.expect("process_vm_readv", tried(process_vm_readv(victim.pid(), &local, 1, &remote, 1, 0)), expected);
    if (expected == 0 && word != Victim::kMarker) checks.expect("process_vm_readv read the marker", false);
    std::string text;
    checks.expect("its memory file", readThrough("/proc/" + std::to_string(victim.pid()) + "/mem", &text),
                  expectedOpen);
    return checks.outcome();
}

// Test that Landlock alone keeps other processes of this user out of reach of ptrace,
// process_vm_readv and /proc/<pid>/mem (a sandboxed process may not trace one outside its
// domain), which a process without capabilities reaches outside the sandbox.
TEST(SandboxLandlockAlone, RefusesTracingOtherProcesses) {
    if (std::string reason = withoutLandlock(); !reason.empty()) GTEST_SKIP() << reason;
    Victim victim;
    ASSERT_TRUE(victim.ready());
    expectNothingWrong(runProbe(Confined::ByLandlockOnly, [&] { return reachVictim(victim, EPERM, EACCES); }));
    Probe outside;
    outside.before = [] {
        if (!dropCapabilities()) _exit(3);
    };
    outside.run = [&] { return reachVictim(victim, 0, 0); };
    ProbeRun twin = runProbe(Confined::No, outside);
    ASSERT_TRUE(twin.reported) << "wait status " << twin.status;
    EXPECT_STREQ(twin.outcome.note, "");
}

// Test that Landlock alone (ABI 4) refuses TCP: a connection to the host's listening port on
// the loopback fails inside and succeeds outside.
TEST(SandboxLandlockAlone, RefusesTcp) {
    if (std::string reason = withoutLandlock(4); !reason.empty()) GTEST_SKIP() << reason;
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), length), 0) << std::strerror(errno);
    ASSERT_EQ(listen(listener, 4), 0);
    ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
    auto connectToHost = [&] {
        const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return tried(-1);
        Outcome outcome = tried(connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address));
        close(fd);
        return outcome;
    };
    ProbeRun inside = runProbe(Confined::ByLandlockOnly, connectToHost);
    ProbeRun outside = runProbe(Confined::No, connectToHost);
    close(listener);
    ASSERT_TRUE(inside.reported && inside.entered) << inside.enterError;
    EXPECT_EQ(inside.outcome.error, EACCES) << std::strerror(inside.outcome.error);
    EXPECT_EQ(outside.outcome.error, 0) << std::strerror(outside.outcome.error);
}

// Test that Landlock alone (ABI 6) keeps signals and abstract sockets within the sandbox: the
// host gets no signal and its abstract socket takes no connection.
TEST(SandboxLandlockAlone, KeepsSignalsAndAbstractSocketsIn) {
    if (std::string reason = withoutLandlock(6); !reason.empty()) GTEST_SKIP() << reason;
    ProbeRun signal = runProbe(Confined::ByLandlockOnly, [] { return tried(kill(hostPid(), 0)); });
    ASSERT_TRUE(signal.reported && signal.entered) << signal.enterError;
    EXPECT_EQ(signal.outcome.error, EPERM) << std::strerror(signal.outcome.error);
    HostAbstractSocket host;
    ASSERT_TRUE(host.listening) << std::strerror(errno);
    ProbeRun connection = runProbe(Confined::ByLandlockOnly, host.connector());
    ASSERT_TRUE(connection.reported && connection.entered) << connection.enterError;
    EXPECT_EQ(connection.outcome.error, EPERM) << std::strerror(connection.outcome.error);
}

// Test that the filter alone (as on a kernel without Landlock) refuses every open, its own
// memfd's included, and says so in the report.
TEST(SandboxFilterAlone, RefusesEveryOpen) {
    const int memfd = memfdHolding("kernel library");
    ASSERT_GE(memfd, 0);
    ProbeRun run = runProbe(Confined::ByFilterOnly, [&] {
        Checks checks;
        std::string text;
        checks.expect("/etc/passwd", readThrough("/etc/passwd", &text), EPERM);
        checks.expect("its memfd", readThrough("/proc/self/fd/" + std::to_string(memfd), &text), EPERM);
        return checks.outcome();
    });
    close(memfd);
    expectNothingWrong(run);
    EXPECT_EQ(run.report.landlockAbi, 0);
    EXPECT_TRUE(run.report.seccomp);
    EXPECT_NE(run.report.missing.find("no Landlock"), std::string::npos) << run.report.missing;
}

// Test that the filter alone refuses exec, processes, sockets, signals to the host, and
// tracing another process of this user.
TEST(SandboxFilterAlone, RefusesExecProcessesSocketsSignalsAndTracing) {
    Victim victim;
    ASSERT_TRUE(victim.ready());
    ProbeRun run = runProbe(Confined::ByFilterOnly, [&] {
        Checks checks;
        char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
        checks.expect("execve", tried(execve("/bin/true", argv, environ)), EPERM);
        const pid_t pid = fork();
        if (pid == 0) _exit(0);
        checks.expect("fork", tried(pid), EPERM);
        checks.expect("socket", tried(socket(AF_INET, SOCK_STREAM, 0)), EPERM);
        checks.expect("kill", tried(kill(hostPid(), 0)), EPERM);
        checks.expect("tgkill", tried(syscall(SYS_tgkill, hostPid(), hostPid(), 0)), EPERM);
        Outcome reach = reachVictim(victim, EPERM, EPERM);
        checks.expect(reach.note, reach.note[0] == '\0');
        return checks.outcome();
    });
    expectNothingWrong(run);
}

} // namespace
} // namespace metalcpu::device
