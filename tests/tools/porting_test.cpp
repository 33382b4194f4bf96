// Builds written for macOS, run on metalcpu's tools: xcrun, depfiles, a Makefile ported by
// PATH alone.
#include "tools/tool_fixture.h"

#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>

namespace metalcpu::tools {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kBin = TOOLS_BIN_DIR;
const std::string kXcrun = kBin + "/xcrun";
const std::string kMetal = kBin + "/metal";

/// The environment of a macOS build run here: metalcpu's bin/ first on PATH, and a kernel
/// cache of the test's own.
class PortingTest : public ToolsTest {
protected:
    void SetUp() override {
        ToolsTest::SetUp();
        cache_ = dir_ + "/cache";
        const char* path = std::getenv("PATH");
        environment_ = {"PATH=" + kBin + ":" + (path ? path : "/usr/bin:/bin"), "METALCPU_CACHE_DIR=" + cache_};
    }
    support::ProcessResult inPort(const std::vector<std::string>& argv) const { return run(argv, environment_); }

    std::string cache_;
    std::vector<std::string> environment_;
};

// Test xcrun's forms: running each tool under any SDK, finding it, the SDK path, and a
// clear error for anything else.
TEST_F(PortingTest, XcrunForms) {
    support::ProcessResult found = inPort({kXcrun, "-f", "metal"});
    EXPECT_EQ(found.exitCode, 0);
    EXPECT_EQ(found.output, kBin + "/metal\n");
    EXPECT_EQ(inPort({kXcrun, "-sdk", "macosx", "--find", "metallib"}).output, kBin + "/metallib\n");
    EXPECT_EQ(inPort({kXcrun, "--sdk", "iphoneos", "-f", "metal-ar"}).output, kBin + "/metal-ar\n");
    EXPECT_EQ(inPort({kXcrun, "--show-sdk-path"}).output, kBin.substr(0, kBin.rfind('/')) + "\n");
    support::ProcessResult version = inPort({kXcrun, "-sdk", "macosx", "metal", "--version"});
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.output.rfind("metalcpu metal ", 0), 0u) << version.output;
    support::ProcessResult compiled = inPort({kXcrun, "--sdk=macosx", "metal", "-c", "b.metal", "-o", "b.air"});
    EXPECT_EQ(compiled.exitCode, 0) << compiled.output;
    support::ProcessResult linked = inPort({kXcrun, "-sdk", "macosx", "metallib", "b.air", "-o", "b.metallib"});
    EXPECT_EQ(linked.exitCode, 0) << linked.output;
    EXPECT_EQ(kernelsOf("b.metallib"), std::vector<std::string>{"from_b"});
    EXPECT_EQ(inPort({kXcrun, "metal-ar", "rcs", "b.a", "b.air"}).exitCode, 0);
    EXPECT_TRUE(exists("b.a"));

    for (const std::vector<std::string>& wrong : std::vector<std::vector<std::string>>{
             {kXcrun, "clang", "-c", "x.c"}, {kXcrun, "-f", "clang"}, {kXcrun, "-sdk", "macosx", "metal-objdump"}}) {
        support::ProcessResult refused = inPort(wrong);
        EXPECT_EQ(refused.exitCode, 1) << wrong[1];
        EXPECT_TRUE(contains(refused.output, "xcrun: error: unable to find utility \"")) << refused.output;
        EXPECT_TRUE(contains(refused.output, "metalcpu's xcrun runs metal, metallib and metal-ar only")) << refused.output;
    }
    EXPECT_TRUE(contains(inPort({kXcrun, "--show-sdk-version"}).output, "xcrun: error: unknown option '--show-sdk-version'"));
    EXPECT_TRUE(contains(inPort({kXcrun, "-sdk"}).output, "xcrun: error: missing value after -sdk"));
}

// Test the depfile of -MMD -MP: the source, its header and the metal tool, never a header of
// metalcpu's (in the versioned cache); an empty rule for each but the source.
TEST_F(PortingTest, DepfilesNameOnlyStableFiles) {
    write("h.h", "#define SCALE 2\n");
    write("k.metal", "#include <metal_stdlib>\n#include \"h.h\"\nkernel void k(device int* o [[buffer(0)]]) { o[0] = SCALE; }\n");
    support::ProcessResult made = inPort({kMetal, "-c", "k.metal", "-o", "out.air", "-MMD", "-MP"});
    ASSERT_EQ(made.exitCode, 0) << made.output;
    const std::string metal = support::resolvedPath(kBin + "/metal");
    EXPECT_EQ(read("out.d"), "out.air: \\\n  k.metal \\\n  h.h \\\n  " + metal + "\n\nh.h:\n\n" + metal + ":\n");
    EXPECT_FALSE(contains(read("out.d"), cache_));
    EXPECT_FALSE(contains(read("out.d"), "metal_stdlib"));

    // -MMD leaves out -isystem headers, -MD keeps them; -MQ quotes its target.
    ASSERT_EQ(mkdir((dir_ + "/sys").c_str(), 0755), 0);
    write("sys/s.h", "");
    write("s.metal", "#include <s.h>\nkernel void s(device int* o [[buffer(0)]]) { o[0] = 1; }\n");
    ASSERT_EQ(inPort({kMetal, "-c", "s.metal", "-isystem", "sys", "-MMD", "-MF", "user.d"}).exitCode, 0);
    EXPECT_FALSE(contains(read("user.d"), "s.h"));
    ASSERT_EQ(inPort({kMetal, "-c", "s.metal", "-isystem", "sys", "-MD", "-MF", "all.d", "-MQ", "$(OUT) x"}).exitCode, 0);
    EXPECT_TRUE(contains(read("all.d"), "sys/s.h"));
    EXPECT_EQ(read("all.d").rfind("$$(OUT)\\ x: \\\n  s.metal \\\n", 0), 0u) << read("all.d");

    // Linking sources straight into a library: one rule, for the library.
    ASSERT_EQ(inPort({kMetal, "k.metal", "s.metal", "-isystem", "sys", "-o", "lib.metallib", "-MD"}).exitCode, 0);
    EXPECT_EQ(read("lib.d").rfind("lib.metallib: \\\n  k.metal \\\n  h.h \\\n  " + metal + " \\\n  s.metal \\\n", 0), 0u)
        << read("lib.d");
}

/// A Makefile as written for macOS: tools through xcrun, the SDK path asked of it, depfiles
/// with -MMD -MP.
constexpr const char kMakefile[] = "SDK := $(shell xcrun --show-sdk-path)\n"
                                   "METAL := $(shell xcrun -sdk macosx -f metal)\n"
                                   "all: kernels.metallib\n"
                                   "%.air: %.metal\n"
                                   "\txcrun -sdk macosx metal -c $< -o $@ -MMD -MP -isysroot $(SDK) -mmacosx-version-min=14.0\n"
                                   "kernels.metallib: k.air m.air\n"
                                   "\txcrun -sdk macosx metallib $^ -o $@\n"
                                   "check:\n"
                                   "\ttest -x $(METAL)\n"
                                   "-include k.d m.d\n";

// Test that a macOS Makefile runs unchanged with metalcpu's bin/ on PATH; that after the
// kernel cache is removed make still runs (nothing to do: the depfiles name no cached header);
// and that changing a header rebuilds what includes it.
TEST_F(PortingTest, MakefilePortedByPath) {
    const std::string make = support::findProgram("make");
    ASSERT_FALSE(make.empty()) << "make is needed to test Makefiles";
    write("Makefile", kMakefile);
    write("h.h", "#define SCALE 2\n");
    write("k.metal", "#include <metal_stdlib>\n#include \"h.h\"\nkernel void k(device int* o [[buffer(0)]]) { o[0] = SCALE; }\n");
    write("m.metal", "kernel void m(device int* o [[buffer(0)]]) { o[0] = 1; }\n");
    support::ProcessResult built = inPort({make, "all", "check"});
    ASSERT_EQ(built.exitCode, 0) << built.output;
    EXPECT_EQ(kernelsOf("kernels.metallib"), (std::vector<std::string>{"k", "m"}));
    EXPECT_TRUE(exists("k.d") && exists("m.d"));

    support::removeTree(cache_);
    support::ProcessResult again = inPort({make});
    EXPECT_EQ(again.exitCode, 0) << again.output;
    EXPECT_TRUE(contains(again.output, "Nothing to be done")) << again.output;

    // A header changes (a second later, for file systems that keep whole seconds).
    struct stat before {};
    ASSERT_EQ(stat((dir_ + "/k.air").c_str(), &before), 0);
    write("h.h", "#define SCALE 3\n");
    const timespec later[2] = {{before.st_mtim.tv_sec + 2, 0}, {before.st_mtim.tv_sec + 2, 0}};
    ASSERT_EQ(utimensat(AT_FDCWD, (dir_ + "/h.h").c_str(), later, 0), 0);
    support::ProcessResult rebuilt = inPort({make});
    EXPECT_EQ(rebuilt.exitCode, 0) << rebuilt.output;
    EXPECT_TRUE(contains(rebuilt.output, "metal -c k.metal -o k.air")) << rebuilt.output;
    EXPECT_FALSE(contains(rebuilt.output, "metal -c m.metal")) << rebuilt.output;
    EXPECT_TRUE(contains(rebuilt.output, "metallib k.air m.air -o kernels.metallib")) << rebuilt.output;

    // A header removed along with its #include: -MP's empty rule lets make go on.
    write("k.metal", "kernel void k(device int* o [[buffer(0)]]) { o[0] = 4; }\n");
    ASSERT_EQ(utimensat(AT_FDCWD, (dir_ + "/k.metal").c_str(), later, 0), 0);
    std::remove((dir_ + "/h.h").c_str());
    support::ProcessResult withoutHeader = inPort({make});
    EXPECT_EQ(withoutHeader.exitCode, 0) << withoutHeader.output;
}

} // namespace
} // namespace metalcpu::tools
