#include "jit/kernel_compiler.h"
#include "jit/compiler_process.h"
#include "jit/kernel_library.h"
#include "support/files.h"

#include <gtest/gtest.h>

namespace metalcpu::jit {
namespace {

/// A scratch directory with one .metal file and its shared header.
class KernelCompilerTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = support::makeTemporaryDirectory("metalcpu-compile-test-");
        support::writeFileAtomically(dir_ + "/params.h", "typedef struct { unsigned n; } Params;\n");
        support::writeFileAtomically(dir_ + "/k.metal",
                                     "#include <metal_stdlib>\n#include \"params.h\"\nusing namespace metal;\n"
                                     "kernel void k(device uint* out, constant Params& p,\n"
                                     "              uint i [[thread_position_in_grid]]) { out[i] = p.n + SCALE; }\n");
    }
    void TearDown() override { support::removeTree(dir_); }
    std::string dir_;
};

// Test that a file translates, compiles to an .air, links to a .metallib and loads, and that
// its dependencies are the source and the header it includes.
TEST_F(KernelCompilerTest, FileToLibrary) {
    KernelCompileSettings settings;
    settings.macros = {"SCALE=3"};
    std::vector<std::string> dependencies;
    BuildOptions build;
    build.dependencies = &dependencies;
    CompileResult translated = translateFile(dir_ + "/k.metal", {}, settings, dir_ + "/k.cpp", build);
    ASSERT_TRUE(translated.ok) << translated.diagnostics;
    ASSERT_TRUE(compileTranslation(dir_ + "/k.cpp", {}, dir_ + "/k.air", false).ok);
    CompileResult linked = linkLibrary({dir_ + "/k.air"}, dir_ + "/k.metallib");
    ASSERT_TRUE(linked.ok) << linked.diagnostics;
    std::string error;
    auto library = KernelLibrary::open(dir_ + "/k.metallib", &error);
    ASSERT_NE(library, nullptr) << error;
    const mc_kernel* kernel = library->find("k");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->param_count, 3u);
    EXPECT_EQ(std::string(kernel->file), dir_ + "/k.metal");
    // The source and its header, nothing of metalcpu's (its stubs live in the versioned cache).
    EXPECT_EQ(dependencies, (std::vector<std::string>{dir_ + "/k.metal", dir_ + "/params.h"}));
}

// Test that an error names the .metal file and line, not a generated file.
TEST_F(KernelCompilerTest, ErrorsNameTheMetalFile) {
    CompileResult translated = translateFile(dir_ + "/k.metal", {}, {}, dir_ + "/k.cpp");
    ASSERT_TRUE(translated.ok) << translated.diagnostics; // SCALE is undefined only when compiling
    CompileResult compiled = compileTranslation(dir_ + "/k.cpp", {}, dir_ + "/k.air", false);
    EXPECT_FALSE(compiled.ok);
    EXPECT_NE(compiled.diagnostics.find(dir_ + "/k.metal:5:"), std::string::npos) << compiled.diagnostics;
    EXPECT_NE(compiled.diagnostics.find("SCALE"), std::string::npos);
}

// Test that a mistake in a helper with a barrier, which the front end inlines into the
// kernel's work-item loops, is reported once and in the user's names: not a second time for
// the inlined copy, whose locals are renamed (x_i1) and whose types are slots (__mc_t1).
TEST_F(KernelCompilerTest, MistakeInAnInlinedHelperIsReportedOnce) {
    support::writeFileAtomically(dir_ + "/helper.metal",
                                 "#include <metal_stdlib>\nusing namespace metal;\n"
                                 "float helper(threadgroup float* t, uint lid) {\n"
                                 "    float x = t[lid];\n"
                                 "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                 "    x.y = t[(lid + 1) % 64];\n"
                                 "    return x;\n"
                                 "}\n"
                                 "kernel void k(device float* out, uint lid [[thread_position_in_threadgroup]]) {\n"
                                 "    threadgroup float t[64];\n"
                                 "    t[lid] = lid;\n"
                                 "    out[lid] = helper(t, lid);\n"
                                 "}\n");
    CompileResult translated = translateFile(dir_ + "/helper.metal", {}, {}, dir_ + "/helper.cpp");
    ASSERT_TRUE(translated.ok) << translated.diagnostics;
    CompileResult compiled = compileTranslation(dir_ + "/helper.cpp", {}, dir_ + "/helper.air", false);
    ASSERT_FALSE(compiled.ok);
    const std::string& said = compiled.diagnostics;
    const std::string where = dir_ + "/helper.metal:6:";
    const std::size_t first = said.find(where);
    ASSERT_NE(first, std::string::npos) << said;
    EXPECT_EQ(said.find(where, first + 1), std::string::npos) << said;
    EXPECT_NE(said.find("request for member 'y' in 'x'"), std::string::npos) << said;
    for (const char* copyName : {"x_i", "__mc_t", "In lambda function"})
        EXPECT_EQ(said.find(copyName), std::string::npos) << copyName << " in:\n" << said;
}

// Test that what only the shader-validation flavour's translation says reaches the user as a
// warning (an access it cannot check), and that a file without such accesses gets none.
TEST_F(KernelCompilerTest, ValidationWarningsAreShown) {
    support::writeFileAtomically(dir_ + "/pick.metal",
                                 "#include <metal_stdlib>\nusing namespace metal;\n"
                                 "template <typename T> device T* pick(device T* p) { return p; }\n"
                                 "kernel void k(device float* a, uint i [[thread_position_in_grid]]) {\n"
                                 "    pick<float>(a)[i] = 1.0f;\n}\n");
    CompileResult translated = translateFile(dir_ + "/pick.metal", {}, {}, dir_ + "/pick.cpp");
    ASSERT_TRUE(translated.ok) << translated.diagnostics;
    EXPECT_NE(translated.diagnostics.find(dir_ + "/pick.metal:5:"), std::string::npos) << translated.diagnostics;
    EXPECT_NE(translated.diagnostics.find("warning: shader validation cannot check 1 access"), std::string::npos)
        << translated.diagnostics;
    KernelCompileSettings settings;
    settings.macros = {"SCALE=3"};
    CompileResult clean = translateFile(dir_ + "/k.metal", {}, settings, dir_ + "/k.cpp");
    ASSERT_TRUE(clean.ok);
    EXPECT_EQ(clean.diagnostics, "");
}

// Test that a file whose instrumented translation failed carries the reason in place of its
// validation source, and that a validated kernel's error quotes it instead of claiming the
// library was built by another tool. (No kernel makes only that translation fail today, so
// the test puts the failure in the translated file as translateFile() would.)
TEST_F(KernelCompilerTest, FailedValidationTranslationIsQuoted) {
    const std::string reason = dir_ + "/k.metal:5:1: error: internal error: an example reason";
    EXPECT_EQ(validationFailureReason(validationFailureSource(reason)), reason + "\n");
    EXPECT_EQ(validationFailureReason("#include <metalcpu/checked.h>\n"), std::nullopt);
    KernelCompileSettings settings;
    settings.macros = {"SCALE=3"};
    ASSERT_TRUE(translateFile(dir_ + "/k.metal", {}, settings, dir_ + "/k.cpp").ok);
    std::string cpp = support::readFile(dir_ + "/k.cpp").value_or("");
    const std::size_t begin = cpp.find("#undef METALCPU_VALIDATION_SOURCE");
    const std::size_t end = cpp.find(")mcv\";\n", begin);
    ASSERT_NE(end, std::string::npos);
    cpp.replace(begin, end + 7 - begin, embedValidationSource(validationFailureSource(reason)));
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/k.cpp", cpp));
    ASSERT_TRUE(compileTranslation(dir_ + "/k.cpp", {}, dir_ + "/k.air", false).ok);
    ASSERT_TRUE(linkLibrary({dir_ + "/k.air"}, dir_ + "/k.metallib").ok);
    std::string error;
    auto library = KernelLibrary::open(dir_ + "/k.metallib", &error);
    ASSERT_NE(library, nullptr) << error;
    EXPECT_EQ(library->validationKernel("k", &error), nullptr);
    EXPECT_NE(error.find("shader-validation translation of " + dir_ + "/k.metallib failed"), std::string::npos) << error;
    EXPECT_NE(error.find(reason), std::string::npos) << error;
    EXPECT_EQ(error.find("carries no shader-validation flavour"), std::string::npos) << error;
}

// Test that the library a kernel library links against has no undefined symbols: a kernel
// declaring a host function is refused before it can call into the process.
TEST_F(KernelCompilerTest, KernelsCannotReachHostFunctions) {
    support::writeFileAtomically(dir_ + "/evil.metal",
                                 "int system(const char*);\n"
                                 "kernel void k(device int* out [[buffer(0)]]) { out[0] = system(\"true\"); }\n");
    CompileResult translated = translateFile(dir_ + "/evil.metal", {}, {}, dir_ + "/evil.cpp");
    EXPECT_FALSE(translated.ok);
    EXPECT_NE(translated.diagnostics.find("evil.metal:1:"), std::string::npos) << translated.diagnostics;
}

// Test that the code a time limit is counted by leaves out the sources a translated file
// carries as text: both flavours, whatever their raw strings' delimiters; code after them counts.
TEST(TranslatedCodeBytes, EmbeddedSourcesAreNotCode) {
    const std::string code = "#include <metalcpu/kernel_prelude.h>\nint kernel_code;\n";
    EXPECT_EQ(translatedCodeBytes(code), code.size());
    const std::string carried(5000, 'x');
    const std::string tricky = "a )mcv\" b"; // makes embedSource() pick another delimiter
    const std::string embedded = embedSpecialisationSource(carried) + embedValidationSource(tricky + carried);
    const std::string file = code + embedded + code;
    EXPECT_EQ(translatedCodeBytes(file), file.size() - carried.size() - tricky.size() - carried.size());
}

} // namespace
} // namespace metalcpu::jit
