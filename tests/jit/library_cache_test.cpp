#include "jit/library_cache.h"
#include "jit/isa.h"
#include "jit/library_file.h"
#include "jit/specialisation.h"
#include "jit/kernel_library.h"
#include "log_capture.h"
#include "scoped_state.h"
#include "support/config.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>
#include <sys/resource.h>
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

/// The cache probe's environment where a test compares its whole output: the warning of a
/// first compile that is slow (this machine's is) is not what those tests are about.
const std::vector<std::string> kProbeQuiet = {"METALCPU_LOG_LEVEL=error"};

/// The slow-compile delay for one test, and one second again afterwards.
class ScopedSlowCompileDelay {
public:
    explicit ScopedSlowCompileDelay(std::chrono::milliseconds delay) { setSlowCompileDelay(delay); }
    ~ScopedSlowCompileDelay() { setSlowCompileDelay(std::chrono::seconds(1)); }
    ScopedSlowCompileDelay(const ScopedSlowCompileDelay&) = delete;
    ScopedSlowCompileDelay& operator=(const ScopedSlowCompileDelay&) = delete;
};

const char kCompilingNotice[] = "[warning] compiling the kernels of newLibrary(source); a first run compiles each "
                                "library once, later runs load it from the kernel cache in ";

// Test that a compile that outlasts the delay warns that it is compiling, once, naming the
// cache, and that loading it from the cache afterwards says nothing.
TEST_F(LibraryCacheTest, SlowCompileSaysItIsCompiling) {
    ScopedSlowCompileDelay immediately(std::chrono::milliseconds(0));
    testing::LogCapture log;
    ASSERT_TRUE(buildLibraryFromSource(kSource, {}).ok);
    EXPECT_EQ(log.count(std::string(kCompilingNotice) + directory_ + "/cache/kernels\n"), 1u) << log.text();
    SourceBuild cached = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(cached.ok);
    EXPECT_TRUE(cached.fromCache);
    EXPECT_EQ(log.count("[warning] compiling"), 1u) << "a cached library is not compiled: " << log.text();
}

// Test that a compile within the delay says nothing.
TEST_F(LibraryCacheTest, QuickCompileSaysNothing) {
    ScopedSlowCompileDelay anHour(std::chrono::hours(1));
    testing::LogCapture log;
    SourceBuild build = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(build.ok);
    EXPECT_FALSE(build.fromCache);
    EXPECT_EQ(log.count("compiling"), 0u) << log.text();
}

// Test that a second process loading the same source hits the cache the first one filled.
TEST_F(LibraryCacheTest, SecondProcessHitsTheCache) {
    support::ProcessResult first = support::runProcess({METALCPU_CACHE_PROBE}, {}, {}, kProbeQuiet);
    ASSERT_EQ(first.exitCode, 0) << first.output;
    EXPECT_EQ(first.output, "compiled\n");
    support::ProcessResult second = support::runProcess({METALCPU_CACHE_PROBE}, {}, {}, kProbeQuiet);
    ASSERT_EQ(second.exitCode, 0) << second.output;
    EXPECT_EQ(second.output, "hit\n");
    struct stat info {};
    ASSERT_EQ(stat((directory_ + "/cache").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u) << "the cache directory must be private";
}

// Test that a process whose own address-space limit is below METALCPU_COMPILE_MEMORY_LIMIT
// still compiles: its compilers get its limit (only root may raise one).
TEST_F(LibraryCacheTest, CompilesUnderALowerLimitOfItsOwn) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "issue 9: an AddressSanitizer build reserves terabytes of address space at start, so the "
                    "probe cannot start under any ulimit -v";
#endif
    support::ProcessResult probe = support::runProcess(
        {"sh", "-c", std::string("ulimit -v 3000000 && exec ") + METALCPU_CACHE_PROBE}, {}, {}, kProbeQuiet);
    EXPECT_EQ(probe.exitCode, 0) << probe.output;
    EXPECT_EQ(probe.output, "compiled\n");
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

// Test that a pipeline specialised with function constants compiles only its kernel and what it
// reaches: its library holds that kernel alone (the other's code, and the helper only the other
// reaches, are not compiled again), with the helper both reach and the program-scope constants.
// It carries no text (issue 10: each carried the whole file's instrumented text, 6.4 MB per
// pipeline for ggml), not a word of the code only the other kernel reaches, and its
// shader-validation flavour, made from the parent's twin, holds its kernel alone too.
TEST_F(LibraryCacheTest, SpecialisedLibrariesHoldTheirKernelOnly) {
    const std::string source = "constant int n [[function_constant(0)]];\n"
                               "constant int twice = n * 2;\n"
                               "int shared(int x) { return x + twice; }\n"
                               "int only_other(int x) { return x - n; }\n"
                               "kernel void k(device int* out [[buffer(0)]]) { out[0] = shared(n); }\n"
                               "kernel void other(device int* out [[buffer(0)]]) { out[0] = only_other(shared(1)); }\n";
    SourceBuild whole = buildLibraryFromSource(source, {});
    ASSERT_TRUE(whole.ok) << whole.diagnostics;
    ConstantValues values;
    values.byIndex[0] = ConstantValue{29, std::vector<std::byte>(4, std::byte{1})};
    for (const char* kernel : {"k", "other"}) {
        std::string error;
        std::shared_ptr<KernelLibrary> specialised = whole.library->specialise(kernel, values, &error);
        ASSERT_NE(specialised, nullptr) << error;
        EXPECT_EQ(specialised->kernelNames(), std::vector<std::string>{kernel});
        EXPECT_NE(specialised->find(kernel), nullptr);
        const std::string bytes = support::readFile(specialised->path()).value_or("");
        ASSERT_FALSE(bytes.empty());
        EXPECT_EQ(bytes.find("METALCPU_VALIDATION"), std::string::npos) << kernel << " carries a text";
        std::shared_ptr<KernelLibrary> validation = specialised->validationFlavour(&error);
        ASSERT_NE(validation, nullptr) << error;
        EXPECT_EQ(validation->kernelNames(), std::vector<std::string>{kernel});
        EXPECT_NE(specialised->validationKernel(kernel, &error), nullptr) << error;
        if (std::string(kernel) != "k") continue;
        EXPECT_EQ(bytes.find("only_other"), std::string::npos) << "k's library carries the other kernel's code";
        // Nor its name, as a user of the function constant (METALCPU_KERNEL_USER).
        EXPECT_EQ(bytes.find(std::string("\0other\0", 7)), std::string::npos) << "k's library names the other kernel";
        EXPECT_EQ(support::readFile(validation->path()).value_or("only_other").find("only_other"), std::string::npos);
    }
}

// Test that a kernel's validated flavour compiles that kernel alone (issue 10): `good`'s holds
// `good`, none of the other kernels, and not the helper only `bad` reaches, whose instrumented
// form g++ rejects, so no message names `bad`; each kernel's flavour has an entry of its own;
// asking again compiles nothing, and a library made again of the same source finds the flavour
// in the cache. `bad`'s own request fails naming it, and costs `other` nothing.
TEST_F(LibraryCacheTest, ValidatedKernelsCompileTheirOwnFlavour) {
    const std::string source = R"(#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
void only_bad(device float* out) {
    static_assert(raw<decltype(out)>::value == 1, "a raw pointer");
    out[0] = 1.0f;
}
kernel void bad(device float* out [[buffer(0)]]) { only_bad(out); }
kernel void good(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 2.0f; }
kernel void other(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 3.0f; }
)";
    const std::string compiled = "compiled the shader-validation flavour";
    ScopedSlowCompileDelay immediately(std::chrono::milliseconds(0)); // every compile says what it compiles
    testing::ScopedLogLevel debug(spdlog::level::debug);
    std::optional<testing::LogCapture> log(std::in_place);
    SourceBuild plain = buildLibraryFromSource(source, {});
    ASSERT_TRUE(plain.ok) << plain.diagnostics;
    std::string error;
    const mc_kernel* good = plain.library->validationKernel("good", &error);
    ASSERT_NE(good, nullptr) << error;
    std::shared_ptr<KernelLibrary> flavour = plain.library->holderOf(good);
    ASSERT_NE(flavour, nullptr);
    EXPECT_NE(flavour, plain.library);
    EXPECT_EQ(flavour->kernelNames(), std::vector<std::string>{"good"});
    EXPECT_EQ(log->count(compiled), 1u) << log->text();
    // Named as a kernel or as its helper: a bare "bad" may be part of a hexadecimal cache path.
    EXPECT_EQ(log->text().find("kernel bad"), std::string::npos) << log->text();
    EXPECT_EQ(log->text().find("only_bad"), std::string::npos) << log->text();
    EXPECT_EQ(log->text().find("a raw pointer"), std::string::npos) << "bad's code was compiled: " << log->text();
    EXPECT_EQ(log->count("compiling the shader-validation flavour of a library"), 0u) << log->text();
    EXPECT_EQ(log->count("compiling the shader-validation flavour of kernel good"), 1u) << log->text();
    EXPECT_EQ(plain.library->validationKernel("good", &error), good);
    EXPECT_EQ(log->count(compiled), 1u) << "asked again, compiled again";

    EXPECT_EQ(plain.library->validationKernel("bad", &error), nullptr);
    EXPECT_NE(error.find("shader validation cannot instrument kernel 'bad': its code at program_source:"),
              std::string::npos)
        << error;
    const mc_kernel* other = plain.library->validationKernel("other", &error);
    ASSERT_NE(other, nullptr) << error;
    EXPECT_EQ(plain.library->holderOf(other)->kernelNames(), std::vector<std::string>{"other"});
    const std::string goodPath = flavour->path();
    EXPECT_NE(plain.library->holderOf(other)->path(), goodPath);

    flavour.reset();
    plain = {};
    log.emplace();
    SourceBuild again = buildLibraryFromSource(source, {});
    ASSERT_TRUE(again.ok) << again.diagnostics;
    EXPECT_TRUE(again.fromCache);
    good = again.library->validationKernel("good", &error);
    ASSERT_NE(good, nullptr) << error;
    EXPECT_EQ(again.library->holderOf(good)->path(), goodPath);
    EXPECT_EQ(log->count(compiled), 0u) << log->text();
}

// Test that kernels compiled at run time are compiled for the host's level, which is part of
// the cache key: a cache shared with a machine of another level (here one METALCPU_KERNEL_ISA
// makes) keeps an entry for each, each of one image of its level.
TEST_F(LibraryCacheTest, TheHostLevelIsPartOfTheKey) {
    const auto levelOf = [](const std::string& path) {
        std::vector<LibraryImage> images;
        EXPECT_EQ(checkLibraryFile(support::readFile(path).value_or(""), {}, &images), "");
        return images.size() == 1 ? images[0].level : "images: " + std::to_string(images.size());
    };
    testing::ScopedEnvironmentVariable flags("METALCPU_KERNEL_FLAGS", std::nullopt);
    SourceBuild best, baseline;
    {
        testing::ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
        best = buildLibraryFromSource(kSource, {});
        ASSERT_TRUE(best.ok) << best.diagnostics;
        EXPECT_EQ(levelOf(best.libraryPath), hostLevel());
    }
    {
        testing::ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", baselineLevel());
        baseline = buildLibraryFromSource(kSource, {});
        ASSERT_TRUE(baseline.ok) << baseline.diagnostics;
        EXPECT_EQ(levelOf(baseline.libraryPath), baselineLevel());
        EXPECT_TRUE(buildLibraryFromSource(kSource, {}).fromCache);
    }
    if (levelOf(best.libraryPath) == baselineLevel()) GTEST_SKIP() << "this CPU runs the baseline only (issue 14)";
    EXPECT_NE(best.libraryPath, baseline.libraryPath);
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

/// One way a cache entry can be damaged: `damage` does it to the entry at `path`, given a
/// sound library for another source at `other`.
struct Damage {
    const char* name;
    std::function<void(const std::string& path, const std::string& other)> damage;
};

std::string bytesOf(const std::string& path) { return support::readFile(path).value_or(""); }
void rewrite(const std::string& path, const std::string& bytes) {
    std::filesystem::remove(path);
    ASSERT_TRUE(support::writeFileAtomically(path, bytes));
}

const Damage kDamages[] = {
    {"truncated", [](const std::string& p, const std::string&) { rewrite(p, bytesOf(p).substr(0, 5000)); }},
    {"truncated by a byte", [](const std::string& p, const std::string&) { std::filesystem::resize_file(p, std::filesystem::file_size(p) - 1); }},
    {"zero-length", [](const std::string& p, const std::string&) { rewrite(p, ""); }},
    {"bit-flipped",
     [](const std::string& p, const std::string&) {
         std::string bytes = bytesOf(p);
         bytes[bytes.size() / 3] ^= 0x04;
         rewrite(p, bytes);
     }},
    {"a shared object of another kind",
     [](const std::string& p, const std::string&) { rewrite(p, bytesOf(support::findProgram("sh"))); }},
    {"planted: a sound library of another source", [](const std::string& p, const std::string& o) { rewrite(p, bytesOf(o)); }},
    {"a symbolic link to a sound library", [](const std::string& p, const std::string& o) {
         std::filesystem::remove(p);
         std::filesystem::create_symlink(o, p);
     }},
    {"writable by its group", [](const std::string& p, const std::string&) { chmod(p.c_str(), 0660); }},
    {"a directory", [](const std::string& p, const std::string&) {
         std::filesystem::remove(p);
         std::filesystem::create_directory(p);
     }},
    {"a directory with files and a link in it", [](const std::string& p, const std::string& o) {
         std::filesystem::remove(p);
         std::filesystem::create_directories(p + "/inner");
         ASSERT_TRUE(support::writeFileAtomically(p + "/inner/file", "x"));
         std::filesystem::create_symlink(std::filesystem::path(o).parent_path(), p + "/inner/link");
     }},
};

// Test that a damaged cache entry is never loaded but rebuilt, and the rebuilt library is
// the right one and sound. (A truncated entry used to fault inside dlopen; a planted one
// was loaded.)
TEST_F(LibraryCacheTest, DamagedEntriesAreRebuilt) {
    const SourceBuild other = buildLibraryFromSource("kernel void planted(device int* o [[buffer(0)]]) { o[0] = 2; }\n", {});
    ASSERT_TRUE(other.ok) << other.diagnostics;
    for (const Damage& damage : kDamages) {
        SCOPED_TRACE(damage.name);
        const SourceBuild first = buildLibraryFromSource(kSource, {});
        ASSERT_TRUE(first.ok) << first.diagnostics;
        damage.damage(first.libraryPath, other.libraryPath);
        const SourceBuild again = buildLibraryFromSource(kSource, {});
        ASSERT_TRUE(again.ok) << again.diagnostics;
        EXPECT_FALSE(again.fromCache);
        ASSERT_NE(again.library, nullptr);
        EXPECT_NE(again.library->find("k"), nullptr);
        EXPECT_EQ(again.library->find("planted"), nullptr);
        struct stat info {};
        ASSERT_EQ(lstat(again.libraryPath.c_str(), &info), 0);
        EXPECT_TRUE(S_ISREG(info.st_mode));
        EXPECT_EQ(info.st_mode & 0777, 0600u);
        EXPECT_TRUE(buildLibraryFromSource(kSource, {}).fromCache) << "the rebuilt entry is used";
    }
    EXPECT_TRUE(buildLibraryFromSource("kernel void planted(device int* o [[buffer(0)]]) { o[0] = 2; }\n", {}).fromCache)
        << "the library the links pointed to is untouched";
}

// Test that a sound cache entry that cannot be read for want of descriptors stays in the
// cache, and the error says why (it used to be deleted as damaged, and the rebuild then
// failed with a misleading "cannot run" the compiler).
TEST_F(LibraryCacheTest, TemporaryFailuresKeepSoundEntries) {
    const SourceBuild first = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(first.ok) << first.diagnostics;
    const std::string entry = first.libraryPath;
    const std::string bytes = support::readFile(entry).value_or("");
    SourceBuild starved;
    {
        // The two lowest free descriptors (there may be descriptors in use between them) are
        // the last ones allowed: the entry's lease (jit/cache_sweep.h) and the entry open,
        // the memory file it is copied into cannot.
        const int lowest = dup(0), next = dup(0);
        close(lowest);
        close(next);
        rlimit old{};
        ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
        rlimit starving = old;
        starving.rlim_cur = static_cast<rlim_t>(next + 1);
        ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &starving), 0);
        starved = buildLibraryFromSource(kSource, {});
        setrlimit(RLIMIT_NOFILE, &old);
    }
    EXPECT_FALSE(starved.ok);
    EXPECT_NE(starved.diagnostics.find("cannot create a memory file"), std::string::npos) << starved.diagnostics;
    EXPECT_NE(starved.diagnostics.find("Too many open files"), std::string::npos) << starved.diagnostics;
    EXPECT_EQ(support::readFile(entry), bytes) << "the sound entry was removed or changed";
    const SourceBuild again = buildLibraryFromSource(kSource, {});
    EXPECT_TRUE(again.ok) << again.diagnostics;
    EXPECT_TRUE(again.fromCache);
}

// Test that many live libraries of one source are one load: no descriptor each (1018 of
// them used to exhaust the descriptors of a process with the usual limit of 1024).
TEST_F(LibraryCacheTest, LiveLibrariesOfOneSourceAreOneLoad) {
    std::vector<SourceBuild> builds(1, buildLibraryFromSource(kSource, {}));
    ASSERT_TRUE(builds[0].ok) << builds[0].diagnostics;
    const auto descriptors = [] {
        return std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator());
    };
    const auto before = descriptors();
    for (int i = 0; i < 100; ++i) builds.push_back(buildLibraryFromSource(kSource, {}));
    EXPECT_EQ(descriptors(), before);
    for (const SourceBuild& build : builds) {
        EXPECT_TRUE(build.ok);
        EXPECT_EQ(build.library, builds[0].library);
    }
}

// Test that staging files and directories that killed writers left in the cache are removed
// when a process starts using it, once they are old, and nothing else is.
TEST_F(LibraryCacheTest, StaleStagingIsRemoved) {
    ASSERT_TRUE(buildLibraryFromSource(kSource, {}).ok);
    const std::string cache = directory_ + "/cache", kernels = cache + "/kernels";
    const std::string stale[] = {kernels + "/0123.metallib.staging.AbCdEf", kernels + "/0123.metallib.staging.tmp.XyZ123",
                                 cache + "/stdlib-0-0123.staging.QwErTy"};
    const std::string kept[] = {kernels + "/4567.metallib.staging.Fresh1", kernels + "/89ab.metallib"};
    ASSERT_TRUE(support::writeFileAtomically(stale[0], "x") && support::writeFileAtomically(stale[1], "x"));
    ASSERT_TRUE(support::makeDirectories(stale[2] + "/include"));
    ASSERT_TRUE(support::writeFileAtomically(stale[2] + "/include/metal_stdlib", "x"));
    for (const std::string& path : kept) ASSERT_TRUE(support::writeFileAtomically(path, "x"));
    // Older than the default lifetime: twice the longest wall time of a validation flavour's
    // compile of a source at METALCPU_COMPILE_SOURCE_LIMIT (2 · 10 · 3 · 120 s · 64 blocks, 5.3 days).
    const timespec aWeekAgo[2] = {{time(nullptr) - 7 * 86400, 0}, {time(nullptr) - 7 * 86400, 0}};
    for (const std::string& path : {stale[0], stale[1], stale[2], kept[1]})
        ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), aWeekAgo, AT_SYMLINK_NOFOLLOW), 0) << path;
    support::ProcessResult probe = support::runProcess({METALCPU_CACHE_PROBE});
    EXPECT_EQ(probe.exitCode, 0) << probe.output;
    for (const std::string& path : stale) EXPECT_FALSE(std::filesystem::exists(path)) << path;
    for (const std::string& path : kept) EXPECT_TRUE(std::filesystem::exists(path)) << path;
}

// Test that a cache entry of another user is never loaded but rebuilt as this user's. Only
// root can give a file away; others cannot make such an entry (they could not link one
// either, with protected_hardlinks).
TEST_F(LibraryCacheTest, EntryOfAnotherUserIsRebuilt) {
    if (geteuid() != 0) GTEST_SKIP() << "only root can give a cache entry to another user (issue 9)";
    const SourceBuild first = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(first.ok) << first.diagnostics;
    ASSERT_EQ(chown(first.libraryPath.c_str(), 4242, 4242), 0);
    const SourceBuild again = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(again.ok) << again.diagnostics;
    EXPECT_FALSE(again.fromCache);
    struct stat info {};
    ASSERT_EQ(lstat(again.libraryPath.c_str(), &info), 0);
    EXPECT_EQ(info.st_uid, geteuid());
}

/// One way a cache directory (or what is in or above it) can be unsafe: `spoil` makes it so
/// in a cache that works and returns the path the error must name, with `reason`; `repair`
/// undoes it. The standard library is checked when a process starts using the cache, the
/// rest at every use as well.
struct Spoiling {
    const char* name;
    std::function<std::string(const std::string& directory)> spoil;
    std::function<void(const std::string& directory)> repair;
    const char* reason;
    bool checkedAtEveryUse = true;
};

const Spoiling kSpoilings[] = {
    {"group-writable cache", [](const std::string& d) { chmod((d + "/cache").c_str(), 0770); return d + "/cache"; },
     [](const std::string& d) { chmod((d + "/cache").c_str(), 0700); }, "is writable by its group (mode 0770)"},
    {"world-writable cache", [](const std::string& d) { chmod((d + "/cache").c_str(), 0703); return d + "/cache"; },
     [](const std::string& d) { chmod((d + "/cache").c_str(), 0700); }, "is writable by others (mode 0703)"},
    {"group-writable directory above the cache", [](const std::string& d) { chmod(d.c_str(), 0770); return d; },
     [](const std::string& d) { chmod(d.c_str(), 0700); }, "is writable by its group (mode 0770)"},
    {"group-writable kernel directory",
     [](const std::string& d) { chmod((d + "/cache/kernels").c_str(), 0770); return d + "/cache/kernels"; },
     [](const std::string& d) { chmod((d + "/cache/kernels").c_str(), 0700); }, "is writable by its group"},
    {"kernel directory replaced by a symbolic link",
     [](const std::string& d) {
         std::filesystem::rename(d + "/cache/kernels", d + "/elsewhere");
         std::filesystem::create_directory_symlink(d + "/elsewhere", d + "/cache/kernels");
         return d + "/cache/kernels";
     },
     [](const std::string& d) {
         std::filesystem::remove(d + "/cache/kernels");
         std::filesystem::rename(d + "/elsewhere", d + "/cache/kernels");
     },
     "is a symbolic link"},
    {"group-writable header of the kernel standard library",
     [](const std::string& d) {
         for (const auto& entry : std::filesystem::recursive_directory_iterator(d + "/cache"))
             if (entry.path().filename() == "metal_stdlib" && entry.path().parent_path().filename() == "include") {
                 chmod(entry.path().c_str(), 0660);
                 return entry.path().string();
             }
         return std::string("(no metal_stdlib)");
     },
     [](const std::string& d) {
         for (const auto& entry : std::filesystem::recursive_directory_iterator(d + "/cache"))
             if (entry.path().filename() == "metal_stdlib") chmod(entry.path().c_str(), 0600);
     },
     "is writable by its group", false},
};

// Test that a cache directory someone else could write to is refused with an error that
// names the directory at fault, the rule and the fix, and works again once repaired; both
// in a process that was using the cache already and in one that starts using it (here:
// after using another cache).
TEST_F(LibraryCacheTest, UntrustedCacheDirectoriesAreRefused) {
    testing::TemporaryDirectory elsewhere;
    for (const Spoiling& spoiling : kSpoilings) {
        SCOPED_TRACE(spoiling.name);
        setCacheDirectory(directory_ + "/cache");
        ASSERT_TRUE(buildLibraryFromSource(kSource, {}).ok);
        const std::string culprit = spoiling.spoil(directory_);
        EXPECT_EQ(buildLibraryFromSource(kSource, {}).ok, !spoiling.checkedAtEveryUse);
        setCacheDirectory((elsewhere.path() / "cache").string());
        ASSERT_TRUE(buildLibraryFromSource(kSource, {}).ok);
        setCacheDirectory(directory_ + "/cache");
        SourceBuild refused = buildLibraryFromSource(kSource, {});
        EXPECT_FALSE(refused.ok);
        EXPECT_EQ(refused.library, nullptr);
        const std::string& message = refused.diagnostics;
        EXPECT_NE(message.find("the cache directory " + directory_ + "/cache cannot be trusted"), std::string::npos)
            << message;
        EXPECT_NE(message.find(culprit + " " + spoiling.reason), std::string::npos) << message;
        EXPECT_NE(message.find("chmod go-w"), std::string::npos) << message;
        EXPECT_NE(message.find("METALCPU_CACHE_DIR"), std::string::npos) << message;
        spoiling.repair(directory_);
        SourceBuild repaired = buildLibraryFromSource(kSource, {});
        EXPECT_TRUE(repaired.ok) << repaired.diagnostics;
    }
}

// Test that a cache directory of another user is refused, naming its owner: as root one
// given away to uid 4242, otherwise a system directory of root's.
TEST_F(LibraryCacheTest, CacheOfAnotherUserIsRefused) {
    std::string cache = "/usr";
    uid_t owner = 0;
    if (geteuid() == 0) {
        cache = directory_ + "/cache";
        owner = 4242;
        ASSERT_TRUE(support::makeDirectories(cache));
        ASSERT_EQ(chown(cache.c_str(), owner, owner), 0);
    }
    struct stat info {};
    if (lstat(cache.c_str(), &info) != 0 || info.st_uid != owner) GTEST_SKIP() << cache << " is not root's here (issue 9)";
    setCacheDirectory(cache);
    SourceBuild refused = buildLibraryFromSource(kSource, {});
    EXPECT_FALSE(refused.ok);
    EXPECT_NE(refused.diagnostics.find("the cache directory " + cache + " cannot be trusted"), std::string::npos)
        << refused.diagnostics;
    EXPECT_NE(refused.diagnostics.find(cache + " belongs to uid " + std::to_string(owner)), std::string::npos)
        << refused.diagnostics;
}

// Test that a cache directory reached through a symbolic link is used where the link
// points, and is checked there.
TEST_F(LibraryCacheTest, SymbolicLinksToTheCacheAreResolved) {
    std::filesystem::create_directory(directory_ + "/real");
    std::filesystem::create_directory_symlink(directory_ + "/real", directory_ + "/link");
    setCacheDirectory(directory_ + "/link/cache");
    SourceBuild build = buildLibraryFromSource(kSource, {});
    ASSERT_TRUE(build.ok) << build.diagnostics;
    EXPECT_EQ(build.libraryPath.rfind(directory_ + "/real/cache/kernels/", 0), 0u) << build.libraryPath;
    chmod((directory_ + "/real").c_str(), 0777);
    setCacheDirectory(directory_ + "/link/other");
    build = buildLibraryFromSource(kSource, {});
    EXPECT_FALSE(build.ok);
    EXPECT_NE(build.diagnostics.find(directory_ + "/real is writable by its group and others (mode 0777)"),
              std::string::npos)
        << build.diagnostics;
}

// Test that without HOME, XDG_CACHE_HOME and METALCPU_CACHE_DIR a process compiles into a
// private directory of its own under TMPDIR, which is gone when it exits; and that a
// relative XDG_CACHE_HOME is ignored, as the XDG specification says.
TEST_F(LibraryCacheTest, NoHomeUsesAPrivateDirectory) {
    std::filesystem::create_directory(directory_ + "/tmp");
    testing::ScopedEnvironmentVariable temporary("TMPDIR", directory_ + "/tmp");
    testing::ScopedEnvironmentVariable noHome("HOME", std::nullopt);
    testing::ScopedEnvironmentVariable relativeXdg("XDG_CACHE_HOME", "relative/cache");
    testing::ScopedEnvironmentVariable noCache("METALCPU_CACHE_DIR", std::nullopt);
    support::ProcessResult probe = support::runProcess({METALCPU_CACHE_PROBE, "--path"}, directory_, {}, kProbeQuiet);
    ASSERT_EQ(probe.exitCode, 0) << probe.output;
    EXPECT_EQ(probe.output.rfind("compiled\n" + directory_ + "/tmp/metalcpu-cache-", 0), 0u) << probe.output;
    EXPECT_TRUE(std::filesystem::is_empty(directory_ + "/tmp")) << "the private cache outlived its process";
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/relative"));
}

// Test that a default cache location this process cannot trust — a home directory others may
// write, or (as root in a CI container) one of another user's — is not touched: the process
// compiles into a private directory, warns once, and works. A location METALCPU_CACHE_DIR
// names stays an error (UntrustedCacheDirectoriesAreRefused).
TEST_F(LibraryCacheTest, UntrustedDefaultLocationFallsBackToAPrivateDirectory) {
    std::filesystem::create_directory(directory_ + "/tmp");
    std::filesystem::create_directory(directory_ + "/home");
    std::vector<std::string> homes = {"writable by others"};
    if (geteuid() == 0) homes.push_back("another user's");
    testing::ScopedEnvironmentVariable temporary("TMPDIR", directory_ + "/tmp");
    testing::ScopedEnvironmentVariable home("HOME", directory_ + "/home");
    testing::ScopedEnvironmentVariable noXdg("XDG_CACHE_HOME", std::nullopt);
    testing::ScopedEnvironmentVariable noCache("METALCPU_CACHE_DIR", std::nullopt);
    for (const std::string& kind : homes) {
        SCOPED_TRACE(kind);
        if (kind == "writable by others") ASSERT_EQ(chmod((directory_ + "/home").c_str(), 0777), 0);
        else ASSERT_EQ(chmod((directory_ + "/home").c_str(), 0755) | chown((directory_ + "/home").c_str(), 1001, 1001), 0);
        support::ProcessResult probe = support::runProcess({METALCPU_CACHE_PROBE, "--path"}, directory_);
        ASSERT_EQ(probe.exitCode, 0) << probe.output;
        EXPECT_NE(probe.output.find("compiled\n" + directory_ + "/tmp/metalcpu-cache-"), std::string::npos) << probe.output;
        EXPECT_NE(probe.output.find("the cache directory " + directory_ + "/home/.cache/metalcpu cannot be trusted"),
                  std::string::npos)
            << probe.output;
        EXPECT_NE(probe.output.find("METALCPU_CACHE_DIR"), std::string::npos) << probe.output;
        EXPECT_FALSE(std::filesystem::exists(directory_ + "/home/.cache")) << "nothing is made in such a home";
        EXPECT_TRUE(std::filesystem::is_empty(directory_ + "/tmp")) << "the private cache outlived its process";
    }
}

} // namespace
} // namespace metalcpu::jit
