#include "jit/library_cache.h"
#include "jit/kernel_library.h"
#include "support/config.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <sys/stat.h>

namespace metalcpu::jit {
namespace {

/// Points the cache at a fresh directory for one test, and back where it was afterwards.
class LibraryCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* previous = std::getenv("METALCPU_CACHE_DIR");
        if (previous) previous_ = previous;
        directory_ = support::makeTemporaryDirectory("metalcpu-cache-test-");
        setenv("METALCPU_CACHE_DIR", (directory_ + "/cache").c_str(), 1);
        support::reloadConfig();
    }
    void TearDown() override {
        support::removeTree(directory_);
        if (previous_) setenv("METALCPU_CACHE_DIR", previous_->c_str(), 1);
        else unsetenv("METALCPU_CACHE_DIR");
        support::reloadConfig();
    }
    std::string directory_;
    std::optional<std::string> previous_;
};

// Test that a second process loading the same source hits the cache the first one filled.
TEST_F(LibraryCacheTest, SecondProcessHitsTheCache) {
    support::ProcessResult first = support::runProcess({METALCPU_CACHE_PROBE});
    ASSERT_EQ(first.exitCode, 0) << first.output;
    EXPECT_EQ(first.output, "compiled\n");
    support::ProcessResult second = support::runProcess({METALCPU_CACHE_PROBE});
    ASSERT_EQ(second.exitCode, 0) << second.output;
    EXPECT_EQ(second.output, "hit\n");
    struct stat info {};
    ASSERT_EQ(stat((directory_ + "/cache").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u) << "the cache directory must be private";
}

// Test that different settings are different cache entries, and a loaded entry has the kernel.
TEST_F(LibraryCacheTest, SettingsArePartOfTheKey) {
    const std::string source = "kernel void k(device int* out [[buffer(0)]]) { out[0] = VALUE; }\n";
    KernelCompileSettings one, two;
    one.macros = {"VALUE=1"};
    two.macros = {"VALUE=2"};
    SourceBuild first = buildLibraryFromSource(source, one);
    SourceBuild second = buildLibraryFromSource(source, two);
    ASSERT_TRUE(first.ok) << first.diagnostics;
    ASSERT_TRUE(second.ok) << second.diagnostics;
    EXPECT_NE(first.libraryPath, second.libraryPath);
    EXPECT_TRUE(buildLibraryFromSource(source, one).fromCache);
    std::string error;
    auto library = KernelLibrary::open(first.libraryPath, &error);
    ASSERT_NE(library, nullptr) << error;
    EXPECT_NE(library->find("k"), nullptr);
}

// Test that removing the cache directory while the process runs costs a recompile, not an
// error: the kernel standard library is written out again.
TEST_F(LibraryCacheTest, CacheRemovedWhileRunning) {
    const std::string source = "kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n";
    SourceBuild first = buildLibraryFromSource(source, {});
    ASSERT_TRUE(first.ok) << first.diagnostics;
    support::removeTree(directory_ + "/cache");
    SourceBuild second = buildLibraryFromSource(source, {});
    ASSERT_TRUE(second.ok) << second.diagnostics;
    EXPECT_FALSE(second.fromCache);
    EXPECT_TRUE(support::fileExists(second.libraryPath));
}

// Test that a failed compile is not cached and reports program_source locations.
TEST_F(LibraryCacheTest, FailuresAreNotCached) {
    SourceBuild build = buildLibraryFromSource("kernel void k(device int* out [[buffer(0)]]) { out[0] = oops; }\n", {});
    EXPECT_FALSE(build.ok);
    EXPECT_NE(build.diagnostics.find("program_source:1:"), std::string::npos) << build.diagnostics;
    EXPECT_FALSE(support::fileExists(build.libraryPath));
}

} // namespace
} // namespace metalcpu::jit
