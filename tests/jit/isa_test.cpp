// The instruction-set levels (jit/isa.h): which this CPU runs, METALCPU_KERNEL_ISA's ceiling,
// and the level a -march= in the kernel flags names.
#include "jit/isa.h"
#include "scoped_state.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace metalcpu::jit {
namespace {

using testing::ScopedEnvironmentVariable;

// Test that the baseline always runs, that the host's level is the best level the CPU
// runs, and that a level nobody knows never runs.
TEST(Isa, TheBaselineRunsAndTheHostLevelIsTheBest) {
    ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
    const std::vector<std::string>& levels = knownLevels();
    EXPECT_EQ(levels.front(), baselineLevel());
    EXPECT_TRUE(cpuRuns(baselineLevel()));
    const auto host = std::find(levels.begin(), levels.end(), hostLevel());
    ASSERT_NE(host, levels.end()) << hostLevel();
    EXPECT_TRUE(cpuRuns(*host));
    for (auto above = host + 1; above != levels.end(); ++above) EXPECT_FALSE(cpuRuns(*above)) << *above;
    EXPECT_FALSE(cpuRuns("x86-64-v9"));
    EXPECT_FALSE(cpuRuns(""));
    for (const std::string& level : defaultLevels())
        EXPECT_NE(std::find(levels.begin(), levels.end(), level), levels.end()) << level;
    EXPECT_EQ(defaultLevels().front(), baselineLevel());
}

// Test that METALCPU_KERNEL_ISA caps the levels that run, never raises them, and that a
// value naming no level leaves the baseline.
TEST(Isa, TheCeilingCapsTheLevels) {
    {
        ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", baselineLevel());
        EXPECT_EQ(hostLevel(), baselineLevel());
        for (const std::string& level : knownLevels()) EXPECT_EQ(cpuRuns(level), level == baselineLevel()) << level;
    }
    std::string best;
    {
        ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
        best = hostLevel();
    }
    {
        ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", knownLevels().back());
        EXPECT_EQ(hostLevel(), best) << "the ceiling cannot raise the level above the CPU's";
    }
    {
        ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", "pentium4");
        EXPECT_EQ(hostLevel(), baselineLevel());
    }
}

// Test that the level of a compile with METALCPU_KERNEL_FLAGS is its last -march= or -mcpu=,
// and that native or a CPU's name is this machine's level.
TEST(Isa, LevelsInFlags) {
    ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
    EXPECT_EQ(levelInFlags({"-O3", "-g"}), "");
    EXPECT_EQ(levelInFlags({"-march=" + knownLevels().back(), "-march=" + baselineLevel()}), baselineLevel());
    EXPECT_EQ(levelInFlags({"-mcpu=" + baselineLevel()}), baselineLevel());
    EXPECT_EQ(levelInFlags({"-march=native"}), hostLevel());
    EXPECT_EQ(levelInFlags({"-march=znver3"}), hostLevel());
    EXPECT_EQ(levelFlags(baselineLevel(), false), std::vector<std::string>{"-march=" + baselineLevel()});
    EXPECT_EQ(levelFlags(baselineLevel(), true), (std::vector<std::string>{"-march=" + baselineLevel(), "-mtune=native"}));
    EXPECT_EQ(hostTarget().rfind(hostLevel() + " tuned for ", 0), 0u) << hostTarget();
}

} // namespace
} // namespace metalcpu::jit
