#pragma once

// The processes of this machine as /proc shows them, for tests that check that no compile
// process outlives the process that started it.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <functional>
#include <set>
#include <string>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace metalcpu::testing {

/// One process, from /proc/<pid>/stat.
struct ProcessEntry {
    pid_t pid = 0;
    pid_t parent = 0;
    pid_t group = 0;
    char state = '?';
    std::string command; ///< its comm: the executable's name, cut at 15 characters
    /// A zombie (or dying) process has ended; its new parent may just not have reaped it yet
    /// (in a container, an init that never reaps).
    bool running() const { return state != 'Z' && state != 'X'; }
};

/// Every process /proc shows now.
inline std::vector<ProcessEntry> listProcesses() {
    std::vector<ProcessEntry> processes;
    std::error_code error;
    for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        // read(), not a stream: a process that ends meanwhile fails the read (ESRCH), which a
        // stream would throw for.
        char buffer[1024];
        const int fd = open((entry->path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        const ssize_t n = read(fd, buffer, sizeof buffer - 1);
        close(fd);
        if (n <= 0) continue;
        const std::string text(buffer, static_cast<std::size_t>(n));
        // The command is in parentheses and may hold either; the fields after the last ')'.
        const std::size_t open = text.find('('), close = text.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        ProcessEntry process;
        process.pid = std::stoi(name);
        process.command = text.substr(open + 1, close - open - 1);
        int parent = 0, group = 0;
        if (std::sscanf(text.c_str() + close + 1, " %c %d %d", &process.state, &parent, &group) != 3) continue;
        process.parent = parent;
        process.group = group;
        processes.push_back(process);
    }
    return processes;
}

/// The processes still running in `groups`.
inline std::vector<ProcessEntry> runningInGroups(const std::set<pid_t>& groups) {
    std::vector<ProcessEntry> running;
    for (const ProcessEntry& process : listProcesses())
        if (groups.count(process.group) && process.running()) running.push_back(process);
    return running;
}

/// Polls until `done` holds or `seconds` have passed: a loaded machine may take long to
/// schedule the processes a test waits for. Whether it held.
inline bool eventually(const std::function<bool()>& done, int seconds = 60) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

/// Expects every process of `groups` to end within a generous deadline, and kills any left
/// (so that a failure leaves nothing running).
inline void expectGroupsEnd(const std::set<pid_t>& groups) {
    const bool ended = eventually([&] { return runningInGroups(groups).empty(); });
    std::string left;
    for (const ProcessEntry& process : runningInGroups(groups))
        left += " " + std::to_string(process.pid) + " (" + process.command + ", group " +
                std::to_string(process.group) + ")";
    EXPECT_TRUE(ended) << "still running:" << left;
    for (pid_t group : groups) kill(-group, SIGKILL);
}

} // namespace metalcpu::testing
