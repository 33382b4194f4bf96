#include "support/log.h"

#include "log_capture.h"
#include "support/config.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/stdout_color_sinks.h>

#include <atomic>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

namespace metalcpu::support {
namespace {

using testing::LogCapture;

// Test that a host program's own spdlog logger named "metalcpu" does not make the library's
// log throw (spdlog refuses to register a name twice). ctest runs each test in a process of
// its own, so this is the first use of log() here.
TEST(Log, CoexistsWithTheHostsLoggerOfTheSameName) {
    auto hosts = spdlog::stderr_color_mt("metalcpu");
    EXPECT_NO_THROW(log().debug("logged beside the host's logger"));
    EXPECT_EQ(log().name(), "metalcpu");
    EXPECT_NE(&log(), hosts.get());
    spdlog::drop("metalcpu");
}

// Test that METALCPU_LOG_LEVEL's names are read in any case and with their common aliases,
// and that anything else is no level (METALCPU_LOG_LEVEL=WARN used to turn the log off).
TEST(Log, LevelNamesIgnoreCaseAndAcceptAliases) {
    const struct {
        const char* name;
        spdlog::level::level_enum level;
    } named[] = {{"trace", spdlog::level::trace}, {"DEBUG", spdlog::level::debug}, {"Info", spdlog::level::info},
                 {"warn", spdlog::level::warn},   {"WARN", spdlog::level::warn},   {"Warning", spdlog::level::warn},
                 {"err", spdlog::level::err},     {"ERROR", spdlog::level::err},   {"critical", spdlog::level::critical},
                 {"Fatal", spdlog::level::critical}, {"off", spdlog::level::off},  {"NONE", spdlog::level::off}};
    for (const auto& entry : named) EXPECT_EQ(logLevelNamed(entry.name), entry.level) << entry.name;
    for (const char* nothing : {"", "loud", "warnings", "3", " warn"}) EXPECT_EQ(logLevelNamed(nothing), std::nullopt) << nothing;
}

// Test that warnOnce() logs each message the first time only.
TEST(Log, WarnOnceWarnsOnce) {
    LogCapture captured;
    warnOnce("a first problem");
    warnOnce("a first problem");
    warnOnce("a second problem");
    EXPECT_EQ(captured.count("[warning] a first problem"), 1u) << captured.text();
    EXPECT_EQ(captured.count("[warning] a second problem"), 1u) << captured.text();
}

// Test that the configuration's problems are logged as warnings, each once however often
// they are asked for, and that a clean environment logs none.
TEST(Log, ConfigurationProblemsAreWarnedOnce) {
    LogCapture captured;
    setenv("METALCPU_THREADZ", "2", 1);
    reloadConfig();
    warnAboutConfiguration();
    warnAboutConfiguration();
    unsetenv("METALCPU_THREADZ");
    reloadConfig();
    warnAboutConfiguration();
    EXPECT_EQ(captured.count("[warning] METALCPU_THREADZ is not a variable metalcpu reads (did you mean "
                             "METALCPU_THREADS?)"),
              1u)
        << captured.text();
    EXPECT_EQ(captured.count("[warning]"), 1u) << captured.text();
}

/// The lines of `text` that are not one whole message of the threads of the test below, in
/// spdlog's default pattern; `next`, when given, counts each thread's lines and checks they
/// come in the order it logged them.
std::vector<std::string> brokenLines(const std::string& text, std::vector<int>* next = nullptr) {
    static const std::regex kWhole(R"(\[[^\]]+\] \[metalcpu\] \[warning\] thread (\d+) line (\d+) x{80})");
    std::vector<std::string> broken;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::smatch parts;
        bool whole = std::regex_match(line, parts, kWhole);
        if (whole && next) {
            const std::size_t thread = std::stoul(parts[1]);
            whole = thread < next->size() && std::stoi(parts[2]) == (*next)[thread]++;
        }
        if (!whole) broken.push_back(line);
    }
    return broken;
}

// Test that what several threads log arrives whole, once and in each thread's order, in a
// capture that lives throughout, while other captures come and go and are read meanwhile (a
// test's capture beside an earlier test's worker that still logs). Adding a capture used to
// change the logger's list of sinks while the threads read it.
TEST(Log, CapturesEveryLineWholeWhileThreadsLog) {
    constexpr int kThreads = 4;
    constexpr int kLines = 3000;
    const std::string padding(80, 'x');
    LogCapture whole;
    std::atomic<int> running = kThreads;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            // Beside stderr, so that the test's output stays readable.
            for (int i = 0; i < kLines; ++i)
                logExceptStderr(spdlog::level::warn,
                                "thread " + std::to_string(t) + " line " + std::to_string(i) + " " + padding);
            --running;
        });
    int captures = 0;
    std::vector<std::string> broken;
    while (running > 0 && broken.empty()) {
        LogCapture brief;
        std::this_thread::yield();
        broken = brokenLines(brief.text());
        ++captures;
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(broken, std::vector<std::string>{}) << "in one of " << captures << " brief captures";
    std::vector<int> next(kThreads, 0);
    EXPECT_EQ(brokenLines(whole.text(), &next), std::vector<std::string>{});
    EXPECT_EQ(next, std::vector<int>(kThreads, kLines));
}

} // namespace
} // namespace metalcpu::support
