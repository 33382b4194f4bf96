// What a device process does still works inside its sandbox: threads, executable memory,
// kernel libraries loaded from memfds it receives, futexes shared with the host, fault
// handlers, clocks, writing to descriptors it holds, abort().
#include "sandbox_probe.h"

#include "support/files.h"
#include "support/landlock.h"
#include "support/log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace metalcpu::device {
namespace {

/// Expects `run` to have entered the sandbox and its call to have succeeded.
void expectSucceeded(const ProbeRun& run) {
    ASSERT_TRUE(run.reported) << "the child died first, wait status " << run.status;
    ASSERT_TRUE(run.entered) << run.enterError;
    EXPECT_EQ(run.outcome.error, 0) << std::strerror(run.outcome.error) << "; " << run.outcome.note;
}

// Test that threads start inside, both plain ones and TBB's workers (whose pool is sized by
// the CPUs the process may use, as outside), and that clone3 answers ENOSYS so glibc falls
// back to clone.
TEST(SandboxAllows, Threads) {
    cpu_set_t cpus;
    ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
    const int usable = CPU_COUNT(&cpus);
    ProbeRun run = runProbe(Confined::Fully, [usable] {
        if (tbb::this_task_arena::max_concurrency() != usable)
            return noted(-1, "TBB counts " + std::to_string(tbb::this_task_arena::max_concurrency()) + " CPUs, not " +
                                 std::to_string(usable));
        Outcome clone3 = tried(syscall(SYS_clone3, nullptr, 0));
        if (clone3.error != ENOSYS) return noted(-1, "clone3 did not answer ENOSYS: " + std::string(strerror(clone3.error)));
        std::atomic<int> ran{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i) threads.emplace_back([&ran] { ran.fetch_add(1); });
        for (std::thread& thread : threads) thread.join();
        const long sum = tbb::parallel_reduce(
            tbb::blocked_range<long>(0, 100000), 0L,
            [](const tbb::blocked_range<long>& range, long partial) {
                for (long i = range.begin(); i != range.end(); ++i) partial += i;
                return partial;
            },
            [](long a, long b) { return a + b; });
        return noted(ran.load() * 10000000000L + sum, "");
    });
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 4 * 10000000000L + 4999950000L);
}

// Test that memory can be made executable and run, as dlopen and a JIT do.
TEST(SandboxAllows, ExecutableMemory) {
#if defined(__x86_64__)
    static const unsigned char kReturn42[] = {0xb8, 42, 0, 0, 0, 0xc3}; // mov eax, 42; ret
#elif defined(__aarch64__)
    static const unsigned char kReturn42[] = {0x40, 0x05, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6}; // mov w0, #42; ret
#else
    GTEST_SKIP() << "no machine code written for this architecture's probe (issue 12)";
#endif
    ProbeRun run = runProbe(Confined::Fully, [] {
        const long page = sysconf(_SC_PAGESIZE);
        void* code = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (code == MAP_FAILED) return tried(-1);
        std::memcpy(code, kReturn42, sizeof kReturn42);
        __builtin___clear_cache(static_cast<char*>(code), static_cast<char*>(code) + sizeof kReturn42);
        if (mprotect(code, page, PROT_READ | PROT_EXEC) != 0) return tried(-1);
        const int answer = reinterpret_cast<int (*)()>(code)();
        return tried(munmap(code, page) == 0 ? answer : -1);
    });
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 42);
}

/// A memfd holding the probe library, made by this process as the host makes them.
int libraryMemfd() {
    const std::string bytes = support::readFile(METALCPU_SANDBOX_PROBE_LIBRARY).value_or("");
    const int fd = memfd_create("metalcpu-sandbox-probe", MFD_CLOEXEC);
    if (fd < 0 || bytes.empty() || write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) return -1;
    return fd;
}

/// A message of one byte with room for one descriptor (SCM_RIGHTS).
struct DescriptorMessage {
    DescriptorMessage() {
        header.msg_iov = &data;
        header.msg_iovlen = 1;
        header.msg_control = control;
        header.msg_controllen = sizeof control;
    }
    DescriptorMessage(const DescriptorMessage&) = delete;
    DescriptorMessage& operator=(const DescriptorMessage&) = delete;

    char byte = 'L';
    iovec data{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr header{};
};

/// Sends `fd` over `socket` with SCM_RIGHTS; whether it went.
bool sendDescriptor(int socket, int fd) {
    DescriptorMessage message;
    cmsghdr* control = CMSG_FIRSTHDR(&message.header);
    control->cmsg_level = SOL_SOCKET;
    control->cmsg_type = SCM_RIGHTS;
    control->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(control), &fd, sizeof fd);
    return sendmsg(socket, &message.header, 0) == 1;
}

/// Receives a descriptor sent with SCM_RIGHTS over `socket`; -1 when none came.
int receiveDescriptor(int socket) {
    DescriptorMessage message;
    if (recvmsg(socket, &message.header, MSG_CMSG_CLOEXEC) != 1) return -1;
    cmsghdr* control = CMSG_FIRSTHDR(&message.header);
    if (control == nullptr || control->cmsg_type != SCM_RIGHTS) return -1;
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(control), sizeof fd);
    return fd;
}

/// The device process's way to a kernel: the host sends a library's memfd over a socket made
/// before the sandbox; inside, it is received and dlopen'ed through /proc/self/fd/N, then the
/// child answers over the same socket. `asUser` (when not -1) is the user the child becomes
/// first, so that the undumpable process's /proc/self/fd is tried without root's powers.
ProbeRun loadLibraryInside(uid_t asUser) {
    const int library = libraryMemfd();
    int sockets[2];
    if (library < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) return {};
    Probe probe;
    probe.before = [&] {
        if (asUser != static_cast<uid_t>(-1) && (setresgid(asUser, asUser, asUser) != 0 || setresuid(asUser, asUser, asUser) != 0))
            _exit(3);
    };
    probe.run = [&] {
        const int received = receiveDescriptor(sockets[1]);
        if (received < 0) return noted(-1, "no descriptor received");
        const std::string path = "/proc/self/fd/" + std::to_string(received);
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) return noted(-1, dlerror());
        auto answer = reinterpret_cast<int (*)()>(dlsym(handle, "metalcpuSandboxProbeAnswer"));
        if (answer == nullptr) return noted(-1, dlerror());
        const long result = answer();
        if (sendto(sockets[1], "done", 4, 0, nullptr, 0) != 4) return tried(-1);
        return tried(result);
    };
    std::string reply(4, '\0');
    probe.parent = [&](pid_t) {
        close(sockets[1]); // the child's end: its end of file is the child's end
        sockets[1] = -1;
        if (sendDescriptor(sockets[0], library)) reply.resize(std::max<ssize_t>(0, recv(sockets[0], reply.data(), 4, 0)));
    };
    ProbeRun run = runProbe(Confined::Fully, probe);
    close(library);
    close(sockets[0]);
    if (reply != "done") run.outcome.error = run.outcome.error != 0 ? run.outcome.error : EPROTO;
    return run;
}

// Test that a kernel library sent as a memfd is received and loaded inside, and answers:
// Landlock lets /proc/self/fd/N of a memfd open though it refuses every path.
TEST(SandboxAllows, LibraryFromReceivedMemfd) {
    if (std::string reason = withoutLandlock(); !reason.empty()) GTEST_SKIP() << reason;
    ProbeRun run = loadLibraryInside(static_cast<uid_t>(-1));
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 42) << run.outcome.note;
}

// Test the same for a device process that is not root: undumpable, its /proc/self/fd is
// root's, yet the process itself still reaches it.
TEST(SandboxAllows, LibraryFromReceivedMemfdAsAnotherUser) {
    if (std::string reason = withoutLandlock(); !reason.empty()) GTEST_SKIP() << reason;
    const uid_t nobody = geteuid() == 0 ? 65534 : geteuid();
    ProbeRun run = loadLibraryInside(nobody);
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 42) << run.outcome.note;
}

// Test that futexes wait with a timeout inside, and that this process (the host) wakes a
// waiter on memory shared with it.
TEST(SandboxAllows, FutexesSharedWithTheHost) {
    auto* shared = static_cast<std::atomic<std::uint32_t>*>(
        mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(shared, MAP_FAILED);
    std::atomic<std::uint32_t>& value = shared[0];
    std::atomic<std::uint32_t>& waiting = shared[1];
    Probe probe;
    probe.run = [&] {
        std::uint32_t local = 0;
        timespec brief{0, 1000000};
        Outcome timed = tried(syscall(SYS_futex, &local, FUTEX_WAIT_PRIVATE, 0, &brief, nullptr, 0));
        if (timed.error != ETIMEDOUT) return noted(-1, "a timed wait did not time out: " + std::string(strerror(timed.error)));
        waiting.store(1);
        timespec patient{20, 0};
        while (value.load() == 0) {
            Outcome woken = tried(syscall(SYS_futex, &value, FUTEX_WAIT, 0, &patient, nullptr, 0));
            if (woken.error != 0 && woken.error != EAGAIN && woken.error != EINTR) return woken;
        }
        return tried(value.load());
    };
    probe.parent = [&](pid_t) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (waiting.load() == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        value.store(7);
        syscall(SYS_futex, &value, FUTEX_WAKE, 1, nullptr, nullptr, 0);
    };
    ProbeRun run = runProbe(Confined::Fully, probe);
    munmap(shared, 4096);
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 7);
}

char* faultPage = nullptr;
char* alternateStack = nullptr;
std::atomic<bool> handledOnAlternateStack{false};

void unprotectFaultPage(int, siginfo_t* info, void*) {
    char here = 0;
    handledOnAlternateStack = &here >= alternateStack && &here < alternateStack + SIGSTKSZ * 4 &&
                              static_cast<char*>(info->si_addr) == faultPage;
    mprotect(faultPage, 4096, PROT_READ | PROT_WRITE);
}

// Test that a SIGSEGV handler runs on an alternate stack, changes the page's protection and
// returns, so that the faulting store goes through.
TEST(SandboxAllows, FaultHandlerOnAlternateStack) {
    ProbeRun run = runProbe(Confined::Fully, [] {
        alternateStack = static_cast<char*>(
            mmap(nullptr, SIGSTKSZ * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        faultPage = static_cast<char*>(mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (alternateStack == MAP_FAILED || faultPage == MAP_FAILED) return tried(-1);
        stack_t stack{};
        stack.ss_sp = alternateStack;
        stack.ss_size = SIGSTKSZ * 4;
        if (sigaltstack(&stack, nullptr) != 0) return tried(-1);
        struct sigaction action {};
        action.sa_sigaction = unprotectFaultPage;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        if (sigaction(SIGSEGV, &action, nullptr) != 0) return tried(-1);
        *static_cast<volatile char*>(faultPage) = 5;
        return tried(*static_cast<volatile char*>(faultPage) + (handledOnAlternateStack ? 100 : 0));
    });
    expectSucceeded(run);
    EXPECT_EQ(run.outcome.result, 105);
}

// Test that the clocks (through the system call, not only the vDSO) and sleeps work inside.
TEST(SandboxAllows, ClocksAndSleeps) {
    ProbeRun run = runProbe(Confined::Fully, [] {
        timespec before{}, after{};
        if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &before) != 0) return tried(-1);
        const timespec nap{0, 2000000};
        if (nanosleep(&nap, nullptr) != 0) return tried(-1);
        if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &after) != 0) return tried(-1);
        return tried((after.tv_sec - before.tv_sec) * 1000000L + (after.tv_nsec - before.tv_nsec) / 1000);
    });
    expectSucceeded(run);
    EXPECT_GE(run.outcome.result, 2000);
    EXPECT_LT(run.outcome.result, 10000000);
}

// Test that a descriptor inherited from outside (a pipe, as standard error is) is written to.
TEST(SandboxAllows, WritingToAnInheritedPipe) {
    int pipeEnds[2];
    ASSERT_EQ(pipe(pipeEnds), 0);
    ProbeRun run = runProbe(Confined::Fully, [&] {
        close(pipeEnds[0]);
        return tried(write(pipeEnds[1], "from inside\n", 12));
    });
    close(pipeEnds[1]);
    char text[32] = {};
    const ssize_t got = read(pipeEnds[0], text, sizeof text - 1);
    close(pipeEnds[0]);
    expectSucceeded(run);
    EXPECT_EQ(got, 12);
    EXPECT_STREQ(text, "from inside\n");
}

// Test that the project's log, first used inside, writes to standard error (here a pipe).
TEST(SandboxAllows, Logging) {
    int pipeEnds[2];
    ASSERT_EQ(pipe(pipeEnds), 0);
    Probe probe;
    probe.before = [&] {
        close(pipeEnds[0]);
        dup2(pipeEnds[1], 2);
    };
    probe.run = [] {
        support::log().warn("logged from inside the sandbox");
        support::log().flush();
        return tried(0);
    };
    ProbeRun run = runProbe(Confined::Fully, probe);
    close(pipeEnds[1]);
    std::string text(4096, '\0');
    const ssize_t got = read(pipeEnds[0], text.data(), text.size());
    close(pipeEnds[0]);
    expectSucceeded(run);
    text.resize(std::max<ssize_t>(got, 0));
    EXPECT_NE(text.find("logged from inside the sandbox"), std::string::npos) << text;
}

// Test that abort() ends the process with SIGABRT: it signals its own thread (tgkill).
TEST(SandboxAllows, Abort) {
    ProbeRun run = runProbe(Confined::Fully, []() -> Outcome { std::abort(); });
    EXPECT_FALSE(run.reported);
    ASSERT_TRUE(WIFSIGNALED(run.status)) << "wait status " << run.status;
    EXPECT_EQ(WTERMSIG(run.status), SIGABRT);
}

} // namespace
} // namespace metalcpu::device
