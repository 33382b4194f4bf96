// Concurrent run-time compiles: threads of one process and several processes share the
// cache directory, and every compile must succeed (docs/configuration.md, METALCPU_CACHE_DIR).
#include "jit/kernel_library.h"
#include "jit/library_cache.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

namespace metalcpu::jit {
namespace {

constexpr int kThreads = 8;

class LibraryCacheConcurrencyTest : public ::testing::Test {
protected:
    void SetUp() override { cacheDirectory_.emplace("METALCPU_CACHE_DIR", (scratch_.path() / "cache").string()); }
    void TearDown() override { cacheDirectory_.reset(); }
    testing::TemporaryDirectory scratch_;
    std::optional<testing::ScopedEnvironmentVariable> cacheDirectory_;
};

std::string sourceWithValue(int value) {
    return "kernel void k(device int* out [[buffer(0)]]) { out[0] = " + std::to_string(value) + "; }\n";
}

/// Builds `sources[i]` on thread i, all at once, and returns what each build said.
std::vector<SourceBuild> buildConcurrently(const std::vector<std::string>& sources) {
    std::vector<SourceBuild> builds(sources.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < sources.size(); ++i)
        threads.emplace_back([&, i] { builds[i] = buildLibraryFromSource(sources[i], {}); });
    for (std::thread& thread : threads) thread.join();
    return builds;
}

// Test that eight threads compiling eight new sources at once all succeed, each with its
// own kernel library.
TEST_F(LibraryCacheConcurrencyTest, ThreadsCompilingNewSources) {
    std::vector<std::string> sources;
    for (int i = 0; i < kThreads; ++i) sources.push_back(sourceWithValue(100 + i));
    std::vector<SourceBuild> builds = buildConcurrently(sources);
    for (int i = 0; i < kThreads; ++i) {
        ASSERT_TRUE(builds[i].ok) << "thread " << i << ": " << builds[i].diagnostics;
        ASSERT_NE(builds[i].library, nullptr) << "thread " << i;
        EXPECT_NE(builds[i].library->find("k"), nullptr);
    }
}

// Test that eight threads compiling the same new source at once all succeed.
TEST_F(LibraryCacheConcurrencyTest, ThreadsCompilingTheSameSource) {
    std::vector<SourceBuild> builds = buildConcurrently(std::vector<std::string>(kThreads, sourceWithValue(7)));
    for (int i = 0; i < kThreads; ++i) {
        ASSERT_TRUE(builds[i].ok) << "thread " << i << ": " << builds[i].diagnostics;
        ASSERT_NE(builds[i].library, nullptr) << "thread " << i;
        EXPECT_EQ(builds[i].libraryPath, builds[0].libraryPath);
    }
}

// Test that two processes compiling the same new source at once both succeed and compile it
// once: one compiles, the other waits for its compile lock (jit/compile_lock.h) and loads the
// library it put in the cache (the probe compiles one fixed source through the cache).
TEST_F(LibraryCacheConcurrencyTest, TwoProcessesAtOnce) {
    std::vector<support::ProcessResult> results(2);
    std::vector<std::thread> threads;
    for (support::ProcessResult& result : results)
        threads.emplace_back([&result] { result = support::runProcess({METALCPU_CACHE_PROBE}); });
    for (std::thread& thread : threads) thread.join();
    for (const support::ProcessResult& result : results) EXPECT_EQ(result.exitCode, 0) << result.output;
    // The probe's last line (before it, the log may say it is compiling, or waiting).
    std::multiset<std::string> said;
    for (const support::ProcessResult& result : results) {
        const std::string output = result.output.ends_with("\n") ? result.output.substr(0, result.output.size() - 1)
                                                                 : result.output;
        said.insert(output.substr(output.rfind('\n') + 1));
    }
    EXPECT_EQ(said, (std::multiset<std::string>{"compiled", "hit"}));
}

} // namespace
} // namespace metalcpu::jit
