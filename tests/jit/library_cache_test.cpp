#include "jit/library_cache.h"
#include "jit/kernel_library.h"
#include "scoped_state.h"
#include "support/config.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace metalcpu::jit {
namespace {

/// Points the cache at a fresh directory for one test, and back where it was afterwards.
class LibraryCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = support::makeTemporaryDirectory("metalcpu-cache-test-");
        cacheDirectory_.emplace("METALCPU_CACHE_DIR", directory_ + "/cache");
    }
    void TearDown() override {
        cacheDirectory_.reset();
        support::removeTree(directory_);
    }
    /// Changes METALCPU_CACHE_DIR again within the test (TearDown puts it back).
    static void setCacheDirectory(const std::string& value) {
        setenv("METALCPU_CACHE_DIR", value.c_str(), 1);
        support::reloadConfig();
    }
    std::string directory_;
    std::optional<testing::ScopedEnvironmentVariable> cacheDirectory_;
};

const char kSource[] = "kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n";

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

// Test that cache directories that cannot be used are errors with a reason, not exceptions
// or crashes, and that a good one afterwards works again.
TEST_F(LibraryCacheTest, UnusableCacheDirectoriesAreErrors) {
    ASSERT_TRUE(support::writeFileAtomically(directory_ + "/file", "not a directory\n"));
    const std::string unusable[] = {
        directory_ + "/file",                                 // a file
        directory_ + "/file/cache",                           // below a file
        directory_ + "/" + std::string(300, 'x') + "/cache",  // a name longer than NAME_MAX
        "/proc/self",                                         // a directory nothing can be written to
        "/proc/metalcpu-cache",                               // a place no directory can be made
    };
    for (const std::string& cache : unusable) {
        setCacheDirectory(cache);
        SourceBuild build;
        EXPECT_NO_THROW(build = buildLibraryFromSource(kSource, {})) << cache;
        EXPECT_FALSE(build.ok) << cache;
        EXPECT_NE(build.diagnostics.find("cannot"), std::string::npos) << cache << ": " << build.diagnostics;
    }
    setCacheDirectory(directory_ + "/cache");
    SourceBuild build = buildLibraryFromSource(kSource, {});
    EXPECT_TRUE(build.ok) << build.diagnostics;
}

// Test that a relative cache directory is taken from the working directory at the time, and
// works although kernels are compiled in another one.
TEST_F(LibraryCacheTest, RelativeCacheDirectory) {
    SourceBuild first, second;
    {
        testing::ScopedWorkingDirectory inside(directory_);
        setCacheDirectory("relative/cache");
        first = buildLibraryFromSource(kSource, {});
        second = buildLibraryFromSource(kSource, {});
    }
    ASSERT_TRUE(first.ok) << first.diagnostics;
    EXPECT_EQ(first.libraryPath.rfind(directory_ + "/relative/cache/", 0), 0u) << first.libraryPath;
    EXPECT_TRUE(second.fromCache);
}

// Test that a compiler that cannot be run is an error naming METALCPU_CXX, also when its path
// is one the file system refuses to look up.
TEST_F(LibraryCacheTest, UnusableCompilerIsAnError) {
    for (const std::string& compiler : {"/tmp/" + std::string(300, 'x') + "/g++", directory_ + "/no-such-c++",
                                        std::string("no-such-c++-in-path")}) {
        testing::ScopedEnvironmentVariable unusable("METALCPU_CXX", compiler);
        SourceBuild build;
        EXPECT_NO_THROW(build = buildLibraryFromSource(kSource, {})) << compiler;
        EXPECT_FALSE(build.ok) << compiler;
        EXPECT_NE(build.diagnostics.find("METALCPU_CXX"), std::string::npos) << build.diagnostics;
    }
    SourceBuild build = buildLibraryFromSource(kSource, {});
    EXPECT_TRUE(build.ok) << build.diagnostics;
}

} // namespace
} // namespace metalcpu::jit
