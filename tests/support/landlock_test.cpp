#include "support/landlock.h"

#include <gtest/gtest.h>

#include <linux/landlock.h>
#include <unistd.h>

namespace metalcpu::support {
namespace {

// Test that each ABI handles the file-system rights it introduced and none of later ones.
TEST(Landlock, FileRightsGrowWithTheAbi) {
    const std::uint64_t first = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;
    EXPECT_EQ(landlockFileRights(1), first);
    EXPECT_EQ(landlockFileRights(2), first | LANDLOCK_ACCESS_FS_REFER);
    EXPECT_EQ(landlockFileRights(3), first | LANDLOCK_ACCESS_FS_REFER | kLandlockTruncate);
    EXPECT_EQ(landlockFileRights(4), landlockFileRights(3)); // ABI 4 added network rights only
    EXPECT_EQ(landlockFileRights(5), landlockFileRights(3) | kLandlockIoctlDevice);
    EXPECT_EQ(landlockFileRights(7), landlockFileRights(5));
}

// Test that the kernel takes a ruleset handling everything its ABI knows.
TEST(Landlock, KernelTakesTheFullRuleset) {
    const int abi = landlockAbi();
    if (abi == 0) GTEST_SKIP() << "no Landlock in this kernel: compilers and the device process go without it (issue 12)";
    std::string error;
    const int ruleset = makeLandlockRuleset(abi, &error);
    ASSERT_GE(ruleset, 0) << error;
    close(ruleset);
}

} // namespace
} // namespace metalcpu::support
