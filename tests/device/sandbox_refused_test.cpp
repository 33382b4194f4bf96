// What a hostile kernel would try from inside the device process is refused: exec, processes,
// the user's files, sockets, signals and ptrace of the host, reading the host's memory, new
// namespaces, io_uring, and the rest that the filter does not allow. Each refusal has its twin
// outside the sandbox, where the same call works (so the refusal is the sandbox's doing).
#include "sandbox_probe.h"

#include "support/files.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace metalcpu::device {
namespace {

/// Expects `run` to have entered the sandbox and its call to have failed with `error`.
void expectRefused(const ProbeRun& run, int error) {
    ASSERT_TRUE(run.reported) << "the child died first, wait status " << run.status;
    ASSERT_TRUE(run.entered) << run.enterError;
    EXPECT_LT(run.outcome.result, 0) << run.outcome.note;
    EXPECT_EQ(run.outcome.error, error) << "got " << std::strerror(run.outcome.error) << ", not "
                                        << std::strerror(error);
}

/// Expects the unconfined twin's call to have succeeded.
void expectDoneOutside(const ProbeRun& run) {
    ASSERT_TRUE(run.reported) << "the child died first, wait status " << run.status;
    EXPECT_GE(run.outcome.result, 0) << std::strerror(run.outcome.error) << "; " << run.outcome.note;
}

/// Runs `run` inside, expecting `error`, and outside, expecting success.
void expectRefusedInsideOnly(const Probe& probe, int error) {
    {
        SCOPED_TRACE("inside");
        expectRefused(runProbe(Confined::Fully, probe), error);
    }
    SCOPED_TRACE("outside");
    expectDoneOutside(runProbe(Confined::No, probe));
}
void expectRefusedInsideOnly(const std::function<Outcome()>& run, int error) {
    Probe probe;
    probe.run = run;
    expectRefusedInsideOnly(probe, error);
}

/// Opens `path` read-only and closes it again.
Outcome openToRead(const std::string& path) {
    Outcome outcome = tried(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (outcome.result >= 0) close(static_cast<int>(outcome.result));
    return outcome;
}

// Test that nothing is run: exec fails inside; outside, the child becomes /bin/true.
TEST(SandboxRefuses, Exec) {
    auto exec = [] {
        char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
        return tried(execve("/bin/true", argv, environ));
    };
    expectRefused(runProbe(Confined::Fully, exec), EPERM);
    ProbeRun outside = runProbe(Confined::No, exec);
    EXPECT_FALSE(outside.reported);
    EXPECT_TRUE(WIFEXITED(outside.status) && WEXITSTATUS(outside.status) == 0) << "wait status " << outside.status;
}

// Test that no process is made: fork (clone without CLONE_THREAD) fails.
TEST(SandboxRefuses, Fork) {
    expectRefusedInsideOnly(
        [] {
            const pid_t pid = fork();
            if (pid == 0) _exit(0);
            if (pid > 0) waitpid(pid, nullptr, 0);
            return tried(pid);
        },
        EPERM);
}

// Test that the user's files cannot be read: not /etc/passwd, not a file in $HOME.
TEST(SandboxRefuses, ReadingTheUsersFiles) {
    expectRefusedInsideOnly([] { return openToRead("/etc/passwd"); }, refusedOpenError());
    const char* home = std::getenv("HOME");
    const std::string secret = std::string(home != nullptr ? home : "/root") + "/.metalcpu-sandbox-test-" +
                               std::to_string(getpid());
    if (!support::writeFileAtomically(secret, "secret\n"))
        GTEST_SKIP() << "cannot write a file in $HOME (" << secret << ") to try (issue 12)";
    expectRefusedInsideOnly([&] { return openToRead(secret); }, refusedOpenError());
    std::remove(secret.c_str());
}

// Test that no file is made, even in /tmp: the filter refuses writing opens, and Landlock
// (sandbox_test.cpp) refuses them again.
TEST(SandboxRefuses, CreatingAFile) {
    const std::string path = "/tmp/metalcpu-sandbox-test-" + std::to_string(getpid());
    auto create = [&] {
        Outcome outcome = tried(open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
        if (outcome.result >= 0) close(static_cast<int>(outcome.result));
        return outcome;
    };
    expectRefused(runProbe(Confined::Fully, create), EPERM);
    EXPECT_FALSE(support::fileExists(path));
    expectDoneOutside(runProbe(Confined::No, create));
    EXPECT_TRUE(support::fileExists(path));
    std::remove(path.c_str());
}

// Test that no socket is made, of the Internet or of Unix.
TEST(SandboxRefuses, Sockets) {
    for (int family : {AF_INET, AF_INET6, AF_UNIX}) {
        SCOPED_TRACE(family);
        expectRefusedInsideOnly(
            [family] {
                Outcome outcome = tried(socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
                if (outcome.result >= 0) close(static_cast<int>(outcome.result));
                return outcome;
            },
            EPERM);
    }
}

// Test that a socket the process holds (made before it entered) connects nowhere: here to an
// abstract socket of the host's.
TEST(SandboxRefuses, ConnectingToTheHostsAbstractSocket) {
    HostAbstractSocket listener;
    ASSERT_TRUE(listener.listening) << std::strerror(errno);
    expectRefusedInsideOnly(listener.connector(), EPERM);
}

// Test that the host gets no signal, not even the probe of signal 0.
TEST(SandboxRefuses, SignallingTheHost) {
    expectRefusedInsideOnly([] { return tried(kill(hostPid(), 0)); }, EPERM);
    expectRefusedInsideOnly([] { return tried(syscall(SYS_tgkill, hostPid(), hostPid(), 0)); }, EPERM);
}

// Test that the host cannot be traced. Inside, PTRACE_ATTACH (which would stop it) is tried;
// outside, PTRACE_SEIZE, which does not, and ends with the child.
TEST(SandboxRefuses, TracingTheHost) {
    ProbeRun inside = runProbe(Confined::Fully, [] {
        Outcome outcome = tried(ptrace(PTRACE_ATTACH, hostPid(), nullptr, nullptr));
        if (outcome.result == 0) { // let the host go on before the test fails
            waitpid(hostPid(), nullptr, __WALL);
            ptrace(PTRACE_DETACH, hostPid(), nullptr, nullptr);
        }
        return outcome;
    });
    expectRefused(inside, EPERM);
    ProbeRun outside = runProbe(Confined::No, [] { return tried(ptrace(PTRACE_SEIZE, hostPid(), nullptr, nullptr)); });
    if (outside.outcome.error == EPERM)
        GTEST_SKIP() << "this machine forbids tracing a parent (Yama) even outside the sandbox (issue 12)";
    expectDoneOutside(outside);
}

volatile std::uint64_t hostMarker = 0;

/// A probe that reads hostMarker in the host (the child's own copy is cleared first) by
/// `read`, and answers whether it found the host's value.
Probe readingTheHostsMarker(Outcome (*read)(void* into)) {
    hostMarker = 0x5ec2e7f00dULL;
    Probe probe;
    probe.run = [read] {
        hostMarker = 0;
        std::uint64_t found = 0;
        Outcome outcome = read(&found);
        if (outcome.result >= 0 && found != 0x5ec2e7f00dULL) return noted(-1, "read something else than the marker");
        return outcome;
    };
    return probe;
}

// Test that the host's memory cannot be read with process_vm_readv.
TEST(SandboxRefuses, ReadingTheHostsMemoryDirectly) {
    expectRefusedInsideOnly(readingTheHostsMarker([](void* into) {
                                iovec local{into, sizeof(std::uint64_t)};
                                iovec remote{const_cast<std::uint64_t*>(&hostMarker), sizeof(std::uint64_t)};
                                return tried(process_vm_readv(hostPid(), &local, 1, &remote, 1, 0));
                            }),
                            EPERM);
}

// Test that the host's memory cannot be read through /proc/<host>/mem.
TEST(SandboxRefuses, ReadingTheHostsMemoryThroughProc) {
    expectRefusedInsideOnly(readingTheHostsMarker([](void* into) {
                                const std::string path = "/proc/" + std::to_string(hostPid()) + "/mem";
                                Outcome outcome = tried(open(path.c_str(), O_RDONLY | O_CLOEXEC));
                                if (outcome.result < 0) return outcome;
                                const int fd = static_cast<int>(outcome.result);
                                outcome = tried(pread(fd, into, sizeof(std::uint64_t),
                                                      reinterpret_cast<off_t>(&hostMarker)));
                                close(fd);
                                return outcome;
                            }),
                            refusedOpenError());
}

// Test that no user namespace is made (in which the process would hold every capability).
TEST(SandboxRefuses, NewNamespaces) {
    ProbeRun outside = runProbe(Confined::No, [] { return tried(unshare(CLONE_NEWUSER)); });
    if (outside.outcome.error != 0)
        GTEST_SKIP() << "user namespaces are not allowed here even outside the sandbox (issue 12)";
    expectRefused(runProbe(Confined::Fully, [] { return tried(unshare(CLONE_NEWUSER)); }), EPERM);
}

// Test that io_uring, whose operations no filter sees, is not set up.
TEST(SandboxRefuses, IoUring) {
    auto setUp = [] {
        io_uring_params parameters{};
        Outcome outcome = tried(syscall(SYS_io_uring_setup, 1, &parameters));
        if (outcome.result >= 0) close(static_cast<int>(outcome.result));
        return outcome;
    };
    ProbeRun outside = runProbe(Confined::No, setUp);
    if (outside.outcome.error != 0)
        GTEST_SKIP() << "io_uring is off on this machine even outside the sandbox (issue 12)";
    expectRefused(runProbe(Confined::Fully, setUp), EPERM);
}

/// A call the filter refuses, by what it would do.
struct RefusedCall {
    const char* what;
    long (*call)();
};

/// Calls the filter refuses with EPERM: each would reach outside the process, change what
/// it is, or open kernel interfaces the device process has no use for.
const RefusedCall kRefusedCalls[] = {
    {"a thread in a new network namespace",
     [] { return syscall(SYS_clone, CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWNET, nullptr, nullptr, nullptr, 0); }},
    {"tkill, which names no process", [] { return syscall(SYS_tkill, gettid(), 0); }},
    {"kill, even of itself", [] { return static_cast<long>(kill(getpid(), 0)); }},
    {"a pidfd of the host", [] { return syscall(SYS_pidfd_open, hostPid(), 0); }},
    {"ioctl (TIOCSTI on a terminal)", [] { int bytes = 0; return static_cast<long>(ioctl(0, FIONREAD, &bytes)); }},
    {"a socket pair", [] { int pair[2]; return static_cast<long>(socketpair(AF_UNIX, SOCK_STREAM, 0, pair)); }},
    {"sendmsg, whose address the filter cannot see",
     [] { msghdr message{}; return static_cast<long>(sendmsg(2, &message, 0)); }},
    {"sendto with an address",
     [] { sockaddr_un address{}; address.sun_family = AF_UNIX;
          return static_cast<long>(sendto(2, "", 0, 0, reinterpret_cast<sockaddr*>(&address), sizeof address)); }},
    {"a memfd", [] { return static_cast<long>(memfd_create("inside", 0)); }},
    {"bpf", [] { return syscall(SYS_bpf, 0, nullptr, 0); }},
    {"perf_event_open", [] { return syscall(SYS_perf_event_open, nullptr, 0, -1, -1, 0); }},
    {"userfaultfd", [] { return syscall(SYS_userfaultfd, 0); }},
    {"keyctl", [] { return syscall(SYS_keyctl, 0, 0, 0, 0, 0); }},
    {"add_key", [] { return syscall(SYS_add_key, "user", "metalcpu", "x", 1, 0); }},
    {"personality", [] { return syscall(SYS_personality, 0xffffffff); }},
    {"mount", [] { return syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, nullptr); }},
    {"setns", [] { return syscall(SYS_setns, 0, 0); }},
    {"becoming dumpable again", [] { return static_cast<long>(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)); }},
    {"setting the host's limits",
     [] { rlimit none{0, 0}; return syscall(SYS_prlimit64, hostPid(), RLIMIT_NOFILE, &none, nullptr); }},
    {"setting its own limits", [] { rlimit none{0, 0}; return syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &none, nullptr); }},
    {"chmod (Landlock does not cover it)", [] { return static_cast<long>(chmod("/tmp", 0777)); }},
    {"setting a descriptor's owner (SIGIO to the host)", [] { return static_cast<long>(fcntl(2, F_SETOWN, hostPid())); }},
    {"opening to write", [] { return static_cast<long>(open("/proc/self/fd/2", O_WRONLY | O_CLOEXEC)); }},
#ifdef SYS_open
    {"the old open", [] { return syscall(SYS_open, "/dev/null", O_RDONLY); }},
#endif
    {"openat2", [] { return syscall(SYS_openat2, AT_FDCWD, "/dev/null", nullptr, 0); }},
};

// Test that each call of kRefusedCalls fails with EPERM inside (and does not kill the process).
TEST(SandboxRefuses, OtherCallsWithEperm) {
    ProbeRun run = runProbe(Confined::Fully, [] {
        std::string wrong;
        for (const RefusedCall& refused : kRefusedCalls) {
            Outcome outcome = tried(refused.call());
            if (outcome.result != -1 || outcome.error != EPERM)
                wrong += std::string(refused.what) + " gave " + std::to_string(outcome.result) + " (" +
                         std::strerror(outcome.error) + "); ";
        }
        return noted(wrong.empty() ? 0 : -1, wrong);
    });
    ASSERT_TRUE(run.reported) << "wait status " << run.status;
    ASSERT_TRUE(run.entered) << run.enterError;
    EXPECT_EQ(run.outcome.result, 0) << run.outcome.note;
}

#if defined(__x86_64__)
/// getpid through the x32 table (the native numbers with bit 30 set): ENOSYS on kernels
/// without x32, never a kill.
Outcome getpidThroughX32() { return tried(syscall(0x40000000 | SYS_getpid)); }

/// getpid through i386's table (int 0x80).
Outcome getpidThroughInt80() {
    long result = 20; // i386's getpid
    asm volatile("int $0x80" : "+a"(result) : : "memory", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15");
    return tried(result);
}

/// Expects `call` to end a process inside the sandbox by SIGSYS.
void expectKilledInside(Outcome (*call)()) {
    ProbeRun inside = runProbe(Confined::Fully, call);
    EXPECT_FALSE(inside.reported);
    ASSERT_TRUE(WIFSIGNALED(inside.status)) << "wait status " << inside.status;
    EXPECT_EQ(WTERMSIG(inside.status), SIGSYS);
}

// Test that a system call through x32's numbers kills the process: the filter knows only
// x86-64's, so it cannot judge them.
TEST(SandboxRefuses, X32SystemCalls) {
    ProbeRun outside = runProbe(Confined::No, getpidThroughX32);
    ASSERT_TRUE(outside.reported) << "an x32 call killed an unconfined process, wait status " << outside.status;
    expectKilledInside(getpidThroughX32);
}

// Test the same of i386's system calls (int 0x80), where the kernel runs them.
TEST(SandboxRefuses, I386SystemCalls) {
    ProbeRun outside = runProbe(Confined::No, getpidThroughInt80);
    if (!outside.reported || outside.outcome.result <= 0)
        GTEST_SKIP() << "this kernel runs no i386 system calls even outside the sandbox (issue 12)";
    expectKilledInside(getpidThroughInt80);
}
#endif

} // namespace
} // namespace metalcpu::device
