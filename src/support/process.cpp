#include "support/process.h"

#include "support/config.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <poll.h>
#include <thread>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace metalcpu::support {
namespace {

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/// Why a child did not start: sent from the child to the parent through a pipe that exec closes.
struct StartFailure {
    int error = 0;
    const char* step = nullptr; ///< a string literal: the same address in the parent, a copy of the child
};

/// One past the highest descriptor the limit allows, for kernels without close_range.
unsigned descriptorLimit() {
    rlimit open{};
    return getrlimit(RLIMIT_NOFILE, &open) == 0 && open.rlim_cur != RLIM_INFINITY
               ? static_cast<unsigned>(open.rlim_cur < 1048576 ? open.rlim_cur : 1048576)
               : 65536;
}

/// Marks every descriptor above the standard ones close-on-exec, so that a compiler inherits
/// none of this process's files (other threads open them without O_CLOEXEC, between our
/// fork and exec, too); the ones the child still needs stay open until exec.
void closeOnExecAboveStandard() {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
#endif
    // Kernels before 5.11: every descriptor the limit allows.
    for (unsigned fd = 3, last = descriptorLimit(); fd < last; ++fd) fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
}

/// Closes every descriptor above the standard ones but `kept`. Only system calls: it runs in
/// a child forked from a process with other threads.
void closeAllAboveStandardBut(int kept) {
    const auto closeFromTo = [](unsigned first, unsigned last) {
        if (first > last) return;
#ifdef SYS_close_range
        if (syscall(SYS_close_range, first, last, 0U) == 0) return;
#endif
        // Kernels before 5.9: every descriptor the limit allows.
        for (unsigned fd = first, limit = descriptorLimit(); fd <= last && fd < limit; ++fd) ::close(static_cast<int>(fd));
    };
    closeFromTo(3, static_cast<unsigned>(kept) - 1);
    closeFromTo(static_cast<unsigned>(kept) + 1, ~0U);
}

/// The pipes between this process and a child: its output, why it did not start (closed by
/// its exec), and the wait status its supervisor saw.
struct Pipes {
    int output[2] = {-1, -1}, failure[2] = {-1, -1}, status[2] = {-1, -1};
    Pipes() {
        if (pipe2(output, O_CLOEXEC) != 0 || pipe2(failure, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) close();
    }
    ~Pipes() { close(); }
    bool made() const { return status[1] >= 0; }
    void closeChildEnds() {
        for (int* end : {&output[1], &failure[1], &status[1]}) closeOne(*end);
    }
    void close() {
        for (int* end : {&output[0], &output[1], &failure[0], &failure[1], &status[0], &status[1]}) closeOne(*end);
    }
    static void closeOne(int& fd) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    Pipes(const Pipes&) = delete;
    Pipes& operator=(const Pipes&) = delete;
};

/// What the program's start needs, made before fork.
struct ChildStart {
    const char* program;
    char* const* args;
    char* const* environment;
    const char* workingDirectory; ///< nullptr: the parent's
    const ProcessLimits& limits;
    const Confinement* confinement;
};

/// The parts of a child's start that can fail, run between fork and exec. Only
/// async-signal-safe calls: the parent may have other threads, whose locks the child
/// inherits held.
[[noreturn]] void startChild(const ChildStart& start, int output, int failures) {
    const ProcessLimits& limits = start.limits;
    // Lowered to what the process may have at most already, if that is less: only root may raise it.
    auto limit = [](int resource, std::uint64_t bytes) {
        rlimit value{};
        if (getrlimit(resource, &value) != 0) return false;
        if (value.rlim_max == RLIM_INFINITY || static_cast<std::uint64_t>(value.rlim_max) > bytes)
            value.rlim_max = static_cast<rlim_t>(bytes);
        value.rlim_cur = value.rlim_max;
        return setrlimit(resource, &value) == 0;
    };
    // A compiler stopped by a limit leaves no core file behind.
    bool limited = limit(RLIMIT_CORE, 0);
    if (limits.addressSpaceBytes) limited = limited && limit(RLIMIT_AS, limits.addressSpaceBytes);
    if (limits.fileSizeBytes) limited = limited && limit(RLIMIT_FSIZE, limits.fileSizeBytes);
    sigset_t none;
    sigemptyset(&none);
    StartFailure failure;
    int input = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (limited && input >= 0 && dup2(input, STDIN_FILENO) >= 0 && dup2(output, STDOUT_FILENO) >= 0 &&
        dup2(output, STDERR_FILENO) >= 0) {
        closeOnExecAboveStandard();
        failure.error = start.confinement ? start.confinement->enter(&failure.step) : 0;
        if (failure.error == 0 && (!start.workingDirectory || chdir(start.workingDirectory) == 0) &&
            sigprocmask(SIG_SETMASK, &none, nullptr) == 0)
            execve(start.program, start.args, start.environment);
    }
    if (failure.error == 0) failure.error = errno;
    ssize_t ignored = write(failures, &failure, sizeof failure);
    (void)ignored;
    _exit(127);
}

/// Writes why the child did not start to the parent, and ends the child.
[[noreturn]] void failStart(int failures, const char* step) {
    StartFailure failure{errno, step};
    ssize_t ignored = write(failures, &failure, sizeof failure);
    (void)ignored;
    _exit(127);
}

/// The signal the kernel sends a supervisor whose parent has died (PR_SET_PDEATHSIG).
constexpr int kParentDied = SIGTERM;

/// The supervisor's handler of kParentDied: the program and everything it started (a
/// compiler driver's cc1plus and as) are in its process group, and would otherwise run on,
/// orphaned, until they end by themselves.
void killOwnProcessGroup(int) { kill(0, SIGKILL); }

/// Makes the supervisor end its process group when this process ends, however it ends
/// (SIGKILL included), so that no compile outlives the program or tool that started it.
/// The kernel sends kParentDied when the *thread* that forked ends, not the process; that
/// thread is runProcess()'s caller, which waits for the supervisor before it returns, so it
/// ends first only when the whole process does. False when the parent, `parent`, died
/// before the request was made.
bool endWithParent(pid_t parent) {
    struct sigaction orphaned {};
    orphaned.sa_handler = killOwnProcessGroup;
    sigaction(kParentDied, &orphaned, nullptr);
    // Inherited from the thread that forked, which may block it (to sigwait() for it, say).
    sigset_t parentDied;
    sigemptyset(&parentDied);
    sigaddset(&parentDied, kParentDied);
    sigprocmask(SIG_UNBLOCK, &parentDied, nullptr);
    prctl(PR_SET_PDEATHSIG, kParentDied, 0, 0, 0);
    // Reparented already (to init or a subreaper): the signal will never come.
    return getppid() == parent;
}

/// The child runProcess() forks: it starts the program as a child of its own and reports its
/// wait status. A program this process started directly would be reaped by the kernel the
/// moment it ended, its status lost, if this process ignores SIGCHLD; the supervisor never
/// execs, so it keeps its exit signal of 0 (forkWaitable()) and is waited for here. Both run
/// in a process group of their own, which a timeout kills, and which the supervisor kills
/// when `parent` (this process) dies.
[[noreturn]] void superviseChild(const ChildStart& start, Pipes& pipes, pid_t parent) {
    // Checked: in the parent's group, killing "its own group" would kill the parent's.
    if (setpgid(0, 0) != 0) failStart(pipes.failure[1], "setpgid");
    if (!endWithParent(parent)) _exit(127);
    struct sigaction byDefault {};
    byDefault.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &byDefault, nullptr);
    // A raw fork: glibc's fork() runs handlers that may wait for locks of the parent's
    // other threads, which do not exist here.
    const pid_t program = static_cast<pid_t>(syscall(SYS_clone, static_cast<unsigned long>(SIGCHLD), nullptr, nullptr,
                                                     nullptr, 0UL));
    if (program == 0) startChild(start, pipes.output[1], pipes.failure[1]);
    if (program < 0) failStart(pipes.failure[1], "fork");
    // The parent reads the program's output and start to their ends: only the program holds them
    // now. Nor does this process keep what it inherited from the parent's other threads: the pipes
    // of another child started at the same time, whose ends would wait for this program's.
    closeAllAboveStandardBut(pipes.status[1]);
    int status = 0;
    while (waitpid(program, &status, 0) < 0)
        if (errno != EINTR) _exit(127);
    ssize_t ignored = write(pipes.status[1], &status, sizeof status);
    (void)ignored;
    _exit(0);
}

/// This process's environment with `changes` (NAME=VALUE) replacing or added to it.
std::vector<std::string> environmentWith(const std::vector<std::string>& changes) {
    std::vector<std::string> merged;
    for (char** entry = environ; *entry; ++entry) {
        const std::string text = *entry;
        const std::string name = text.substr(0, text.find('=') + 1);
        bool replaced = false;
        for (const std::string& change : changes) replaced = replaced || change.rfind(name, 0) == 0;
        if (!replaced) merged.push_back(text);
    }
    merged.insert(merged.end(), changes.begin(), changes.end());
    return merged;
}

/// Pointers to `strings` and a null, as exec wants them.
std::vector<char*> pointersTo(const std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

int openPidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
}

/// The CPU time, in seconds, the processes of process group `group` have used, with the
/// children each has waited for (a compiler driver's finished cc1plus is in the driver's
/// cutime). Read from /proc: there is no system call for a group's time.
double groupCpuSeconds(pid_t group) {
    static const double ticksPerSecond = static_cast<double>(sysconf(_SC_CLK_TCK));
    unsigned long long ticks = 0;
    std::error_code error;
    for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        char text[1024];
        const int fd = open((entry->path().string() + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        const ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        if (n <= 0) continue;
        text[n] = '\0';
        // After the command's closing parenthesis (the command may hold spaces and
        // parentheses): state, ppid, pgrp, ... and from the 14th field utime, stime, cutime, cstime.
        const char* rest = std::strrchr(text, ')');
        long pgrp = 0;
        unsigned long long utime = 0, stime = 0;
        long long cutime = 0, cstime = 0;
        if (!rest || std::sscanf(rest + 1, " %*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &pgrp,
                                 &utime, &stime, &cutime, &cstime) != 5)
            continue;
        if (pgrp == group) ticks += utime + stime + static_cast<unsigned long long>(cutime + cstime);
    }
    return static_cast<double>(ticks) / ticksPerSecond;
}

/// Reads the child's output until it is closed and the child has ended, or until the
/// deadline or the CPU time limit, when the child's whole process group is killed.
void collect(pid_t pid, int output, const ProcessLimits& limits, ProcessResult& result) {
    using Clock = std::chrono::steady_clock;
    const bool bounded = limits.timeoutSeconds > 0;
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(limits.timeoutSeconds);
    // The group's CPU time is looked at when it could have reached the limit at the earliest:
    // after the time left divided by the CPUs its processes could all be running on.
    const double cpus = std::max(1u, std::thread::hardware_concurrency());
    const auto cpuCheckAfter = [cpus](double cpuSecondsLeft) {
        return Clock::now() + std::chrono::milliseconds(std::max(100L, static_cast<long>(cpuSecondsLeft * 1000 / cpus)));
    };
    Clock::time_point nextCpuCheck = cpuCheckAfter(limits.cpuSeconds);
    // Without a pidfd (kernels before 5.3) the loop ends with the output; waitpid then waits.
    int exited = openPidfd(pid);
    bool outputOpen = true;
    while (outputOpen || exited >= 0) {
        int wait = -1;
        if (bounded) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) {
                kill(-pid, SIGKILL);
                result.timedOut = true;
                break;
            }
            wait = static_cast<int>(left);
        }
        if (limits.cpuSeconds > 0) {
            if (Clock::now() >= nextCpuCheck) {
                const double left = limits.cpuSeconds - groupCpuSeconds(pid);
                if (left <= 0) {
                    kill(-pid, SIGKILL);
                    result.outOfCpuTime = true;
                    break;
                }
                nextCpuCheck = cpuCheckAfter(left);
            }
            auto untilCheck = std::chrono::duration_cast<std::chrono::milliseconds>(nextCpuCheck - Clock::now()).count();
            const int checkWait = static_cast<int>(std::max<long long>(1, untilCheck));
            wait = wait < 0 ? checkWait : std::min(wait, checkWait);
        }
        pollfd watched[2];
        nfds_t count = 0;
        if (outputOpen) watched[count++] = {output, POLLIN, 0};
        if (exited >= 0) watched[count++] = {exited, POLLIN, 0};
        if (poll(watched, count, wait) < 0 && errno != EINTR) break;
        for (nfds_t i = 0; i < count; ++i) {
            if (!watched[i].revents) continue;
            if (watched[i].fd == exited) {
                close(exited);
                exited = -1;
                continue;
            }
            char buffer[16384];
            ssize_t n = read(output, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                outputOpen = false;
                continue;
            }
            std::size_t room = limits.outputBytes == 0 ? static_cast<std::size_t>(n)
                               : result.output.size() >= limits.outputBytes ? 0
                                                                            : limits.outputBytes - result.output.size();
            std::size_t kept = room < static_cast<std::size_t>(n) ? room : static_cast<std::size_t>(n);
            result.output.append(buffer, kept);
            result.droppedBytes += static_cast<std::size_t>(n) - kept;
        }
    }
    if (exited >= 0) close(exited);
}

} // namespace

pid_t forkWaitable() {
    // clone() with no flags is fork() with an exit signal of 0 instead of SIGCHLD: the kernel
    // reaps a child at once only when its exit signal is SIGCHLD and SIGCHLD is ignored.
    return static_cast<pid_t>(syscall(SYS_clone, 0UL, nullptr, nullptr, nullptr, 0UL));
}

int waitChild(pid_t pid) {
    int status = 0;
    // __WALL: a child with an exit signal other than SIGCHLD is waited for only with it.
    while (waitpid(pid, &status, __WALL) < 0)
        if (errno != EINTR) return -1;
    return status;
}

std::string findProgram(const std::string& name) {
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
    std::string path = environment("PATH", "/usr/bin:/bin");
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string directory = path.substr(start, end - start);
        std::string candidate = (directory.empty() ? std::string(".") : directory) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory,
                         const ProcessLimits& limits, const std::vector<std::string>& environment) {
    ProcessResult result;
    if (argv.empty()) return result;
    // Everything the child needs is made before fork (see startChild).
    const std::string program = findProgram(argv[0]);
    std::vector<char*> args = pointersTo(argv);
    const std::vector<std::string> childEnvironment = environmentWith(environment);
    std::vector<char*> envp = pointersTo(childEnvironment);
    if (program.empty()) {
        result.output = "cannot run " + argv[0];
        return result;
    }
    // Confined, the child sees only what its view holds: it changes into an absolute path.
    std::string directory = workingDirectory;
    std::unique_ptr<Confinement> confinement;
    if (limits.files) {
        std::error_code noPath;
        directory = std::filesystem::absolute(workingDirectory.empty() ? "." : workingDirectory, noPath)
                        .lexically_normal()
                        .string();
        std::string error;
        confinement = Confinement::prepare(*limits.files, directory, &error);
        if (!confinement) {
            result.output = "cannot confine " + argv[0] + ": " + error;
            return result;
        }
    }
    Pipes pipes;
    if (!pipes.made()) {
        result.output = "cannot run " + argv[0] + ": cannot create a pipe: " + std::strerror(errno);
        return result;
    }
    // fork, not posix_spawn: resource limits and confinement can only be set up in the
    // child before exec.
    const pid_t parent = getpid();
    const pid_t pid = forkWaitable();
    if (pid == 0) {
        const ChildStart start{program.c_str(), args.data(), envp.data(),
                               directory.empty() ? nullptr : directory.c_str(), limits, confinement.get()};
        superviseChild(start, pipes, parent);
    }
    const int forkError = errno;
    pipes.closeChildEnds();
    if (pid < 0) {
        result.output = "cannot run " + argv[0] + ": cannot fork: " + std::strerror(forkError);
        return result;
    }
    // The child's own setpgid may not have run yet; either call makes the group, before
    // anything could need to kill it.
    setpgid(pid, pid);
    StartFailure failure;
    ssize_t failed;
    while ((failed = read(pipes.failure[0], &failure, sizeof failure)) < 0 && errno == EINTR) {
    }
    result.started = failed == 0; // closed by the successful exec
    if (result.started) collect(pid, pipes.output[0], limits, result);

    // The program's status, as the supervising child saw it; else (killed at the timeout)
    // the supervisor's own.
    int status = -1;
    const int supervisor = waitChild(pid);
    ssize_t reported;
    while ((reported = read(pipes.status[0], &status, sizeof status)) < 0 && errno == EINTR) {
    }
    if (reported != static_cast<ssize_t>(sizeof status)) status = supervisor;
    if (status >= 0 && WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (status >= 0 && WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    if (status < 0) result.output += "\n[cannot learn how " + argv[0] + " ended]\n";
    if (!result.started) {
        result.output = "cannot run " + argv[0];
        if (failed == static_cast<ssize_t>(sizeof failure) && failure.step)
            result.output += std::string(" (") + failure.step + ": " + std::strerror(failure.error) + ")";
    }
    return result;
}

std::string commandLine(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& arg : argv) {
        if (!line.empty()) line += ' ';
        bool plain = !arg.empty() && arg.find_first_of(" \t\"'\\$`") == std::string::npos;
        if (plain) {
            line += arg;
        } else {
            line += '\'';
            for (char c : arg) line += (c == '\'') ? std::string("'\\''") : std::string(1, c);
            line += '\'';
        }
    }
    return line;
}

} // namespace metalcpu::support
