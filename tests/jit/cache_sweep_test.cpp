// The unused-entry sweeps of the run-time cache (jit/cache_sweep.h): precompiled preludes,
// compiled libraries and other versions' standard libraries unused for the lifetime are
// removed, recent ones, the ones in use and the current standard library are kept, links are
// not followed, compiles in threads and processes that use a prelude while sweeps run all
// succeed, and a library a process loaded still runs its kernels once its entry is removed.
#include "jit/cache_sweep.h"

#include "jit/kernel_library.h"
#include "jit/library_cache.h"
#include "jit/toolchain.h"
#include "log_capture.h"
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace metalcpu::jit {
namespace {

namespace fs = std::filesystem;
using std::chrono::hours;

constexpr std::chrono::seconds kLifetime = std::chrono::hours(24 * 30);

/// Sets the time stamp of `path` (not following a link) to `age` ago.
void makeOld(const std::string& path, std::chrono::seconds age) {
    const auto when = std::chrono::system_clock::now() - age;
    const timespec stamp{std::chrono::system_clock::to_time_t(when), 0};
    const timespec stamps[2] = {stamp, stamp};
    ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), stamps, AT_SYMLINK_NOFOLLOW), 0) << path;
}

/// Writes `path` (and the directories to it), `age` old.
void writeOld(const std::string& path, std::chrono::seconds age) {
    ASSERT_TRUE(support::makeDirectories(fs::path(path).parent_path().string()));
    ASSERT_TRUE(support::writeFile(path, "entry"));
    makeOld(path, age);
}

class CacheSweepTest : public ::testing::Test {
protected:
    std::string path(const std::string& relative) const { return (scratch_.path() / relative).string(); }

    testing::TemporaryDirectory scratch_;
    testing::ScopedLogLevel debug_{spdlog::level::debug}; // where the sweeps' decisions are said
};

// Test that preludes and notes unused for longer than the lifetime are removed, and recent ones
// and files of other names kept; and that a zero lifetime removes nothing.
TEST_F(CacheSweepTest, RemovesPreludesUnusedForLong) {
    const std::string pch = path("pch");
    writeOld(pch + "/old.h.gch", hours(24 * 40));
    writeOld(pch + "/old.wanted", hours(24 * 31));
    writeOld(pch + "/recent.h.gch", hours(24 * 29));
    writeOld(pch + "/recent.wanted", hours(1));
    writeOld(pch + "/notes.txt", hours(24 * 400));

    removeUnusedPreludes(pch, std::chrono::seconds(0));
    EXPECT_TRUE(fs::exists(pch + "/old.h.gch")) << "a zero lifetime keeps everything";

    testing::LogCapture log;
    removeUnusedPreludes(pch, kLifetime);
    EXPECT_FALSE(fs::exists(pch + "/old.h.gch"));
    EXPECT_FALSE(fs::exists(pch + "/old.wanted"));
    EXPECT_TRUE(fs::exists(pch + "/recent.h.gch"));
    EXPECT_TRUE(fs::exists(pch + "/recent.wanted"));
    EXPECT_TRUE(fs::exists(pch + "/notes.txt")) << "not a prelude's";
    EXPECT_EQ(log.count("cache sweep: removed " + pch + "/old.h.gch, unused for 40 days"), 1u) << log.text();
    EXPECT_EQ(log.count("cache sweep: keeping 2 entries of " + pch + " used in the last 30 days"), 1u) << log.text();
}

// Test that a leased prelude (one a process is compiling with) is kept however old its time
// stamp, and removed once the lease is let go; and that taking a lease refreshes the stamp.
TEST_F(CacheSweepTest, KeepsALeasedPrelude) {
    const std::string file = path("pch/key.h.gch");
    writeOld(file, hours(24 * 40));
    std::shared_ptr<CacheLease> lease = CacheLease::take(file);
    ASSERT_NE(lease, nullptr);
    struct stat info {};
    ASSERT_EQ(stat(file.c_str(), &info), 0);
    EXPECT_LT(std::chrono::system_clock::now() - std::chrono::system_clock::from_time_t(info.st_mtime), hours(1))
        << "the lease says it was used now";

    makeOld(file, hours(24 * 40));
    testing::LogCapture log;
    removeUnusedPreludes(path("pch"), kLifetime);
    EXPECT_TRUE(fs::exists(file));
    EXPECT_EQ(log.count("cache sweep: keeping " + file + ": a process is using it"), 1u) << log.text();

    lease.reset();
    removeUnusedPreludes(path("pch"), kLifetime);
    EXPECT_FALSE(fs::exists(file));
}

// Test that there is no lease of a file that is missing, a link or a directory.
TEST_F(CacheSweepTest, NoLeaseOfWhatIsNotAFile) {
    writeOld(path("target.h.gch"), hours(1));
    fs::create_symlink(path("target.h.gch"), path("link.h.gch"));
    fs::create_directory(path("directory.h.gch"));
    EXPECT_EQ(CacheLease::take(path("missing.h.gch")), nullptr);
    EXPECT_EQ(CacheLease::take(path("link.h.gch")), nullptr);
    EXPECT_EQ(CacheLease::take(path("directory.h.gch")), nullptr);
    EXPECT_NE(CacheLease::take(path("target.h.gch")), nullptr);
}

// Test that compiled libraries (all three kinds of entry) unused for longer than the lifetime
// are removed, and recent ones, entries being written (staging names) and files of other
// names kept; a zero lifetime removes nothing; one being read (leased) is kept.
TEST_F(CacheSweepTest, RemovesLibrariesUnusedForLong) {
    const std::string kernels = path("kernels");
    writeOld(kernels + "/old.metallib", hours(24 * 40));
    writeOld(kernels + "/old.validation.metallib", hours(24 * 31));
    writeOld(kernels + "/old.specialised.metallib", hours(24 * 365));
    writeOld(kernels + "/recent.metallib", hours(24 * 29));
    writeOld(kernels + "/read.metallib", hours(24 * 90));
    writeOld(kernels + "/written.metallib.staging.Ab12Cd", hours(24 * 90));
    writeOld(kernels + "/notes.txt", hours(24 * 400));

    removeUnusedLibraries(kernels, std::chrono::seconds(0));
    EXPECT_TRUE(fs::exists(kernels + "/old.metallib")) << "a zero lifetime keeps everything";

    std::shared_ptr<CacheLease> reading = CacheLease::take(kernels + "/read.metallib");
    ASSERT_NE(reading, nullptr);
    makeOld(kernels + "/read.metallib", hours(24 * 90));
    testing::LogCapture log;
    removeUnusedLibraries(kernels, kLifetime);
    for (const char* removed : {"/old.metallib", "/old.validation.metallib", "/old.specialised.metallib"})
        EXPECT_FALSE(fs::exists(kernels + removed)) << removed;
    EXPECT_TRUE(fs::exists(kernels + "/recent.metallib"));
    EXPECT_TRUE(fs::exists(kernels + "/read.metallib")) << "a process is reading it";
    EXPECT_TRUE(fs::exists(kernels + "/written.metallib.staging.Ab12Cd")) << "the staging sweep's";
    EXPECT_TRUE(fs::exists(kernels + "/notes.txt")) << "not a library";
    EXPECT_EQ(log.count("cache sweep: removed " + kernels + "/old.specialised.metallib, unused for 365 days"), 1u)
        << log.text();
    EXPECT_EQ(log.count("cache sweep: keeping " + kernels + "/read.metallib: a process is using it"), 1u)
        << log.text();
    EXPECT_EQ(log.count("cache sweep: keeping 1 entries of " + kernels + " used in the last 30 days"), 1u)
        << log.text();
}

// Test that standard library directories of other versions unused for longer than the
// lifetime are removed with their preludes, and recent ones, the current one (however old),
// staging directories and other entries kept; nothing is left beside them.
TEST_F(CacheSweepTest, RemovesStandardLibrariesUnusedForLong) {
    const std::string root = path("cache");
    writeOld(root + "/stdlib-0.1.0-aaaa/complete", hours(24 * 45));
    writeOld(root + "/stdlib-0.1.0-aaaa/pch/key.h.gch", hours(1));
    writeOld(root + "/stdlib-0.2.0-bbbb/complete", hours(24 * 3));
    writeOld(root + "/stdlib-0.3.0-cccc/complete", hours(24 * 90));
    writeOld(root + "/stdlib-0.0.1-dddd.staging.abcdef/complete", hours(24 * 90));
    writeOld(root + "/kernels/library.metallib", hours(24 * 90));

    testing::LogCapture log;
    removeUnusedStandardLibraries(root, root + "/stdlib-0.3.0-cccc", kLifetime);
    EXPECT_FALSE(fs::exists(root + "/stdlib-0.1.0-aaaa"));
    EXPECT_TRUE(fs::exists(root + "/stdlib-0.2.0-bbbb/complete"));
    EXPECT_TRUE(fs::exists(root + "/stdlib-0.3.0-cccc/complete")) << "the one in use";
    EXPECT_TRUE(fs::exists(root + "/stdlib-0.0.1-dddd.staging.abcdef")) << "the staging sweep's";
    EXPECT_TRUE(fs::exists(root + "/kernels/library.metallib"));
    EXPECT_EQ(log.count("cache sweep: removed " + root + "/stdlib-0.1.0-aaaa (another metalcpu version"), 1u)
        << log.text();
    std::size_t entries = 0;
    for ([[maybe_unused]] const fs::directory_entry& entry : fs::directory_iterator(root)) ++entries;
    EXPECT_EQ(entries, 4u) << "nothing left of the one removed";
}

// Test that another version's standard library that a process holds (its toolchain's lease)
// is kept however old its stamp, and removed once let go.
TEST_F(CacheSweepTest, KeepsALeasedStandardLibrary) {
    const std::string root = path("cache"), other = root + "/stdlib-0.1.0-aaaa";
    writeOld(other + "/complete", hours(1));
    std::shared_ptr<CacheLease> lease = CacheLease::take(other + "/complete");
    ASSERT_NE(lease, nullptr);
    makeOld(other + "/complete", hours(24 * 45));
    testing::LogCapture log;
    removeUnusedStandardLibraries(root, root + "/stdlib-current", kLifetime);
    EXPECT_TRUE(fs::exists(other + "/complete"));
    EXPECT_EQ(log.count("cache sweep: keeping " + other + ": a process is using it"), 1u) << log.text();
    lease.reset();
    removeUnusedStandardLibraries(root, root + "/stdlib-current", kLifetime);
    EXPECT_FALSE(fs::exists(other));
}

// Test that the sweeps follow no symbolic link: a link named as a prelude or as a standard
// library directory is left alone, and so is everything it leads to, however old.
TEST_F(CacheSweepTest, FollowsNoLinks) {
    const std::string outside = path("outside"), root = path("cache");
    writeOld(outside + "/old.h.gch", hours(24 * 400));
    writeOld(outside + "/stdlib/complete", hours(24 * 400));
    writeOld(outside + "/stdlib/pch/key.h.gch", hours(24 * 400));
    writeOld(outside + "/old.metallib", hours(24 * 400));
    ASSERT_TRUE(support::makeDirectories(root + "/stdlib-current/pch"));
    ASSERT_TRUE(support::makeDirectories(root + "/kernels"));
    fs::create_symlink(outside + "/old.h.gch", root + "/stdlib-current/pch/link.h.gch");
    fs::create_symlink(outside + "/old.metallib", root + "/kernels/link.metallib");
    fs::create_symlink(outside + "/stdlib", root + "/stdlib-0.1.0-link");
    // A link inside a directory of the cache, to a directory outside holding an old stamp.
    ASSERT_TRUE(support::makeDirectories(root + "/stdlib-0.2.0-inner"));
    fs::create_symlink(outside + "/stdlib/complete", root + "/stdlib-0.2.0-inner/complete");

    testing::LogCapture log;
    removeUnusedStandardLibraries(root, root + "/stdlib-current", kLifetime);
    removeUnusedPreludes(root + "/stdlib-current/pch", kLifetime);
    removeUnusedLibraries(root + "/kernels", kLifetime);
    for (const char* file : {"/old.h.gch", "/stdlib/complete", "/stdlib/pch/key.h.gch", "/old.metallib"})
        EXPECT_TRUE(fs::exists(outside + file)) << file;
    EXPECT_TRUE(fs::is_symlink(root + "/stdlib-current/pch/link.h.gch"));
    EXPECT_TRUE(fs::is_symlink(root + "/kernels/link.metallib"));
    EXPECT_TRUE(fs::is_symlink(root + "/stdlib-0.1.0-link"));
    EXPECT_TRUE(fs::is_symlink(root + "/stdlib-0.2.0-inner/complete"));
    EXPECT_EQ(log.count("it is a symbolic link, not followed"), 4u) << log.text();
}

/// A cache of its own for each test, through METALCPU_CACHE_DIR.
class CacheSweepCompileTest : public CacheSweepTest {
protected:
    void SetUp() override { cacheDirectory_.emplace("METALCPU_CACHE_DIR", path("cache")); }
    static std::shared_ptr<const Toolchain> tools() {
        std::string error;
        std::shared_ptr<const Toolchain> made = toolchain(&error);
        EXPECT_NE(made, nullptr) << error;
        return made;
    }
    static std::string kernelSource(int value) {
        return "kernel void k(device int* out [[buffer(0)]]) { out[0] = " + std::to_string(value) + "; }\n";
    }
    static bool build(int value) {
        SourceBuild made = buildLibraryFromSource(kernelSource(value), {});
        EXPECT_TRUE(made.ok) << made.diagnostics;
        return made.ok && made.library && made.library->find("k") != nullptr;
    }
    static std::vector<std::string> preludes() {
        std::vector<std::string> files;
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(tools()->preludeDir, error))
            if (entry.path().string().ends_with(".h.gch")) files.push_back(entry.path().string());
        return files;
    }

    std::optional<testing::ScopedEnvironmentVariable> cacheDirectory_;
};

// Test that a process starting to use the cache sweeps it (here: the toolchain prepared again
// for the cache named anew): another version's stale standard library and a stale prelude
// go, and so does a stale compiled library; with METALCPU_CACHE_UNUSED_DAYS=0 nothing does.
TEST_F(CacheSweepCompileTest, AProcessStartingSweeps) {
    std::shared_ptr<const Toolchain> first = tools();
    ASSERT_NE(first, nullptr);
    const std::string stale = first->cacheRoot + "/stdlib-0.0.1-0123456789abcdef";
    const std::string prelude = first->preludeDir + "/0123.h.gch";
    const std::string library = first->kernelDir + "/0123.metallib";
    for (const char* days : {"0", "30"}) {
        SCOPED_TRACE(days);
        writeOld(stale + "/complete", hours(24 * 31));
        writeOld(prelude, hours(24 * 31));
        writeOld(library, hours(24 * 31));
        testing::ScopedEnvironmentVariable lifetime("METALCPU_CACHE_UNUSED_DAYS", days);
        {
            // Another name for the same cache: the toolchain is prepared again (and once more
            // under its own name after this scope).
            testing::ScopedEnvironmentVariable again("METALCPU_CACHE_DIR", path("cache/."));
            ASSERT_NE(tools(), nullptr);
        }
        ASSERT_NE(tools(), nullptr);
        EXPECT_EQ(fs::exists(stale), std::string(days) == "0");
        EXPECT_EQ(fs::exists(prelude), std::string(days) == "0");
        EXPECT_EQ(fs::exists(library), std::string(days) == "0");
    }
    EXPECT_TRUE(fs::exists(first->stdlibRoot + "/complete")) << "the one in use";
}

// Test that compiles in threads of this process and in other processes that use the
// precompiled prelude all succeed while sweeps that find it unused for months (its stamp
// made old again and again) run beside them: a leased one is kept, one removed between
// compiles is made again or done without.
TEST_F(CacheSweepCompileTest, CompilesUsingAPreludeWhileSweepsRun) {
    ASSERT_TRUE(build(1));
    ASSERT_TRUE(build(2));
    const std::vector<std::string> made = preludes();
    ASSERT_EQ(made.size(), 1u) << "the second compile makes it";
    const std::string pch = tools()->preludeDir;

    testing::LogCapture log;
    std::atomic<bool> compiling{true};
    std::thread sweeper([&] {
        while (compiling) {
            struct stat info {};
            if (lstat(made[0].c_str(), &info) == 0) makeOld(made[0], hours(24 * 60));
            removeUnusedPreludes(pch, kLifetime);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    constexpr int kThreads = 2, kCompiles = 3;
    std::atomic<int> built{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kCompiles; ++i) built += build(100 + t * kCompiles + i) ? 1 : 0;
        });
    support::ProcessResult probes[2];
    std::vector<std::thread> processes;
    for (int p = 0; p < 2; ++p)
        processes.emplace_back([&, p] {
            probes[p] = support::runProcess({METALCPU_CACHE_PROBE, "--value", std::to_string(200 + p)}, {}, {},
                                            {"METALCPU_LOG_LEVEL=debug"});
        });
    for (std::thread& thread : threads) thread.join();
    for (std::thread& process : processes) process.join();
    compiling = false;
    sweeper.join();

    EXPECT_EQ(built, kThreads * kCompiles);
    for (const support::ProcessResult& probe : probes) {
        EXPECT_EQ(probe.exitCode, 0) << probe.output;
        EXPECT_TRUE(probe.output.ends_with("compiled\n")) << probe.output;
        // Its own sweep at its start may have removed the prelude made old: then it made it.
        EXPECT_TRUE(probe.output.find("using the precompiled prelude " + made[0]) != std::string::npos ||
                    probe.output.find("made the precompiled prelude " + made[0]) != std::string::npos)
            << probe.output;
    }
    EXPECT_GE(log.count("using the precompiled prelude " + made[0]), 1u) << log.text();
    EXPECT_GE(log.count("cache sweep: keeping " + made[0] + ": a process is using it"), 1u) << log.text();
    // Not asserted: that no compile fell back to compiling without it. Under load GCC once
    // refused the prelude here as invalid ("one or more PCH files were found, but they were
    // invalid"), the compile was done again without it and succeeded (above); the cause is
    // not known yet (issue 14's note of 2026-11-29).
}

/// How long ago the time stamp of `path` says it was last used.
std::chrono::system_clock::duration sinceUse(const std::string& path) {
    struct stat info {};
    EXPECT_EQ(lstat(path.c_str(), &info), 0) << path;
    return std::chrono::system_clock::now() - std::chrono::system_clock::from_time_t(info.st_mtime);
}

// Test that loading a compiled library from the cache says it was used: a time stamp more
// than an hour old is set to now, so the sweep keeps the entry, while one less than an hour
// old is not written again (a busy cache writes each stamp once an hour at most).
TEST_F(CacheSweepCompileTest, LoadingALibraryRefreshesIt) {
    SourceBuild first = buildLibraryFromSource(kernelSource(7), {});
    ASSERT_TRUE(first.ok) << first.diagnostics;
    const std::string entry = first.libraryPath;

    makeOld(entry, std::chrono::minutes(30));
    ASSERT_TRUE(buildLibraryFromSource(kernelSource(7), {}).fromCache);
    EXPECT_GT(sinceUse(entry), std::chrono::minutes(29)) << "written again within the hour";

    makeOld(entry, hours(24 * 40));
    SourceBuild again = buildLibraryFromSource(kernelSource(7), {});
    ASSERT_TRUE(again.fromCache) << again.diagnostics;
    EXPECT_LT(sinceUse(entry), hours(1)) << "the load says it was used now";
    testing::LogCapture log;
    removeUnusedLibraries(tools()->kernelDir, kLifetime);
    EXPECT_TRUE(fs::exists(entry));
    EXPECT_EQ(log.count("cache sweep: removed"), 0u) << log.text();
}

/// Runs kernels through the public API with a cache of its own.
class CacheSweepRunTest : public testing::MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        cacheDirectory_.emplace("METALCPU_CACHE_DIR", (scratch_.path() / "cache").string());
    }
    void TearDown() override {
        cacheDirectory_.reset();
        MetalTest::TearDown();
    }
    /// The compiled libraries in the cache.
    std::vector<std::string> libraries() const {
        std::vector<std::string> files;
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(scratch_.path() / "cache/kernels", error))
            if (entry.path().string().ends_with(".metallib")) files.push_back(entry.path().string());
        return files;
    }

    testing::TemporaryDirectory scratch_;
    std::optional<testing::ScopedEnvironmentVariable> cacheDirectory_;
};

// Test that a library this process loaded from the cache still runs its kernel (a pipeline
// made anew, dispatched where command buffers run) once a sweep removed its entry: a loaded
// library lives in a memory file of its own, and so does a device process's copy. The next
// newLibrary(source) compiles it again.
TEST_F(CacheSweepRunTest, ALoadedLibraryRunsAfterItsEntryIsRemoved) {
    const std::string source = "kernel void k(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) "
                               "{ out[i] = int(i) * 3 + 1; }\n";
    std::vector<int> expected(13);
    for (int i = 0; i < 13; ++i) expected[i] = i * 3 + 1;
    MTL::Library* built = compile(source);
    ASSERT_NE(built, nullptr);
    built->release();
    MTL::Library* library = compile(source); // from the cache, as a later process would load it
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "k", 13), expected);

    const std::vector<std::string> entries = libraries();
    ASSERT_EQ(entries.size(), 1u);
    makeOld(entries[0], hours(24 * 40));
    removeUnusedLibraries((scratch_.path() / "cache/kernels").string(), kLifetime);
    ASSERT_FALSE(fs::exists(entries[0])) << "the sweep removed it";

    EXPECT_EQ(runIntKernel(library, "k", 13), expected) << "a new pipeline of the loaded library";
    library->release();
    MTL::Library* rebuilt = compile(source);
    ASSERT_NE(rebuilt, nullptr);
    EXPECT_EQ(runIntKernel(rebuilt, "k", 13), expected);
    rebuilt->release();
    EXPECT_TRUE(fs::exists(entries[0])) << "compiled again";
}

} // namespace
} // namespace metalcpu::jit
