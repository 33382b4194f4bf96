#include "support/config.h"
#include "support/files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace metalcpu::support {
namespace {

// Test that docs/configuration.md has a row for every variable in config.def.
TEST(Config, EveryVariableIsDocumented) {
    std::string table = readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    ASSERT_FALSE(table.empty());
    int count = 0;
    const ConfigEntry* entries = configEntries(&count);
    ASSERT_GT(count, 0);
    for (int i = 0; i < count; ++i)
        EXPECT_NE(table.find(std::string("`") + entries[i].variable + "`"), std::string::npos)
            << entries[i].variable << " is missing from docs/configuration.md";
}

// Test that every METALCPU_ variable docs/configuration.md names is in config.def, the one
// list of what metalcpu reads.
TEST(Config, EveryDocumentedVariableIsListed) {
    std::string table = readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    int count = 0;
    const ConfigEntry* entries = configEntries(&count);
    std::size_t rows = 0;
    for (std::size_t at = table.find("\n| `METALCPU_"); at != std::string::npos; at = table.find("\n| `METALCPU_", at + 1)) {
        const std::size_t begin = at + 4, end = table.find('`', begin);
        const std::string variable = table.substr(begin, end - begin);
        bool listed = false;
        for (int i = 0; i < count; ++i) listed = listed || variable == entries[i].variable;
        EXPECT_TRUE(listed) << variable << " is documented but missing from src/support/config.def";
        ++rows;
    }
    EXPECT_GT(rows, 5u);
}

// Test that variables are read from the environment, with defaults when unset or malformed.
TEST(Config, ReadsTheEnvironment) {
    setenv("METALCPU_THREADS", "3", 1);
    setenv("METALCPU_SIMD_WIDTH", "not a number", 1);
    reloadConfig();
    EXPECT_EQ(config().threads, 3);
    EXPECT_EQ(config().simdWidth, 32);
    // Numbers that do not fit an int are malformed too.
    setenv("METALCPU_THREADS", "99999999999", 1);
    setenv("METALCPU_SIMD_WIDTH", "-99999999999999999999999", 1);
    reloadConfig();
    EXPECT_EQ(config().threads, 0);
    EXPECT_EQ(config().simdWidth, 32);
    unsetenv("METALCPU_THREADS");
    unsetenv("METALCPU_SIMD_WIDTH");
    reloadConfig();
    EXPECT_EQ(config().threads, 0);
    EXPECT_EQ(config().logLevel, "warn");
}

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Test that a METALCPU_ variable metalcpu does not read is a problem naming it, with the
// variable it most likely misspells; one that is read, or set empty, is none.
TEST(Config, UnknownVariablesAreProblems) {
    setenv("METALCPU_LOG_LEVLE", "debug", 1);
    setenv("METALCPU_NOT_A_SETTING", "1", 1);
    setenv("METALCPU_EMPTY_AND_HARMLESS", "", 1);
    setenv("METALCPU_THREADS", "2", 1);
    reloadConfig();
    const std::vector<std::string> problems = config().problems;
    unsetenv("METALCPU_LOG_LEVLE");
    unsetenv("METALCPU_NOT_A_SETTING");
    unsetenv("METALCPU_EMPTY_AND_HARMLESS");
    unsetenv("METALCPU_THREADS");
    reloadConfig();
    EXPECT_THAT(problems, Contains("METALCPU_LOG_LEVLE is not a variable metalcpu reads (did you mean "
                                   "METALCPU_LOG_LEVEL?); it is ignored (docs/configuration.md lists them)"));
    EXPECT_THAT(problems, Contains("METALCPU_NOT_A_SETTING is not a variable metalcpu reads; it is ignored "
                                   "(docs/configuration.md lists them)"));
    EXPECT_THAT(problems, Not(Contains(HasSubstr("METALCPU_EMPTY_AND_HARMLESS"))));
    EXPECT_THAT(problems, Not(Contains(HasSubstr("METALCPU_THREADS"))));
    EXPECT_THAT(config().problems, Not(Contains(HasSubstr("METALCPU_LOG_LEVLE")))) << "read again without it";
}

// Test that a value metalcpu cannot use is a problem that says what replaces it, and that
// log levels are read in any case and by their common aliases.
TEST(Config, UnusableValuesAreProblems) {
    setenv("METALCPU_THREADS", "many", 1);
    setenv("METALCPU_LOG_LEVEL", "loud", 1);
    reloadConfig();
    EXPECT_THAT(config().problems, Contains("METALCPU_THREADS=many is not a whole number; using 0"));
    EXPECT_THAT(config().problems, Contains("METALCPU_LOG_LEVEL=loud is not a log level (trace, debug, info, warn, "
                                            "error, critical, off); using warn"));
    EXPECT_EQ(config().logLevel, "warn");
    for (const char* level : {"WARN", "Warning", "err", "ERROR", "Off", "info"}) {
        setenv("METALCPU_LOG_LEVEL", level, 1);
        reloadConfig();
        EXPECT_THAT(config().problems, Not(Contains(HasSubstr("METALCPU_LOG_LEVEL")))) << level;
        EXPECT_EQ(config().logLevel, level);
    }
    unsetenv("METALCPU_THREADS");
    unsetenv("METALCPU_LOG_LEVEL");
    reloadConfig();
    EXPECT_THAT(config().problems, Not(Contains(HasSubstr("METALCPU_THREADS"))));
}

} // namespace
} // namespace metalcpu::support
