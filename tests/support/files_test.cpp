#include "support/files.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::support {
namespace {

/// A private scratch directory for one test.
class FilesTest : public ::testing::Test {
protected:
    void SetUp() override { dir_ = makeTemporaryDirectory("metalcpu-files-test-"); }
    void TearDown() override { removeTree(dir_); }
    std::string dir_;
};

// Test that a file written atomically reads back, and that what is not a readable file
// (missing, a directory) reads as nothing.
TEST_F(FilesTest, ReadsFilesOnly) {
    ASSERT_FALSE(dir_.empty());
    ASSERT_TRUE(writeFileAtomically(dir_ + "/a", "text"));
    EXPECT_EQ(readFile(dir_ + "/a"), "text");
    ASSERT_TRUE(writeFileAtomically(dir_ + "/empty", ""));
    EXPECT_EQ(readFile(dir_ + "/empty"), "");
    EXPECT_EQ(readFile(dir_ + "/missing"), std::nullopt);
    EXPECT_EQ(readFile(dir_), std::nullopt);
    EXPECT_EQ(readFile(dir_ + "/a/below-a-file"), std::nullopt);
}

// Test that paths that cannot be directories or files are reported with false, not thrown.
TEST_F(FilesTest, ImpossiblePathsAreFalse) {
    ASSERT_TRUE(writeFileAtomically(dir_ + "/file", "x"));
    const std::string tooLong = dir_ + "/" + std::string(300, 'x');
    EXPECT_TRUE(makeDirectories(dir_ + "/new/nested"));
    EXPECT_FALSE(makeDirectories(dir_ + "/file"));
    EXPECT_FALSE(makeDirectories(dir_ + "/file/below"));
    EXPECT_FALSE(makeDirectories(tooLong + "/below"));
    EXPECT_FALSE(makeDirectories(""));
    EXPECT_FALSE(writeFileAtomically(dir_ + "/file/below", "x"));
    EXPECT_FALSE(writeFileAtomically(tooLong, "x"));
    EXPECT_FALSE(writeFileAtomically(dir_ + "/missing/x", "x"));
    EXPECT_FALSE(fileExists(tooLong));
    removeTree(tooLong);
    removeTree(dir_ + "/missing");
    EXPECT_TRUE(fileExists(dir_ + "/file"));
}

} // namespace
} // namespace metalcpu::support
