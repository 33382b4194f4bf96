// The compile lock of a cache entry (jit/compile_lock.h): one holder at a time, the others
// waiting for it within their limit. A lock is taken per open file, so two CompileLocks of one
// process exclude each other as two processes' do.
#include "jit/compile_lock.h"

#include "scoped_state.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

namespace metalcpu::jit {
namespace {

using Clock = std::chrono::steady_clock;

// Test that a lock is taken at once when nobody holds it, and is held in `<entry>.compiling`;
// there was no wait, so the caller is not told of one.
TEST(CompileLock, TakenAtOnceWhenFree) {
    testing::TemporaryDirectory scratch;
    const std::string entry = (scratch.path() / "k.metallib").string();
    int waits = 0;
    const CompileLock lock(entry, std::chrono::seconds(0), [&] { ++waits; });
    EXPECT_TRUE(lock.held());
    EXPECT_EQ(waits, 0);
    EXPECT_TRUE(std::filesystem::exists(compileLockPath(entry)));
    EXPECT_EQ(compileLockPath(entry), entry + ".compiling");
}

// Test that a second taker waits while the first holds the lock and gets it once the first
// lets go (a compile waiting for another process's compile of the same library), and tells its
// caller once that it waits.
TEST(CompileLock, SecondTakerWaitsForTheFirst) {
    testing::TemporaryDirectory scratch;
    const std::string entry = (scratch.path() / "k.metallib").string();
    std::optional<CompileLock> first;
    first.emplace(entry, std::chrono::seconds(0));
    ASSERT_TRUE(first->held());
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        first.reset();
    });
    const Clock::time_point start = Clock::now();
    const CompileLock second(entry, std::chrono::seconds(0));
    const Clock::duration waited = Clock::now() - start;
    release.join();
    EXPECT_TRUE(second.held());
    EXPECT_GE(waited, std::chrono::milliseconds(250));
}

// Test that a taker gives up after its limit and goes on without the lock (a holder that is
// stopped must not stop every other compile of its library for good).
TEST(CompileLock, WaitEndsAtTheLimit) {
    testing::TemporaryDirectory scratch;
    const std::string entry = (scratch.path() / "k.metallib").string();
    const CompileLock first(entry, std::chrono::seconds(0));
    ASSERT_TRUE(first.held());
    const Clock::time_point start = Clock::now();
    const CompileLock second(entry, std::chrono::seconds(1));
    const Clock::duration waited = Clock::now() - start;
    EXPECT_FALSE(second.held());
    EXPECT_GE(waited, std::chrono::milliseconds(950));
    EXPECT_LT(waited, std::chrono::seconds(10));
}

// Test that a lock that cannot be made (no such directory) is done without, at once.
TEST(CompileLock, UnmakeableLockIsDoneWithout) {
    testing::TemporaryDirectory scratch;
    const CompileLock lock((scratch.path() / "missing/k.metallib").string(), std::chrono::seconds(0));
    EXPECT_FALSE(lock.held());
}

} // namespace
} // namespace metalcpu::jit
