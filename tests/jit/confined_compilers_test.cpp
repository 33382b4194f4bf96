// Every compiler process metalcpu runs (preprocessor, compiler, linker) is confined to its
// toolchain, the kernel's roots and its own scratch directory (docs/architecture.md,
// "Confined compilers"): what the front end cannot see before preprocessing, a name made by
// macros, still reaches nothing outside.
#include "jit/kernel_compiler.h"
#include "jit/library_cache.h"
#include "scoped_state.h"
#include "support/confinement.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <string>
#include <sys/stat.h>

namespace metalcpu::jit {
namespace {

/// A kernel directory `src/`, a secret beside it (outside the kernel's roots) and a cache.
class ConfinedCompilersTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = directory_.path().string();
        ASSERT_TRUE(support::makeDirectories(dir_ + "/src") && support::makeDirectories(dir_ + "/outside"));
        ASSERT_TRUE(support::writeFileAtomically(dir_ + "/outside/secret.h", "SECRET_MARKER int x;\n"));
        cache_.emplace("METALCPU_CACHE_DIR", dir_ + "/cache");
    }
    void TearDown() override { cache_.reset(); }

    /// Translates (and, when that works, compiles) `source` as src/k.metal; what a kernel
    /// author sees: whether it worked, and the messages, with `path` written as <path>.
    std::pair<bool, std::string> compile(const std::string& source, const std::string& path) {
        EXPECT_TRUE(support::writeFileAtomically(dir_ + "/src/k.metal", source));
        CompileResult result = translateFile(dir_ + "/src/k.metal", {}, {}, dir_ + "/k.cpp");
        if (result.ok) result = compileTranslation(dir_ + "/k.cpp", {}, dir_ + "/k.air", false);
        std::string seen = result.diagnostics;
        for (std::size_t at; (at = seen.find(path)) != std::string::npos;) seen.replace(at, path.size(), "<path>");
        return {result.ok, seen};
    }

    testing::TemporaryDirectory directory_;
    std::string dir_;
    std::optional<testing::ScopedEnvironmentVariable> cache_;
};

/// Kernel sources that ask the preprocessor about a file whose name is made by macros, so
/// that the front end cannot check it first; PATH stands for the file.
const char* const kProbes[] = {
    // __has_include pasted together.
    "#define CAT(a, b) a##b\n"
    "#define HI CAT(__has_, include)\n"
    "#if HI(\"PATH\")\n"
    "#define FOUND 1\n"
    "#else\n"
    "#define FOUND 0\n"
    "#endif\n"
    "static_assert(FOUND == 0, \"the file exists\");\n"
    "kernel void k(device int* out [[buffer(0)]]) { out[0] = FOUND; }\n",
    // #pragma GCC dependency made by _Pragma.
    "#define STR(x) #x\n"
    "#define P(x) _Pragma(STR(x))\n"
    "P(GCC dependency \"PATH\")\n"
    "kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n",
};

// Test that a probe for a file outside the roots gives the same result, and the same
// messages, whether the file exists or not: kernel source learns nothing about the machine.
TEST_F(ConfinedCompilersTest, ProbesCannotTellExistingFromMissingFiles) {
    if (!support::confinementSupport().privateView)
        GTEST_SKIP() << "no user namespaces here: compilers are confined by Landlock alone, which keeps them from "
                        "reading files outside the roots but not from learning whether one exists (issue 9)";
    const std::pair<std::string, std::string> pairs[] = {{dir_ + "/outside/secret.h", dir_ + "/outside/missing.h"},
                                                         {"/etc/passwd", "/etc/metalcpu-no-such-file"}};
    for (const char* probe : kProbes) {
        for (const auto& [existing, missing] : pairs) {
            SCOPED_TRACE(std::string(probe) + existing);
            auto withPath = [&](const std::string& path) {
                std::string source = probe;
                source.replace(source.find("PATH"), 4, path);
                return source;
            };
            const auto [existingOk, existingSeen] = compile(withPath(existing), existing);
            const auto [missingOk, missingSeen] = compile(withPath(missing), missing);
            EXPECT_EQ(existingOk, missingOk) << existingSeen << "\n---\n" << missingSeen;
            EXPECT_EQ(existingSeen, missingSeen);
            EXPECT_EQ(existingSeen.find("SECRET_MARKER"), std::string::npos) << existingSeen;
        }
    }
}

// Test that no compiler process can read a file outside its toolchain and roots, or write
// outside its scratch directory: a compiler that tries, at every step (newLibrary's compile,
// the tools' preprocess, compile and link), is refused each time and then does its job.
TEST_F(ConfinedCompilersTest, CompilerProcessesReachOnlyTheirFiles) {
    const support::ConfinementSupport& support = support::confinementSupport();
    if (support.landlockAbi == 0 && !support.privateView)
        GTEST_SKIP() << "neither Landlock nor user namespaces here: compilers run unconfined (issue 9)";
    const std::string spy = dir_ + "/tools/spy-c++";
    ASSERT_TRUE(support::makeDirectories(dir_ + "/tools"));
    ASSERT_TRUE(support::writeFileAtomically(
        spy, "#!/bin/sh\n"
             "for f in " + dir_ + "/outside/secret.h /etc/passwd /proc/self/environ; do\n"
             "  if cat \"$f\" >/dev/null 2>&1; then echo \"spy: read $f\" >&2; exit 1; fi\n"
             "done\n"
             "if echo x 2>/dev/null > " + dir_ + "/outside/written; then echo 'spy: wrote' >&2; exit 1; fi\n"
             "exec " HOST_CXX " \"$@\"\n"));
    ASSERT_EQ(chmod(spy.c_str(), 0755), 0);
    testing::ScopedEnvironmentVariable compiler("METALCPU_CXX", spy);

    SourceBuild built = buildLibraryFromSource("kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n", {});
    EXPECT_TRUE(built.ok) << built.diagnostics;
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/src/k.metal", "kernel void k(device int* o [[buffer(0)]]) { o[0] = 2; }\n"));
    std::vector<std::string> dependencies;
    BuildOptions build;
    build.dependencies = &dependencies;
    CompileResult step = translateFile(dir_ + "/src/k.metal", {}, {}, dir_ + "/k.cpp", build);
    EXPECT_TRUE(step.ok) << step.diagnostics;
    if (step.ok) step = compileTranslation(dir_ + "/k.cpp", {}, dir_ + "/k.air", false);
    EXPECT_TRUE(step.ok) << step.diagnostics;
    if (step.ok) step = linkLibrary({dir_ + "/k.air"}, dir_ + "/k.metallib");
    EXPECT_TRUE(step.ok) << step.diagnostics;
    EXPECT_TRUE(support::fileExists(dir_ + "/k.metallib"));
    EXPECT_EQ(dependencies, std::vector<std::string>{dir_ + "/src/k.metal"});
    EXPECT_FALSE(support::fileExists(dir_ + "/outside/written"));
}

} // namespace
} // namespace metalcpu::jit
