#include "support/confinement.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <sys/stat.h>

namespace metalcpu::support {
namespace {

/// A private directory with a file the child may read and one it may not, and what running
/// `sh` needs.
class ConfinementTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = makeTemporaryDirectory("metalcpu-confinement-test-");
        ASSERT_TRUE(makeDirectories(dir_ + "/allowed") && makeDirectories(dir_ + "/scratch"));
        ASSERT_TRUE(writeFileAtomically(dir_ + "/allowed/file", "allowed\n"));
        ASSERT_TRUE(writeFileAtomically(dir_ + "/secret", "secret\n"));
        access_.readable = {"/usr", "/bin", "/lib", "/lib64", "/etc/ld.so.cache", dir_ + "/allowed"};
        access_.writable = {dir_ + "/scratch"};
    }
    void TearDown() override { removeTree(dir_); }

    ProcessResult confined(const std::string& script) {
        ProcessLimits limits;
        limits.files = access_;
        return runProcess({"sh", "-c", script}, dir_, limits);
    }

    std::string dir_;
    FileAccess access_;
};

// Test that a confined child reads and writes what it is allowed and nothing else: not a
// file beside its allowed ones, not /etc/passwd, not /proc/self/environ.
TEST_F(ConfinementTest, ChildReachesOnlyItsFiles) {
    const ConfinementSupport& support = confinementSupport();
    if (support.landlockAbi == 0 && !support.privateView)
        GTEST_SKIP() << "neither Landlock nor user namespaces here: compilers run unconfined (issue 9)";
    ProcessResult allowed = confined("cat allowed/file && echo made > scratch/new && cat scratch/new");
    ASSERT_TRUE(allowed.started) << allowed.output;
    EXPECT_EQ(allowed.exitCode, 0) << allowed.output;
    EXPECT_EQ(allowed.output, "allowed\nmade\n");
    for (const std::string& refused : {dir_ + "/secret", std::string("/etc/passwd"), std::string("/proc/self/environ")}) {
        ProcessResult read = confined("cat " + refused);
        EXPECT_NE(read.exitCode, 0) << refused << ": " << read.output;
        EXPECT_EQ(read.output.find("secret\n"), std::string::npos) << read.output;
        EXPECT_EQ(read.output.find("root:"), std::string::npos) << read.output;
    }
    for (const std::string& written : {dir_ + "/outside", dir_ + "/allowed/file"}) {
        ProcessResult write = confined("echo x > " + written);
        EXPECT_NE(write.exitCode, 0) << written;
    }
    EXPECT_FALSE(fileExists(dir_ + "/outside"));
    EXPECT_EQ(readFile(dir_ + "/allowed/file"), "allowed\n");
}

// Test that in the private view a file outside the allowed ones cannot even be told from a
// missing one, and that allowed paths reached through symbolic links resolve there as here.
TEST_F(ConfinementTest, PrivateViewHidesOtherFiles) {
    if (!confinementSupport().privateView)
        GTEST_SKIP() << "no user namespaces here: a confined compiler can learn whether a file exists (issue 9)";
    std::filesystem::create_directory_symlink(dir_ + "/allowed", dir_ + "/scratch/link");
    access_.readable.push_back(dir_ + "/scratch/link");
    ProcessResult probe = confined("for f in " + dir_ + "/secret /etc/passwd /etc/metalcpu-missing " + dir_ +
                                   "/missing; do test -e $f && echo exists || echo missing; done; cat scratch/link/file; pwd");
    EXPECT_EQ(probe.exitCode, 0) << probe.output;
    EXPECT_EQ(probe.output, "missing\nmissing\nmissing\nmissing\nallowed\n" + dir_ + "\n");
}

// Test that a program outside the allowed files does not run: confined, or not at all.
TEST_F(ConfinementTest, ProgramOutsideItsFilesDoesNotRun) {
    const ConfinementSupport& support = confinementSupport();
    if (support.landlockAbi == 0 && !support.privateView) GTEST_SKIP() << "no confinement here (issue 9)";
    access_.readable = {dir_ + "/allowed"}; // no /usr, /bin: the shell cannot be started
    ProcessResult result = confined("echo ran");
    EXPECT_FALSE(result.started);
    EXPECT_EQ(result.output.find("ran"), std::string::npos);
}

} // namespace
} // namespace metalcpu::support
