// Scratch directories of compiles: a killed process's are removed by the next process that
// makes one, a live process's never (support/scratch_directories.h).
#include "support/scratch_directories.h"

#include "scoped_state.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace metalcpu::support {
namespace {

namespace fs = std::filesystem;

/// Each test has a temporary directory (TMPDIR) of its own.
class ScratchDirectories : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = makeTemporaryDirectory("scratch-directories-test-");
        ASSERT_FALSE(dir_.empty());
        temporary_.emplace("TMPDIR", dir_);
        // A process's first scratch directory sweeps the orphaned ones. Spent here, so that
        // the children orphanedBy() forks inherit it spent and leave each other's orphans for
        // the tests' own sweeps; under ctest each test is a process of its own, where the
        // second child would otherwise sweep the first child's directory.
        removeScratchDirectory(makeScratchDirectory("metalcpu-cc-"));
    }
    void TearDown() override {
        temporary_.reset();
        removeTree(dir_);
    }

    /// A scratch directory made by a child process that then ends by `signal` without
    /// removing it; its path.
    std::string orphanedBy(int signal) {
        int pipeEnds[2];
        if (pipe(pipeEnds) != 0) return {};
        const pid_t child = fork();
        if (child == 0) {
            const std::string path = makeScratchDirectory("metalcpu-cc-");
            (void)!write(pipeEnds[1], path.c_str(), path.size());
            close(pipeEnds[1]);
            raise(signal);
            _exit(0);
        }
        close(pipeEnds[1]);
        char buffer[4096];
        const ssize_t length = read(pipeEnds[0], buffer, sizeof buffer);
        close(pipeEnds[0]);
        int status = 0;
        waitpid(child, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << status;
        return length > 0 ? std::string(buffer, static_cast<std::size_t>(length)) : std::string();
    }

    std::string dir_;
    std::optional<testing::ScopedEnvironmentVariable> temporary_;
};

// Test that a scratch directory is made in TMPDIR with its locked `.owner`, survives a sweep
// while its process lives, and is removed, lock and all, by removeScratchDirectory().
TEST_F(ScratchDirectories, LiveOnesStay) {
    const std::string path = makeScratchDirectory("metalcpu-cc-");
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(dir_));
    EXPECT_TRUE(fs::exists(path + "/.owner"));
    EXPECT_EQ(removeOrphanedScratchDirectories(), 0);
    EXPECT_TRUE(fs::exists(path));
    removeScratchDirectory(path);
    EXPECT_FALSE(fs::exists(path));
}

// Test that the scratch directories of processes killed by SIGKILL and SIGTERM are removed by
// a sweep; directories without a `.owner` (another program's, or one being made) and other
// names are left alone. (ToolsTest.KilledToolLeavesNoCompilerRunning: the next process's
// first scratch directory sweeps.)
TEST_F(ScratchDirectories, KilledProcessesOnesAreRemoved) {
    const std::string killed = orphanedBy(SIGKILL), terminated = orphanedBy(SIGTERM);
    ASSERT_FALSE(killed.empty());
    ASSERT_FALSE(terminated.empty());
    ASSERT_TRUE(fs::exists(killed + "/.owner"));
    ASSERT_TRUE(makeDirectories(dir_ + "/metalcpu-cc-noowner"));
    ASSERT_TRUE(makeDirectories(dir_ + "/other-program"));
    ASSERT_TRUE(writeFileAtomically(dir_ + "/other-program/.owner", "x"));
    EXPECT_EQ(removeOrphanedScratchDirectories(), 2);
    EXPECT_FALSE(fs::exists(killed));
    EXPECT_FALSE(fs::exists(terminated));
    EXPECT_TRUE(fs::exists(dir_ + "/metalcpu-cc-noowner"));
    EXPECT_TRUE(fs::exists(dir_ + "/other-program/.owner"));
}

} // namespace
} // namespace metalcpu::support
