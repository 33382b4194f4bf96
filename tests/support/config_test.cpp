#include "support/config.h"
#include "support/files.h"

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

} // namespace
} // namespace metalcpu::support
