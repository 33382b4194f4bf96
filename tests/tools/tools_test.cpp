#include "jit/isa.h"
#include "jit/library_file.h"
#include "jit/object_file.h"
#include "process_groups.h"
#include "scoped_state.h"
#include "tools/tool_fixture.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace metalcpu::tools {
namespace {

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

// Test that the front end's memory is bounded by default: under a 2.5 GB address space the
// metal tool refuses a source of millions of tokens at METALCPU_COMPILE_TOKEN_LIMIT, naming the
// variable; and with the limit lifted, running out of memory is an error, not std::terminate().
TEST_F(ToolsTest, HugeSourcesAreBounded) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/huge.metal", kHugeInitializer));
    support::ProcessLimits limits;
    limits.addressSpaceBytes = 2500ull << 20;
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer cannot start under an address-space limit (it reserves terabytes of
    // shadow), so the sanitizer build checks the token limit without one, and not running out.
    limits.addressSpaceBytes = 0;
#endif
    const std::vector<std::string> compile = {METAL_TOOL, "-c", "huge.metal", "-o", "huge.air"};
    support::ProcessResult bounded = support::runProcess(compile, dir_, limits);
    EXPECT_EQ(bounded.exitCode, 1) << bounded.output;
    EXPECT_NE(bounded.output.find("huge.metal:8:"), std::string::npos) << bounded.output;
    EXPECT_NE(bounded.output.find("error: the preprocessed source has more than 4000000 tokens"), std::string::npos)
        << bounded.output;
    EXPECT_NE(bounded.output.find("(METALCPU_COMPILE_TOKEN_LIMIT raises the limit; 0 removes it)"),
              std::string::npos)
        << bounded.output;
#if !defined(__SANITIZE_ADDRESS__)
    limits.addressSpaceBytes = 600ull << 20;
    support::ProcessResult unbounded = support::runProcess(compile, dir_, limits, {"METALCPU_COMPILE_TOKEN_LIMIT=0"});
    EXPECT_EQ(unbounded.exitCode, 1) << unbounded.output;
    EXPECT_NE(unbounded.output.find("metal: error: out of memory"), std::string::npos) << unbounded.output;
#endif
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

// Test that a file with vertex and fragment functions beside its kernel (as Tint writes a
// module) compiles with `metal -c` and links with `metallib`, without a word, into a library
// that holds the kernel and names the render functions (newFunction() says they are not
// supported: runtime/library_test.cpp).
TEST_F(ToolsTest, RenderFunctionsAreLeftOutAndNamed) {
    ASSERT_TRUE(support::writeFileAtomically(
        dir_ + "/mixed.metal",
        "#include <metal_stdlib>\nusing namespace metal;\nstruct VOut { float4 p [[position]]; };\n"
        "vertex VOut vertex_main(uint id [[vertex_id]]) { VOut o = {}; return o; }\n"
        "fragment half4 fragment_main(VOut in [[stage_in]]) { discard_fragment(); return half4(1.0h); }\n"
        "kernel void from_mixed(device int* a [[buffer(0)]]) { a[0] = 1; }\n"));
    support::ProcessResult compiled = support::runProcess({METAL_TOOL, "-c", "mixed.metal", "-o", "mixed.air"}, dir_);
    ASSERT_EQ(compiled.exitCode, 0) << compiled.output;
    EXPECT_EQ(compiled.output, "");
    ASSERT_EQ(support::runProcess({METAL_TOOL, "-c", "a.metal", "-o", "a.air", "-DA=1"}, dir_).exitCode, 0);
    support::ProcessResult linked = support::runProcess({METALLIB_TOOL, "mixed.air", "a.air", "-o", "mixed.metallib"}, dir_);
    ASSERT_EQ(linked.exitCode, 0) << linked.output;
    std::string error;
    auto library = jit::KernelLibrary::open(dir_ + "/mixed.metallib", &error);
    ASSERT_NE(library, nullptr) << error;
    EXPECT_EQ(library->kernelNames(), (std::vector<std::string>{"from_mixed", "from_a"}));
    EXPECT_EQ(library->renderFunctionNames(), (std::vector<std::string>{"vertex_main", "fragment_main"}));
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

// Test that a compiler that fails without a word fails the tools with an error that says
// which step failed and how: `metal -c` whose compiler is killed, and `metallib` whose link
// exits 1, neither printing anything.
TEST_F(ToolsTest, SilentCompilerFailuresAreExplained) {
    write("killed-c++", "#!/bin/sh\nfor a; do [ \"$a\" = -c ] && kill -KILL $$; done\nexec " HOST_CXX " \"$@\"\n");
    write("silent-c++", "#!/bin/sh\nfor a; do [ \"$a\" = -shared ] && exit 1; done\nexec " HOST_CXX " \"$@\"\n");
    chmod((dir_ + "/killed-c++").c_str(), 0700);
    chmod((dir_ + "/silent-c++").c_str(), 0700);

    support::ProcessResult killed =
        run({METAL_TOOL, "-c", "b.metal", "-o", "b.air"}, {"METALCPU_CXX=" + dir_ + "/killed-c++"});
    EXPECT_NE(killed.exitCode, 0) << killed.output;
    EXPECT_NE(killed.output.find("error: compiling b.metal for "), std::string::npos) << killed.output;
    EXPECT_NE(killed.output.find(": the compiler (" + dir_ + "/killed-c++) was ended by signal 9 (SIGKILL: "),
              std::string::npos)
        << killed.output;
    EXPECT_NE(killed.output.find(") and printed nothing\n"), std::string::npos) << killed.output;
    EXPECT_FALSE(exists("b.air"));

    ASSERT_EQ(run({METAL_TOOL, "-c", "a.metal", "-o", "a.air", "-DA=1"}).exitCode, 0);
    ASSERT_EQ(run({METAL_TOOL, "-c", "b.metal", "-o", "b.air"}).exitCode, 0);
    support::ProcessResult linked = run({METALLIB_TOOL, "a.air", "b.air", "-o", "default.metallib"},
                                        {"METALCPU_CXX=" + dir_ + "/silent-c++"});
    EXPECT_NE(linked.exitCode, 0) << linked.output;
    EXPECT_NE(linked.output.find("error: linking a.air, b.air for "), std::string::npos) << linked.output;
    EXPECT_NE(linked.output.find(": the compiler (" + dir_ + "/silent-c++) exited with code 1 and printed nothing\n"),
              std::string::npos)
        << linked.output;
    EXPECT_FALSE(exists("default.metallib"));
}

/// Starts `argv` in `directory` with `environment` added to this process's (before it, so that
/// its entries win), its output discarded, and does not wait for it: its pid.
pid_t startInBackground(const std::vector<std::string>& argv, const std::string& directory,
                        const std::vector<std::string>& environment) {
    // Made before fork: the child makes only async-signal-safe calls.
    std::vector<std::string> variables(environment);
    for (char** entry = environ; *entry; ++entry) variables.push_back(*entry);
    std::vector<char*> args, envp;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    for (const std::string& variable : variables) envp.push_back(const_cast<char*>(variable.c_str()));
    args.push_back(nullptr);
    envp.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        // A shell without job control starts background commands with SIGINT ignored.
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        const int discarded = open("/dev/null", O_WRONLY);
        if (discarded >= 0 && dup2(discarded, STDOUT_FILENO) >= 0 && dup2(discarded, STDERR_FILENO) >= 0 &&
            chdir(directory.c_str()) == 0)
            execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    return pid;
}

// Test that killing `metal` while it compiles ends its compilers too, however it is killed
// (SIGINT from a terminal's ^C, SIGTERM, SIGKILL): none runs on as an orphan. The compiler here
// hangs in a child of its own, as cc1plus runs under the g++ driver.
TEST_F(ToolsTest, KilledToolLeavesNoCompilerRunning) {
    write("stuck-c++", "#!/bin/sh\nfor a; do [ \"$a\" = -c ] && { sleep 300 & wait; exit 1; }; done\nexec " HOST_CXX
                       " \"$@\"\n");
    chmod((dir_ + "/stuck-c++").c_str(), 0700);
    for (int signal : {SIGINT, SIGTERM, SIGKILL}) {
        SCOPED_TRACE(strsignal(signal));
        // TMPDIR: what the killed tool leaves of its temporary files is in the test's directory.
        const pid_t metal = startInBackground({METAL_TOOL, "-c", "b.metal", "-o", "b.air"}, dir_,
                                              {"METALCPU_CXX=" + dir_ + "/stuck-c++", "TMPDIR=" + dir_});
        ASSERT_GT(metal, 0);
        // The process groups of the tool's compiles: each is led by the supervising child the tool forked.
        std::set<pid_t> groups;
        const bool compiling = testing::eventually([&] {
            groups.clear();
            bool hanging = false;
            const std::vector<testing::ProcessEntry> processes = testing::listProcesses();
            for (const testing::ProcessEntry& process : processes)
                if (process.parent == metal && process.pid == process.group) groups.insert(process.group);
            for (const testing::ProcessEntry& process : processes)
                hanging = hanging || (process.command == "sleep" && groups.count(process.group));
            return hanging;
        });
        EXPECT_TRUE(compiling) << "the compiler did not start";

        kill(metal, signal);
        int status = 0;
        const bool ended = testing::eventually([&] { return waitpid(metal, &status, WNOHANG) == metal; });
        if (!ended) {
            kill(metal, SIGKILL);
            waitpid(metal, &status, 0);
        }
        EXPECT_TRUE(ended && WIFSIGNALED(status) && WTERMSIG(status) == signal) << status;
        testing::expectGroupsEnd(groups);
    }
    // What the killed tools left in TMPDIR is removed by the next compile's first scratch
    // directory, which finds their locks let go (support/scratch_directories.h).
    const auto leftovers = [&] {
        std::vector<std::string> names;
        for (const auto& entry : std::filesystem::directory_iterator(dir_))
            if (entry.path().filename().string().starts_with("metalcpu-")) names.push_back(entry.path().filename());
        return names;
    };
    EXPECT_FALSE(leftovers().empty()) << "the killed tools left nothing to remove";
    const support::ProcessResult next = run({METAL_TOOL, "-c", "b.metal", "-o", "b.air"}, {"TMPDIR=" + dir_});
    EXPECT_EQ(next.exitCode, 0) << next.output;
    EXPECT_EQ(leftovers(), std::vector<std::string>{});
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

// Test that a command line without inputs fails saying so.
TEST_F(ToolsTest, UsageErrors) {
    support::ProcessResult noInput = run({METAL_TOOL});
    EXPECT_EQ(noInput.exitCode, 1);
    EXPECT_NE(noInput.output.find("metal: error: no input files (metal --help lists the flags)"), std::string::npos)
        << noInput.output;
    support::ProcessResult metallib = run({METALLIB_TOOL});
    EXPECT_EQ(metallib.exitCode, 1);
    EXPECT_NE(metallib.output.find("metallib: error: no input files"), std::string::npos) << metallib.output;
}

// Test that `-o /dev/null`, the usual way to check that kernels compile, leaves the device
// a device whether the compile succeeds or fails, for metal -c, metal and metallib (through a
// link to /dev/null, so that a regression replaces the link, not the machine's /dev/null).
TEST_F(ToolsTest, OutputToADeviceIsNeverReplaced) {
    ASSERT_EQ(symlink("/dev/null", (dir_ + "/null").c_str()), 0);
    write("bad.metal", "kernel void broken(device int* out [[buffer(0)]]) { out[0] = missing; }\n");
    EXPECT_EQ(run({METAL_TOOL, "-c", "b.metal", "-o", "null"}).exitCode, 0);
    EXPECT_NE(run({METAL_TOOL, "-c", "bad.metal", "-o", "null"}).exitCode, 0);
    EXPECT_EQ(run({METAL_TOOL, "b.metal", "-o", "null"}).exitCode, 0);
    ASSERT_EQ(run({METAL_TOOL, "-c", "b.metal"}).exitCode, 0);
    EXPECT_EQ(run({METALLIB_TOOL, "b.air", "-o", "null"}).exitCode, 0);
    struct stat link {};
    ASSERT_EQ(lstat((dir_ + "/null").c_str(), &link), 0);
    EXPECT_TRUE(S_ISLNK(link.st_mode)) << "the link to /dev/null was replaced or removed";
}

// Test that metallib without -o writes default.metallib, as Apple's does.
TEST_F(ToolsTest, MetallibWritesDefaultLibrary) {
    ASSERT_EQ(run({METAL_TOOL, "-c", "a.metal", "b.metal", "-DA=1"}).exitCode, 0) << "one .air per source, named after it";
    ASSERT_TRUE(exists("a.air") && exists("b.air"));
    support::ProcessResult linked = run({METALLIB_TOOL, "a.air", "b.air"});
    ASSERT_EQ(linked.exitCode, 0) << linked.output;
    EXPECT_EQ(kernelsOf("default.metallib"), (std::vector<std::string>{"from_a", "from_b"}));
}

// Test that every member of an archive made by metal-ar is linked, by metallib and by metal,
// and that thin archives are refused saying why.
TEST_F(ToolsTest, ArchivesAreLinkedWhole) {
    ASSERT_EQ(run({METAL_TOOL, "-c", "a.metal", "b.metal", "-DA=1"}).exitCode, 0);
    const std::string metalAr = std::string(TOOLS_BIN_DIR) + "/metal-ar";
    support::ProcessResult archived = run({metalAr, "rcs", "kernels.a", "a.air", "b.air"});
    ASSERT_EQ(archived.exitCode, 0) << archived.output;
    support::ProcessResult linked = run({METALLIB_TOOL, "kernels.a", "-o", "archive.metallib"});
    ASSERT_EQ(linked.exitCode, 0) << linked.output;
    EXPECT_EQ(kernelsOf("archive.metallib"), (std::vector<std::string>{"from_a", "from_b"}));
    write("c.metal", "kernel void from_c(device int* out [[buffer(0)]]) { out[0] = 3; }\n");
    linked = run({METAL_TOOL, "c.metal", "kernels.a", "-o", "mixed.metallib"});
    ASSERT_EQ(linked.exitCode, 0) << linked.output;
    EXPECT_EQ(kernelsOf("mixed.metallib"), (std::vector<std::string>{"from_c", "from_a", "from_b"})) << "in link order";

    ASSERT_EQ(run({metalAr, "rcsT", "thin.a", "a.air"}).exitCode, 0);
    support::ProcessResult thin = run({METALLIB_TOOL, "thin.a", "-o", "thin.metallib"});
    EXPECT_EQ(thin.exitCode, 1);
    EXPECT_NE(thin.output.find("thin.a is a thin archive"), std::string::npos) << thin.output;
    EXPECT_FALSE(exists("thin.metallib"));
}

// The levels of the images of the library `name`, in the file's order.
std::vector<std::string> levelsOf(const std::string& file) {
    std::vector<jit::LibraryImage> images;
    EXPECT_EQ(jit::checkLibraryFile(file, {}, &images), "");
    std::vector<std::string> levels;
    for (const jit::LibraryImage& image : images) levels.push_back(image.level);
    return levels;
}

// Test that `metal -c` puts an object per default level into the .air and `metallib` an
// image per level into the library, also through archives; that -march= builds one level
// (native: this CPU's); and that objects of different levels link into the levels they
// share, or fail naming each object's levels when they share none.
TEST_F(ToolsTest, InstructionSetLevels) {
    testing::ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
    testing::ScopedEnvironmentVariable flags("METALCPU_KERNEL_FLAGS", std::nullopt);
    ASSERT_EQ(run({METAL_TOOL, "-c", "a.metal", "-DA=1"}).exitCode, 0);
    std::string error;
    std::optional<jit::LinkInput> all = jit::readLinkInput(dir_ + "/a.air", "a.air", &error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->objects.size(), 1u);
    std::vector<std::string> levels;
    for (const jit::ObjectImage& image : all->objects[0].images) levels.push_back(image.level);
    EXPECT_EQ(levels, jit::defaultLevels());

    const std::string baseline = jit::baselineLevel();
    support::ProcessResult one = run({METAL_TOOL, "-c", "b.metal", "-march=" + baseline});
    ASSERT_EQ(one.exitCode, 0) << one.output;
    ASSERT_EQ(run({TOOLS_BIN_DIR "/metal-ar", "rcs", "b.a", "b.air"}).exitCode, 0);
    ASSERT_EQ(run({METALLIB_TOOL, "a.air", "-o", "all.metallib"}).exitCode, 0);
    EXPECT_EQ(levelsOf(read("all.metallib")), jit::defaultLevels());
    support::ProcessResult shared = run({METALLIB_TOOL, "a.air", "b.a", "-o", "shared.metallib"});
    ASSERT_EQ(shared.exitCode, 0) << shared.output;
    EXPECT_EQ(levelsOf(read("shared.metallib")), std::vector<std::string>{baseline});
    EXPECT_EQ(kernelsOf("shared.metallib"), (std::vector<std::string>{"from_a", "from_b"}));

    ASSERT_EQ(run({METAL_TOOL, "b.metal", "-mcpu=native", "-o", "native.metallib"}).exitCode, 0);
    EXPECT_EQ(levelsOf(read("native.metallib")), std::vector<std::string>{jit::hostLevel()});
    // METALCPU_KERNEL_FLAGS' level replaces the default ones.
    support::ProcessResult forced =
        run({METAL_TOOL, "b.metal", "-o", "forced.metallib"}, {"METALCPU_KERNEL_FLAGS=-march=" + baseline});
    ASSERT_EQ(forced.exitCode, 0) << forced.output;
    EXPECT_EQ(levelsOf(read("forced.metallib")), std::vector<std::string>{baseline});

    if (jit::knownLevels().size() < 2) GTEST_SKIP() << "one level on this architecture (issue 14)";
    const std::string other = jit::knownLevels()[1];
    ASSERT_EQ(run({METAL_TOOL, "-c", "a.metal", "-DA=1", "-march=" + other, "-o", "a_other.air"}).exitCode, 0);
    support::ProcessResult none = run({METALLIB_TOOL, "a_other.air", "b.air", "-o", "none.metallib"});
    EXPECT_EQ(none.exitCode, 1);
    EXPECT_NE(none.output.find("no instruction-set level in common: a_other.air for " + other + "; b.air for " + baseline),
              std::string::npos)
        << none.output;
    EXPECT_FALSE(exists("none.metallib"));
}

// Test that a kernel defined by two objects is an error naming the kernel and both files
// (objects, archive members, and the sources metal links), and that no library is written.
TEST_F(ToolsTest, DuplicateKernelsNameBothFiles) {
    write("one.metal", "kernel void scale(device float* x [[buffer(0)]]) { x[0] *= 2; }\n");
    write("two.metal", "kernel void scale(device int* x [[buffer(0)]]) { x[0] *= 3; }\n"
                       "kernel void other(device int* x [[buffer(0)]]) { x[0] = 0; }\n");
    ASSERT_EQ(run({METAL_TOOL, "-c", "one.metal", "two.metal"}).exitCode, 0);
    support::ProcessResult objects = run({METALLIB_TOOL, "one.air", "two.air", "-o", "dup.metallib"});
    EXPECT_EQ(objects.exitCode, 1);
    EXPECT_NE(objects.output.find("error: kernel 'scale' is defined in both one.air and two.air"), std::string::npos)
        << objects.output;
    ASSERT_EQ(run({std::string(TOOLS_BIN_DIR) + "/metal-ar", "rcs", "two.a", "two.air"}).exitCode, 0);
    support::ProcessResult member = run({METALLIB_TOOL, "one.air", "two.a", "-o", "dup.metallib"});
    EXPECT_NE(member.output.find("error: kernel 'scale' is defined in both one.air and two.a(two.air)"), std::string::npos)
        << member.output;
    support::ProcessResult sources = run({METAL_TOOL, "one.metal", "two.metal", "-o", "dup.metallib"});
    EXPECT_EQ(sources.exitCode, 1);
    EXPECT_NE(sources.output.find("error: kernel 'scale' is defined in both one.metal and two.metal"), std::string::npos)
        << sources.output;
    EXPECT_FALSE(exists("dup.metallib"));
}

// Test that files Apple's tools made are refused saying what they are.
TEST_F(ToolsTest, AppleBuiltFilesAreRefused) {
    write("apple.air", std::string("\xDE\xC0\x17\x0B\x00\x00\x00\x00", 8));
    support::ProcessResult linked = run({METALLIB_TOOL, "apple.air"});
    EXPECT_EQ(linked.exitCode, 1);
    EXPECT_NE(linked.output.find("apple.air is Apple's AIR (LLVM bitcode) from Apple's metal: compile its .metal "
                                 "source with metalcpu's metal -c instead"),
              std::string::npos)
        << linked.output;
    EXPECT_FALSE(exists("default.metallib"));
}

} // namespace
} // namespace metalcpu::tools
