#include "support/process.h"

#include "support/config.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace metalcpu::support {
namespace {

/// The parts of a child's start that can fail, run between fork and exec. Only
/// async-signal-safe calls: the parent may have other threads, whose locks the child
/// inherits held.
[[noreturn]] void startChild(const char* program, char* const* args, char* const* environment,
                             const char* workingDirectory, int output, int failures, const ProcessLimits& limits) {
    setpgid(0, 0);
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
    int input = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (limited && input >= 0 && dup2(input, STDIN_FILENO) >= 0 && dup2(output, STDOUT_FILENO) >= 0 &&
        dup2(output, STDERR_FILENO) >= 0 && (!workingDirectory || chdir(workingDirectory) == 0) &&
        sigprocmask(SIG_SETMASK, &none, nullptr) == 0)
        execve(program, args, environment);
    int error = errno;
    ssize_t ignored = write(failures, &error, sizeof error);
    (void)ignored;
    _exit(127);
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

/// Reads the child's output until it is closed and the child has ended, or until the
/// deadline, when the child's whole process group is killed.
void collect(pid_t pid, int output, const ProcessLimits& limits, ProcessResult& result) {
    using Clock = std::chrono::steady_clock;
    const bool bounded = limits.timeoutSeconds > 0;
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(limits.timeoutSeconds);
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
    int outputFds[2], failureFds[2];
    if (program.empty()) {
        result.output = "cannot run " + argv[0];
        return result;
    }
    if (pipe2(outputFds, O_CLOEXEC) != 0) return result;
    if (pipe2(failureFds, O_CLOEXEC) != 0) {
        close(outputFds[0]);
        close(outputFds[1]);
        return result;
    }
    // fork, not posix_spawn: resource limits can only be set in the child before exec.
    pid_t pid = fork();
    if (pid == 0)
        startChild(program.c_str(), args.data(), envp.data(),
                   workingDirectory.empty() ? nullptr : workingDirectory.c_str(), outputFds[1], failureFds[1], limits);
    close(outputFds[1]);
    close(failureFds[1]);
    if (pid < 0) {
        close(outputFds[0]);
        close(failureFds[0]);
        return result;
    }
    // The child's own setpgid may not have run yet; either call makes the group, before
    // anything could need to kill it.
    setpgid(pid, pid);
    int childError = 0;
    ssize_t failed;
    while ((failed = read(failureFds[0], &childError, sizeof childError)) < 0 && errno == EINTR) {
    }
    close(failureFds[0]);
    result.started = failed == 0; // closed by the successful exec
    if (result.started) collect(pid, outputFds[0], limits, result);
    close(outputFds[0]);

    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    if (!result.started) result.output = "cannot run " + argv[0];
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
