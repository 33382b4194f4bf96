#include "support/log.h"

#include "log_capture.h"
#include "support/config.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>

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

} // namespace
} // namespace metalcpu::support
