#include "jit/kernel_library.h"
#include "jit/library_file.h"
#include "support/files.h"
#include "support/process.h"
#include "tools/tool_options.h"

#include <gtest/gtest.h>

namespace metalcpu::tools {
namespace {

// Test the -std= spellings Apple's tool accepts.
TEST(ToolOptions, LanguageVersions) {
    EXPECT_EQ(languageVersionOf("metal3.1"), 310);
    EXPECT_EQ(languageVersionOf("macos-metal2.4"), 240);
    EXPECT_EQ(languageVersionOf("ios-metal1.2"), 120);
    EXPECT_EQ(languageVersionOf("metal4.0"), 400);
    EXPECT_EQ(languageVersionOf("c++17"), -1);
    EXPECT_EQ(languageVersionOf("metal3"), -1);
}

// Test that the usual command line parses, in both spellings of -I and -D.
TEST(ToolOptions, ParsesAppleCommandLines) {
    MetalOptions options = parseMetalOptions({"-c", "a.metal", "-o", "a.air", "-I", "inc", "-Iother", "-DX=1", "-D",
                                              "Y", "-std=metal3.1", "-g", "-O2", "-MD", "-MF", "a.d",
                                              "-fmetal-enable-logging"});
    EXPECT_TRUE(options.error.empty()) << options.error;
    EXPECT_TRUE(options.compileOnly);
    EXPECT_EQ(options.inputs, std::vector<std::string>{"a.metal"});
    EXPECT_EQ(options.output, "a.air");
    EXPECT_EQ(options.includeDirectories, (std::vector<std::string>{"inc", "other"}));
    EXPECT_EQ(options.macros, (std::vector<std::string>{"X=1", "Y", jit::kEnableLoggingMacro}));
    EXPECT_EQ(options.languageVersion, 310);
    EXPECT_EQ(options.depfile, "a.d");
}

// Test that mistakes on the command line are errors with a reason.
TEST(ToolOptions, RejectsBadCommandLines) {
    EXPECT_FALSE(parseMetalOptions({}).error.empty());
    EXPECT_FALSE(parseMetalOptions({"a.metal", "-o"}).error.empty());
    EXPECT_FALSE(parseMetalOptions({"a.metal", "-std=metal9"}).error.empty());
}

/// 300 bytes whose initializer expands to 6 million tokens: 6 MB preprocessed, well within
/// METALCPU_COMPILE_SOURCE_LIMIT, that the front end (in the tool's process) would need over
/// a gigabyte for.
constexpr const char kHugeInitializer[] = "#define A0 1,1,1,1,1,1,1,1,1,1,\n"
                                          "#define A1 A0 A0 A0 A0 A0 A0 A0 A0 A0 A0\n"
                                          "#define A2 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1\n"
                                          "#define A3 A2 A2 A2 A2 A2 A2 A2 A2 A2 A2\n"
                                          "#define A4 A3 A3 A3 A3 A3 A3 A3 A3 A3 A3\n"
                                          "#define A5 A4 A4 A4 A4 A4 A4 A4 A4 A4 A4\n"
                                          "constant int arr[] = {\nA5 A5 A5\n};\n"
                                          "kernel void k(device int* a [[buffer(0)]]) { a[0] = arr[0]; }\n";

class ToolsTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = support::makeTemporaryDirectory("metalcpu-tools-test-");
        support::writeFileAtomically(dir_ + "/a.metal", "kernel void from_a(device int* out [[buffer(0)]]) { out[0] = A; }\n");
        support::writeFileAtomically(dir_ + "/b.metal", "kernel void from_b(device int* out [[buffer(0)]]) { out[0] = 2; }\n");
    }
    void TearDown() override { support::removeTree(dir_); }
    std::string dir_;
};

// Test that the front end's memory is bounded by default: under a 2.5 GB address space the
// metal tool refuses a source of millions of tokens at METALCPU_COMPILE_TOKEN_LIMIT, naming the
// variable; and with the limit lifted, running out of memory is an error, not std::terminate().
TEST_F(ToolsTest, HugeSourcesAreBounded) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/huge.metal", kHugeInitializer));
    support::ProcessLimits limits;
    limits.addressSpaceBytes = 2500ull << 20;
    const std::vector<std::string> compile = {METAL_TOOL, "-c", "huge.metal", "-o", "huge.air"};
    support::ProcessResult bounded = support::runProcess(compile, dir_, limits);
    EXPECT_EQ(bounded.exitCode, 1) << bounded.output;
    EXPECT_NE(bounded.output.find("huge.metal:8:"), std::string::npos) << bounded.output;
    EXPECT_NE(bounded.output.find("error: the preprocessed source has more than 4000000 tokens"), std::string::npos)
        << bounded.output;
    EXPECT_NE(bounded.output.find("(METALCPU_COMPILE_TOKEN_LIMIT raises the limit; 0 removes it)"),
              std::string::npos)
        << bounded.output;
    limits.addressSpaceBytes = 600ull << 20;
    support::ProcessResult unbounded = support::runProcess(compile, dir_, limits, {"METALCPU_COMPILE_TOKEN_LIMIT=0"});
    EXPECT_EQ(unbounded.exitCode, 1) << unbounded.output;
    EXPECT_NE(unbounded.output.find("metal: error: out of memory"), std::string::npos) << unbounded.output;
}

// Test `metal -c` per file and `metallib` linking both into one library.
TEST_F(ToolsTest, CompileAndLink) {
    support::ProcessResult a = support::runProcess({METAL_TOOL, "-c", "a.metal", "-o", "a.air", "-DA=1"}, dir_);
    ASSERT_EQ(a.exitCode, 0) << a.output;
    support::ProcessResult b = support::runProcess({METAL_TOOL, "-c", "b.metal", "-o", "b.air"}, dir_);
    ASSERT_EQ(b.exitCode, 0) << b.output;
    support::ProcessResult linked = support::runProcess({METALLIB_TOOL, "a.air", "b.air", "-o", "default.metallib"}, dir_);
    ASSERT_EQ(linked.exitCode, 0) << linked.output;
    std::string error;
    auto library = jit::KernelLibrary::open(dir_ + "/default.metallib", &error);
    ASSERT_NE(library, nullptr) << error;
    EXPECT_EQ(library->kernelNames(), (std::vector<std::string>{"from_a", "from_b"}));
    EXPECT_EQ(jit::checkLibraryFile(support::readFile(dir_ + "/default.metallib").value_or("")), "")
        << "metallib seals what it writes";
}

// Test that `metal` without -c writes a library directly.
TEST_F(ToolsTest, CompileStraightToLibrary) {
    support::ProcessResult made = support::runProcess({METAL_TOOL, "a.metal", "b.metal", "-DA=3", "-o", "both.metallib"}, dir_);
    ASSERT_EQ(made.exitCode, 0) << made.output;
    EXPECT_EQ(jit::checkLibraryFile(support::readFile(dir_ + "/both.metallib").value_or("")), "")
        << "metal seals what it writes";
}

// Test that metallib refuses to write a library that would run code while it loads (here
// an object built by hand with a dynamic initialiser), and leaves no file behind.
TEST_F(ToolsTest, LoadTimeCodeIsRefused) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/init.cpp", "static int f() { return 1; }\nint x = f();\n"));
    support::ProcessResult object = support::runProcess({HOST_CXX, "-c", "-fPIC", "init.cpp", "-o", "init.air"}, dir_);
    ASSERT_EQ(object.exitCode, 0) << object.output;
    support::ProcessResult linked = support::runProcess({METALLIB_TOOL, "init.air", "-o", "init.metallib"}, dir_);
    EXPECT_NE(linked.exitCode, 0);
    EXPECT_NE(linked.output.find("it runs code while it loads (DT_INIT_ARRAY"), std::string::npos) << linked.output;
    EXPECT_FALSE(support::fileExists(dir_ + "/init.metallib"));
}

// Test that a compile error fails the tool with the .metal file's name and line.
TEST_F(ToolsTest, ErrorsFailWithLocation) {
    support::ProcessResult failed = support::runProcess({METAL_TOOL, "-c", "a.metal", "-o", "a.air"}, dir_);
    EXPECT_NE(failed.exitCode, 0);
    EXPECT_NE(failed.output.find("a.metal:1:"), std::string::npos) << failed.output;
    EXPECT_FALSE(support::fileExists(dir_ + "/a.air"));
}

// Test that `metal -std=` reaches the kernel as __METAL_VERSION__, and that without it the
// kernel sees the default, 3.2, as newLibrary(source) does (runtime/library_test.cpp);
// __HAVE_TENSOR__ comes with 4.0.
TEST_F(ToolsTest, LanguageVersionReachesTheKernel) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/version.metal",
                                             "static_assert(__METAL_VERSION__ == EXPECTED, \"__METAL_VERSION__\");\n"
                                             "#if defined(__HAVE_TENSOR__) != (EXPECTED >= 400)\n"
                                             "#error \"__HAVE_TENSOR__ is defined from Metal 4.0 on\"\n"
                                             "#endif\n"
                                             "kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n"));
    for (const auto& [flags, expected] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"-std=metal3.1"}, "310"}, {{"-std=macos-metal2.4"}, "240"}, {{"-std=metal4.0"}, "400"}, {{}, "320"}}) {
        std::vector<std::string> command = {METAL_TOOL, "-c", "version.metal", "-o", "version.air", "-DEXPECTED=" + expected};
        command.insert(command.end(), flags.begin(), flags.end());
        support::ProcessResult made = support::runProcess(command, dir_);
        EXPECT_EQ(made.exitCode, 0) << expected << ": " << made.output;
    }
    support::ProcessResult wrong =
        support::runProcess({METAL_TOOL, "-c", "version.metal", "-o", "version.air", "-DEXPECTED=310", "-std=metal2.4"}, dir_);
    EXPECT_NE(wrong.exitCode, 0) << "the test can fail";
}

// Test that bad usage prints the usage and fails.
TEST_F(ToolsTest, UsageErrors) {
    support::ProcessResult noInput = support::runProcess({METAL_TOOL});
    EXPECT_NE(noInput.exitCode, 0);
    EXPECT_NE(noInput.output.find("usage"), std::string::npos);
    support::ProcessResult noOutput = support::runProcess({METALLIB_TOOL, "a.air"});
    EXPECT_NE(noOutput.exitCode, 0);
}

} // namespace
} // namespace metalcpu::tools
