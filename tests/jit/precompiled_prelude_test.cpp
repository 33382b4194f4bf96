// The precompiled prelude (jit/precompiled_prelude.h): which files and flags share one, that a
// damaged or refused one never fails a compile, that threads and processes making it at once
// all compile, and that what a compile makes and says with it is byte for byte what it makes
// and says without.
#include "jit/precompiled_prelude.h"

#include "jit/kernel_library.h"
#include "jit/library_cache.h"
#include "jit/toolchain.h"
#include "log_capture.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/log.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>

namespace metalcpu::jit {
namespace {

namespace fs = std::filesystem;

/// The start of a translated file: its math settings, comments, and the prelude include.
const char kHead[] = "// metalcpu math settings: MTLMathMode, MTLMathFloatingPointFunctions\n"
                     "#define METALCPU_MATH_MODE 2\n"
                     "#define METALCPU_MATH_FP32_FUNCTIONS 0\n"
                     "#define __METAL_VERSION__ 320\n"
                     "// metalcpu source root: /one/place\n"
                     "\n"
                     "#include <metalcpu/kernel_prelude.h>\n"
                     "int user;\n";

// Test that the header to precompile is the file's #defines before its prelude, and that
// the comments (the source roots, which differ from compile to compile) are left out.
TEST(PreludeHeader, IsTheDefinesBeforeThePrelude) {
    EXPECT_EQ(preludeHeader(kHead), "#define METALCPU_MATH_MODE 2\n"
                                    "#define METALCPU_MATH_FP32_FUNCTIONS 0\n"
                                    "#define __METAL_VERSION__ 320\n"
                                    "#include <metalcpu/kernel_prelude.h>\n");
    EXPECT_EQ(preludeHeader("#include <metalcpu/kernel_prelude.h>\nint user;\n"),
              "#include <metalcpu/kernel_prelude.h>\n");
}

// Test that a file with anything else before its prelude has no header to precompile: a text
// translated before the file's own definitions moved after the prelude (its embedded twin
// first), a continued #define, code, a prelude include inside a comment, none at all.
TEST(PreludeHeader, NoneWhenMoreThanDefinesPrecedeThePrelude) {
    for (const char* text :
         {"#define METALCPU_VALIDATION_SOURCE metalcpu_validation_source\n"
          "static const char metalcpu_validation_source[] = R\"mcv(#include <metalcpu/kernel_prelude.h>\n)mcv\";\n"
          "#include <metalcpu/kernel_prelude.h>\n",
          "#define A \\\n  1\n#include <metalcpu/kernel_prelude.h>\n", "int early;\n#include <metalcpu/kernel_prelude.h>\n",
          "// see #include <metalcpu/kernel_prelude.h>\n", "#define A 1\nint user;\n"})
        EXPECT_EQ(preludeHeader(text), std::nullopt) << text;
}

/// A cache of its own for each test, and the debug log.
class PrecompiledPreludeTest : public ::testing::Test {
protected:
    void SetUp() override { useCache("cache"); }
    void TearDown() override { cacheDirectory_.reset(); }

    /// Points METALCPU_CACHE_DIR at `name` in the test's directory (a new cache: a new
    /// standard library directory, so new precompiled preludes).
    void useCache(const std::string& name) {
        cacheDirectory_.reset();
        cacheDirectory_.emplace("METALCPU_CACHE_DIR", (scratch_.path() / name).string());
    }
    static std::shared_ptr<const Toolchain> tools() {
        std::string error;
        std::shared_ptr<const Toolchain> made = toolchain(&error);
        EXPECT_NE(made, nullptr) << error;
        return made;
    }
    /// The files in the cache's directory of precompiled preludes, all of them or those whose
    /// names end with `suffix`.
    static std::vector<std::string> preludeFiles(const std::string& suffix = ".h.gch") {
        std::vector<std::string> files;
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(tools()->preludeDir, error))
            if (entry.path().string().ends_with(suffix)) files.push_back(entry.path().string());
        return files;
    }
    static std::string kernelSource(int value) {
        return "kernel void k(device int* out [[buffer(0)]]) { out[0] = " + std::to_string(value) + "; }\n";
    }
    /// Compiles `source` through the cache, which must succeed with kernel k.
    static SourceBuild build(const std::string& source) {
        SourceBuild made = buildLibraryFromSource(source, {});
        EXPECT_TRUE(made.ok) << made.diagnostics;
        EXPECT_FALSE(made.fromCache);
        if (made.library) {
            EXPECT_NE(made.library->find("k"), nullptr);
        }
        return made;
    }
    /// Two compiles of new sources: the first notes that the prelude is wanted, the second
    /// makes it. Returns the precompiled preludes then in the cache.
    static std::vector<std::string> makePrelude(int firstValue) {
        build(kernelSource(firstValue));
        build(kernelSource(firstValue + 1));
        return preludeFiles();
    }

    testing::TemporaryDirectory scratch_;
    std::optional<testing::ScopedEnvironmentVariable> cacheDirectory_;
    testing::ScopedLogLevel debug_{spdlog::level::debug}; // where the prelude's decisions are said
};

// Test that the compiler, the flags in their order and the #defines choose the precompiled
// prelude, and that comments (the source roots) do not; and that
// METALCPU_PRECOMPILED_PRELUDE=0 turns it off.
TEST_F(PrecompiledPreludeTest, FlagsAndDefinesChooseIt) {
    std::shared_ptr<const Toolchain> toolchain = tools();
    ASSERT_NE(toolchain, nullptr);
    const std::vector<std::string> flags = {"-O2", "-fPIC", "-isystem", toolchain->includeDir};
    const auto fileOf = [&](const std::vector<std::string>& f, const std::string& head) {
        std::optional<PrecompiledPrelude> prelude = PrecompiledPrelude::of(*toolchain, f, head);
        EXPECT_TRUE(prelude.has_value()) << head;
        return prelude ? prelude->file() : std::string();
    };
    const std::string file = fileOf(flags, kHead);
    EXPECT_EQ(file.rfind(toolchain->preludeDir + "/", 0), 0u) << file;
    EXPECT_TRUE(file.ends_with(".h.gch")) << file;
    EXPECT_EQ(PrecompiledPrelude::of(*toolchain, flags, kHead)->arguments(),
              (std::vector<std::string>{"-include", file.substr(0, file.size() - 4)}));

    std::string otherRoot = kHead;
    otherRoot.replace(otherRoot.find("/one/place"), 10, "/another/place");
    EXPECT_EQ(fileOf(flags, otherRoot), file) << "comments do not matter";
    EXPECT_NE(fileOf({"-O3", "-fPIC", "-isystem", toolchain->includeDir}, kHead), file);
    EXPECT_NE(fileOf({"-fPIC", "-O2", "-isystem", toolchain->includeDir}, kHead), file) << "the order of the flags";
    std::string safeMath = kHead;
    safeMath.replace(safeMath.find("METALCPU_MATH_MODE 2"), 20, "METALCPU_MATH_MODE 0");
    EXPECT_NE(fileOf(flags, safeMath), file);
    std::string validation = kHead;
    validation.insert(validation.find("#include"), "#define METALCPU_VALIDATION 1\n");
    EXPECT_NE(fileOf(flags, validation), file);
    EXPECT_TRUE(preludeFiles().empty()) << "of() only names it";

    testing::ScopedEnvironmentVariable off("METALCPU_PRECOMPILED_PRELUDE", "0");
    EXPECT_EQ(PrecompiledPrelude::of(*toolchain, flags, kHead), std::nullopt);
}

// Test that kernels compiled by a compiler that is not GCC (here one that says it is Clang)
// are compiled without a precompiled prelude, and are compiled.
TEST_F(PrecompiledPreludeTest, OnlyWithGcc) {
    const std::string compiler = (scratch_.path() / "clang++").string();
    ASSERT_TRUE(support::writeFileAtomically(compiler, "#!/bin/sh\n"
                                                       "if [ \"$1\" = --version ]; then echo 'clang version 15.0.0'; exit 0; fi\n"
                                                       "exec " HOST_CXX " \"$@\"\n"));
    ASSERT_EQ(chmod(compiler.c_str(), 0755), 0);
    testing::ScopedEnvironmentVariable clang("METALCPU_CXX", compiler);
    testing::LogCapture log;
    build(kernelSource(1));
    build(kernelSource(2));
    EXPECT_EQ(log.count("compiling without a precompiled prelude: " + compiler + " is not GCC"), 2u) << log.text();
    EXPECT_TRUE(preludeFiles("").empty());
}

// Test that the first compile of its kind in a cache only notes that the prelude is wanted,
// the second makes it, and the third uses it.
TEST_F(PrecompiledPreludeTest, MadeAtTheSecondCompile) {
    testing::LogCapture log;
    build(kernelSource(1));
    EXPECT_EQ(log.count("compiling without a precompiled prelude: the first compile of its kind in this cache"), 1u)
        << log.text();
    EXPECT_TRUE(preludeFiles().empty());
    EXPECT_EQ(preludeFiles(".wanted").size(), 1u);
    build(kernelSource(2));
    const std::vector<std::string> made = preludeFiles();
    ASSERT_EQ(made.size(), 1u);
    EXPECT_EQ(log.count("made the precompiled prelude " + made[0]), 1u) << log.text();
    build(kernelSource(3));
    EXPECT_EQ(log.count("using the precompiled prelude " + made[0]), 1u) << log.text();
    EXPECT_EQ(log.count("the first compile of its kind"), 1u) << log.text();
}

/// Ways a precompiled prelude in the cache can be unusable, each done to the file.
struct Damage {
    const char* name;
    std::function<void(const std::string& file)> apply;
};

// Test that a damaged precompiled prelude (cut short, emptied, or one of other flags, which
// GCC refuses) fails no compile: the compile is done again without it, which removes it, and
// this process compiles without it from then on; the next process makes it again.
TEST_F(PrecompiledPreludeTest, DamagedOneFallsBack) {
    const std::vector<Damage> damages = {
        {"cut in half", [](const std::string& file) { fs::resize_file(file, fs::file_size(file) / 2); }},
        {"cut to 100 bytes", [](const std::string& file) { fs::resize_file(file, 100); }},
        {"emptied", [](const std::string& file) { fs::resize_file(file, 0); }},
        {"of other flags", [](const std::string& file) {
             std::shared_ptr<const Toolchain> toolchain = tools();
             std::optional<PrecompiledPrelude> other = PrecompiledPrelude::of(
                 *toolchain, {"-std=c++20", "-nostdinc", "-O1", "-isystem", toolchain->includeDir}, kHead);
             ASSERT_TRUE(other);
             EXPECT_FALSE(other->prepare(*toolchain)) << "the first asking notes it";
             ASSERT_TRUE(other->prepare(*toolchain));
             fs::copy_file(other->file(), file, fs::copy_options::overwrite_existing);
         }},
    };
    int value = 0;
    for (const Damage& damage : damages) {
        SCOPED_TRACE(damage.name);
        useCache(std::string("cache-") + std::to_string(value));
        std::vector<std::string> made = makePrelude(value + 1);
        value += 2;
        ASSERT_EQ(made.size(), 1u);
        damage.apply(made[0]);
        testing::LogCapture log;
        build(kernelSource(++value));
        EXPECT_EQ(log.count("which the failed compile mentions"), 1u) << log.text();
        EXPECT_EQ(log.count("removed the precompiled prelude " + made[0] + ", which the compiler refused"), 1u)
            << log.text();
        EXPECT_FALSE(fs::exists(made[0]));
        build(kernelSource(++value));
        EXPECT_FALSE(fs::exists(made[0])) << "this process does not make it again";
        support::ProcessResult probe = support::runProcess({METALCPU_CACHE_PROBE}, {}, {}, {"METALCPU_LOG_LEVEL=error"});
        EXPECT_EQ(probe.exitCode, 0) << probe.output;
        EXPECT_TRUE(fs::exists(made[0])) << "another process makes it again";
    }
}

// Test that compiles whose precompiled prelude a cache cleaner (not metalcpu's sweep, which
// leaves a leased one alone) removes again and again, before, while or after they use it,
// all succeed: one removed during its compile is compiled again without it.
TEST_F(PrecompiledPreludeTest, RemovedByACacheCleanerFallsBack) {
    std::vector<std::string> made = makePrelude(1);
    ASSERT_EQ(made.size(), 1u);
    testing::LogCapture log;
    std::atomic<bool> compiling{true};
    std::thread cleaner([&] {
        while (compiling) {
            std::remove(made[0].c_str());
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    for (int value = 10; value < 14; ++value) build(kernelSource(value));
    compiling = false;
    cleaner.join();
    EXPECT_EQ(log.count("which the compiler refused"), 0u) << "nothing refused it: " << log.text();
    EXPECT_EQ(log.count("could not be used before"), 0u) << "a removed one is made again: " << log.text();
}

// Test that a precompiled prelude someone else could have written (writable by others) is
// not used but made again, private.
TEST_F(PrecompiledPreludeTest, WritableByOthersIsMadeAgain) {
    std::vector<std::string> made = makePrelude(1);
    ASSERT_EQ(made.size(), 1u);
    ASSERT_EQ(chmod(made[0].c_str(), 0666), 0);
    testing::LogCapture log;
    build(kernelSource(3));
    EXPECT_EQ(log.count("making the precompiled prelude again"), 1u) << log.text();
    EXPECT_EQ(log.count("made the precompiled prelude " + made[0]), 1u) << log.text();
    struct stat info {};
    ASSERT_EQ(stat(made[0].c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
}

// Test that threads compiling new sources into a new cache at once make the precompiled
// prelude once (one of them notes that it is wanted, the next makes it), and the others use it.
TEST_F(PrecompiledPreludeTest, ThreadsMakeItOnce) {
    constexpr int kThreads = 4;
    testing::LogCapture log;
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) threads.emplace_back([i] { build(kernelSource(10 + i)); });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(log.count("the first compile of its kind"), 1u) << log.text();
    EXPECT_EQ(log.count("made the precompiled prelude"), 1u) << log.text();
    EXPECT_EQ(log.count("using the precompiled prelude"), static_cast<std::size_t>(kThreads - 2)) << log.text();
    EXPECT_EQ(preludeFiles().size(), 1u);
}

// Test that two processes compiling at once into a cache that wants the precompiled prelude,
// both making it, both compile, and leave one whole precompiled prelude (and no temporary
// file) that the next compile uses.
TEST_F(PrecompiledPreludeTest, ProcessesMakeItAtOnce) {
    build(kernelSource(1));
    ASSERT_EQ(preludeFiles(".wanted").size(), 1u);
    support::ProcessResult runs[2];
    std::vector<std::thread> processes;
    for (support::ProcessResult& run : runs)
        processes.emplace_back([&run] {
            run = support::runProcess({METALCPU_CACHE_PROBE}, {}, {}, {"METALCPU_LOG_LEVEL=debug"});
        });
    for (std::thread& process : processes) process.join();
    for (const support::ProcessResult& run : runs) {
        EXPECT_EQ(run.exitCode, 0) << run.output;
        EXPECT_TRUE(run.output.ends_with("compiled\n") || run.output.ends_with("hit\n")) << run.output;
    }
    std::vector<std::string> made = preludeFiles();
    ASSERT_EQ(made.size(), 1u);
    EXPECT_EQ(preludeFiles("").size(), 2u) << "the prelude and the note that it is wanted, no temporary file";
    testing::LogCapture log;
    build(kernelSource(3));
    EXPECT_EQ(log.count("using the precompiled prelude " + made[0]), 1u) << log.text();
}

std::string readAll(const std::string& path) { return support::readFile(path).value_or("(cannot read " + path + ")"); }

/// The four samples/matmul kernel files as one source string, ShaderParams.h pasted in (a
/// source string has no directory to include from).
std::string matmulSource() {
    const std::string directory = std::string(METALCPU_SOURCE_DIR) + "/samples/matmul/";
    const std::string params = readAll(directory + "ShaderParams.h");
    std::string all;
    for (const char* file :
         {"mat_mul_naive.metal", "mat_mul_tiled.metal", "mat_mul_register_4x4.metal", "mat_mul_register_8x4.metal"}) {
        std::string source = readAll(directory + file);
        const std::string include = "#include \"ShaderParams.h\"";
        if (std::size_t at = source.find(include); at != std::string::npos) source.replace(at, include.size(), params);
        all += source;
    }
    return all;
}

// Test that the matmul sample's kernels compile to the same bytes, plain and with shader
// validation, with a precompiled prelude (made for each flavour by these compiles, after a
// smaller library in both flavours noted that the cache wants them) and without one.
TEST_F(PrecompiledPreludeTest, SameLibrariesWithAndWithout) {
    const std::string source = matmulSource();
    const auto compile = [&](std::vector<std::string>* paths) {
        std::string error;
        ASSERT_NE(build(kernelSource(1)).library->validationFlavour(&error), nullptr) << error;
        SourceBuild plain = buildLibraryFromSource(source, {});
        ASSERT_TRUE(plain.ok) << plain.diagnostics;
        ASSERT_NE(plain.library->find("mat_mul_register_8x4"), nullptr);
        std::shared_ptr<KernelLibrary> validation = plain.library->validationFlavour(&error);
        ASSERT_NE(validation, nullptr) << error;
        ASSERT_NE(validation->find("mat_mul_tiled"), nullptr);
        *paths = {plain.libraryPath, validation->path()};
    };
    std::vector<std::string> with, without;
    {
        testing::LogCapture log;
        compile(&with);
        EXPECT_EQ(log.count("made the precompiled prelude"), 2u) << "one for each flavour: " << log.text();
        EXPECT_EQ(preludeFiles().size(), 2u);
    }
    useCache("plain");
    {
        testing::ScopedEnvironmentVariable off("METALCPU_PRECOMPILED_PRELUDE", "0");
        compile(&without);
        EXPECT_TRUE(preludeFiles().empty());
    }
    ASSERT_EQ(with.size(), 2u);
    ASSERT_EQ(without.size(), 2u);
    for (std::size_t i = 0; i < with.size(); ++i) {
        EXPECT_NE(with[i], without[i]) << "two caches";
        const std::string made = readAll(with[i]);
        EXPECT_GT(made.size(), 4096u);
        EXPECT_TRUE(made == readAll(without[i])) << with[i] << " differs from " << without[i];
    }
}

/// `messages` with the name of each compile's own temporary directory (which "included from"
/// lines quote) made the same.
std::string sameBuildDirectory(std::string messages) {
    const std::string prefix = "metalcpu-build-";
    for (std::size_t at = messages.find(prefix); at != std::string::npos; at = messages.find(prefix, at + 1))
        messages.replace(at + prefix.size(), 6, "XXXXXX");
    return messages;
}

// Test that a failing compile says with a precompiled prelude what it says without: an error
// in the user's line, one with notes in the prelude's headers, and one in a header (whose
// "included from" lines would name the precompiled header: that compile is done again
// without it). The prelude stays: the fault was the source's.
TEST_F(PrecompiledPreludeTest, ErrorsAreThoseOfACompileWithout) {
    const std::vector<std::string> made = makePrelude(1);
    ASSERT_EQ(made.size(), 1u);
    for (const char* body : {"out[0] = undeclared_name;", "out[0] = int(metal::clamp(float3(1.0f), 2.0f));",
                             "metal::matrix<int, 2, 2> m; out[0] = 0;"}) {
        SCOPED_TRACE(body);
        const std::string source = std::string("#include <metal_stdlib>\nusing namespace metal;\n"
                                               "kernel void k(device int* out [[buffer(0)]]) {\n    ") +
                                   body + "\n}\n";
        std::string plainMessages;
        {
            testing::ScopedEnvironmentVariable off("METALCPU_PRECOMPILED_PRELUDE", "0");
            SourceBuild plain = buildLibraryFromSource(source, {});
            ASSERT_FALSE(plain.ok);
            plainMessages = sameBuildDirectory(plain.diagnostics);
        }
        testing::LogCapture log;
        SourceBuild with = buildLibraryFromSource(source, {});
        ASSERT_FALSE(with.ok);
        EXPECT_NE(with.diagnostics.find("program_source:4:"), std::string::npos) << with.diagnostics;
        EXPECT_EQ(sameBuildDirectory(with.diagnostics), plainMessages);
        EXPECT_EQ(log.count("using the precompiled prelude " + made[0]), 1u) << log.text();
        EXPECT_EQ(log.count("removed the precompiled prelude"), 0u) << log.text();
        EXPECT_TRUE(fs::exists(made[0]));
    }
}

} // namespace
} // namespace metalcpu::jit
