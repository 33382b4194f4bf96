// `metal` run with the command lines real projects give Apple's compiler.
#include "tools/tool_fixture.h"

#include <filesystem>
#include <sstream>
#include <sys/stat.h>

namespace metalcpu::tools {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A kernel that compiles only when the preprocessing flags did their work: PRE comes from the
/// -include file, <sys.h> from the -isystem directory, "quoted.h" from the -iquote directory,
/// and FOO (defined by -D) must have been undefined by the -U after it.
class AppleCommandLines : public ToolsTest {
protected:
    void SetUp() override {
        ToolsTest::SetUp();
        ASSERT_EQ(mkdir((dir_ + "/sys").c_str(), 0755), 0);
        ASSERT_EQ(mkdir((dir_ + "/q").c_str(), 0755), 0);
        write("pre.h", "#define PRE 7\n");
        write("sys/sys.h", "#define FROM_SYSTEM 5\n");
        write("q/quoted.h", "#define FROM_QUOTED 3\n");
        write("k.src", "#include <sys.h>\n#include \"quoted.h\"\n"
                       "static_assert(PRE == 7 && FROM_SYSTEM == 5 && FROM_QUOTED == 3, \"preprocessing flags\");\n"
                       "#ifdef FOO\n#error \"-U FOO had no effect\"\n#endif\n"
                       "kernel void k(device int* out [[buffer(0)]]) { out[0] = PRE; }\n");
    }
};

// Test one command line with every flag Xcode and real Makefiles pass: it compiles, the
// flags' values are not inputs, and the ignored ones write nothing (no .dia).
TEST_F(AppleCommandLines, EveryFlagAtOnce) {
    support::ProcessResult made =
        run({METAL_TOOL, "-x", "metal", "-c", "k.src", "-o", "k.air", "-include", "pre.h", "-isystem", "sys", "-iquote",
             "q", "-DFOO=1", "-U", "FOO", "-F", "Frameworks", "-O3", "-g", "-gline-tables-only", "-frecord-sources", "-std=metal3.1",
             "-ffast-math", "-fno-fast-math", "-fmetal-math-mode=relaxed", "-target", "air64-apple-macos14.0",
             "-mmacosx-version-min=14.0", "-arch", "air64", "-isysroot", "/sdk", "-serialize-diagnostics", "k.dia",
             "-Wall", "-Wextra", "-MD", "-MF", "k.d", "-MT", "k.air", "-MP", "-fmodules", "-fno-color-diagnostics"});
    ASSERT_EQ(made.exitCode, 0) << made.output;
    EXPECT_EQ(made.output, "") << "no warnings in this kernel";
    ASSERT_EQ(run({METALLIB_TOOL, "k.air", "-o", "k.metallib"}).exitCode, 0);
    EXPECT_EQ(kernelsOf("k.metallib"), std::vector<std::string>{"k"});
    EXPECT_FALSE(exists("k.dia"));
    EXPECT_FALSE(exists("Frameworks"));
    EXPECT_TRUE(contains(read("k.d"), "pre.h")) << read("k.d");

    // Without the flags the kernel does not compile: the test can fail.
    support::ProcessResult bare = run({METAL_TOOL, "-x", "metal", "-c", "k.src", "-o", "bare.air"});
    EXPECT_EQ(bare.exitCode, 1);
    EXPECT_TRUE(contains(bare.output, "k.src:1:")) << bare.output;
}

// Test the source read from standard input: -x metal and -, named <stdin> in messages, its
// quoted includes found in the working directory; -c from it needs -o.
TEST_F(AppleCommandLines, StandardInput) {
    support::ProcessResult made =
        shell("printf '#include \"pre.h\"\\nkernel void s(device int* o [[buffer(0)]]) { o[0] = PRE; }\\n' | " METAL_TOOL
              " -x metal -c - -o s.air");
    ASSERT_EQ(made.exitCode, 0) << made.output;
    ASSERT_EQ(run({METALLIB_TOOL, "s.air", "-o", "s.metallib"}).exitCode, 0);
    EXPECT_EQ(kernelsOf("s.metallib"), std::vector<std::string>{"s"});
    support::ProcessResult wrong = shell("printf 'kernel void s(device int* o) {\\n o[0] = ;\\n}\\n' | " METAL_TOOL " -c - -o w.air");
    EXPECT_EQ(wrong.exitCode, 1);
    EXPECT_TRUE(contains(wrong.output, "<stdin>:2:")) << wrong.output;
    support::ProcessResult noOutput = shell("true | " METAL_TOOL " -c -");
    EXPECT_TRUE(contains(noOutput.output, "-c with standard input (-) needs -o")) << noOutput.output;
}

// Test tinygrad's offline compile, a pipe from standard input to standard output through both
// tools (`metal -c - -o - | metallib - -o -`), and metal building a library straight to
// standard output; a failed compile writes nothing to the pipe.
TEST_F(AppleCommandLines, StandardInputAndOutputPipe) {
    support::ProcessResult piped =
        shell("printf 'kernel void p(device int* o [[buffer(0)]]) { o[0] = 3; }\\n' | " METAL_TOOL
              " -x metal -c - -o - | " METALLIB_TOOL " - -o - > p.metallib");
    ASSERT_EQ(piped.exitCode, 0) << piped.output;
    EXPECT_EQ(kernelsOf("p.metallib"), std::vector<std::string>{"p"});
    ASSERT_EQ(shell(METAL_TOOL " b.metal -o - > b.metallib").exitCode, 0);
    EXPECT_EQ(kernelsOf("b.metallib"), std::vector<std::string>{"from_b"});
    support::ProcessResult wrong = shell("printf 'kernel void w(device int* o) { o[0] = ; }\\n' | " METAL_TOOL
                                         " -c - -o - > w.air; echo status $?");
    EXPECT_TRUE(contains(wrong.output, "<stdin>:1:")) << wrong.output;
    EXPECT_TRUE(contains(wrong.output, "status 1")) << wrong.output;
    EXPECT_EQ(read("w.air"), "");
    support::ProcessResult twice = shell(METALLIB_TOOL " - - -o x.metallib < /dev/null");
    EXPECT_TRUE(contains(twice.output, "standard input (-) can be read once")) << twice.output;
}

// Test that a source that is not there is named in metal's own words, as Apple's driver
// does, whatever the action, and nothing is written (a CMake rule run from the wrong
// directory meets this first).
TEST_F(AppleCommandLines, MissingSourceIsNamed) {
    for (const std::vector<std::string>& argv : {std::vector<std::string>{METAL_TOOL, "-c", "gone/k.metal", "-o", "k.air"},
                                                 std::vector<std::string>{METAL_TOOL, "gone/k.metal", "-o", "k.metallib"},
                                                 std::vector<std::string>{METAL_TOOL, "-fsyntax-only", "gone/k.metal"},
                                                 std::vector<std::string>{METAL_TOOL, "-E", "gone/k.metal"}}) {
        support::ProcessResult missing = run(argv);
        EXPECT_EQ(missing.exitCode, 1) << argv[1];
        EXPECT_EQ(missing.output, "metal: error: no such file or directory: 'gone/k.metal'\n") << argv[1];
    }
    EXPECT_FALSE(exists("k.air"));
    EXPECT_FALSE(exists("k.metallib"));
}

// Test that -fsyntax-only, -E and -M write nothing but what they are for: an existing
// default.metallib stays as it was, no .air appears.
TEST_F(AppleCommandLines, CheckingWritesNothing) {
    write("default.metallib", "the user's library");
    support::ProcessResult checked = run({METAL_TOOL, "-fsyntax-only", "a.metal", "-DA=1"});
    EXPECT_EQ(checked.exitCode, 0) << checked.output;
    support::ProcessResult failed = run({METAL_TOOL, "-fsyntax-only", "a.metal"});
    EXPECT_EQ(failed.exitCode, 1) << "A is undefined: the host compiler's checks run too";
    EXPECT_TRUE(contains(failed.output, "a.metal:1:")) << failed.output;

    support::ProcessResult preprocessed = run({METAL_TOOL, "-E", "a.metal", "-DA=41+1"});
    EXPECT_EQ(preprocessed.exitCode, 0) << preprocessed.output;
    EXPECT_TRUE(contains(preprocessed.output, "out[0] = 41+1;")) << preprocessed.output;
    ASSERT_EQ(run({METAL_TOOL, "-E", "b.metal", "-o", "b.i"}).exitCode, 0);
    EXPECT_TRUE(contains(read("b.i"), "kernel void from_b"));

    support::ProcessResult rule = run({METAL_TOOL, "-M", "-include", "pre.h", "a.metal", "-MT", "x.air"});
    EXPECT_EQ(rule.exitCode, 0) << rule.output;
    EXPECT_EQ(rule.output.rfind("x.air: \\\n  a.metal \\\n  pre.h \\\n", 0), 0u) << rule.output;

    EXPECT_EQ(read("default.metallib"), "the user's library");
    for (const char* file : {"a.air", "b.air", "a.d"}) EXPECT_FALSE(exists(file)) << file;
}

// Test that an unknown flag is an error naming it, never an input file, and that @file
// arguments are read.
TEST_F(AppleCommandLines, UnknownFlagsAndResponseFiles) {
    support::ProcessResult unknown = run({METAL_TOOL, "-c", "a.metal", "-fbogus-flag", "-o", "a.air"});
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_TRUE(contains(unknown.output, "metal: error: unknown argument '-fbogus-flag'")) << unknown.output;
    EXPECT_FALSE(contains(unknown.output, "input file")) << unknown.output;
    write("args", "-c a.metal\n-o 'from args.air' -DA=1\n");
    support::ProcessResult fromFile = run({METAL_TOOL, "@args"});
    EXPECT_EQ(fromFile.exitCode, 0) << fromFile.output;
    EXPECT_TRUE(exists("from args.air"));
}

// Test --version and -v: the version, and with -v where the tool is, which compiler builds
// kernels and which flags were ignored.
TEST_F(AppleCommandLines, VersionAndVerbose) {
    support::ProcessResult version = run({METAL_TOOL, "--version"});
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.output.rfind("metalcpu metal ", 0), 0u) << version.output;
    support::ProcessResult verbose = run({METAL_TOOL, "-v"});
    EXPECT_EQ(verbose.exitCode, 0);
    EXPECT_TRUE(contains(verbose.output, "InstalledDir: " TOOLS_BIN_DIR "\n")) << verbose.output;
    EXPECT_TRUE(contains(verbose.output, "Kernel compiler: ")) << verbose.output;
    support::ProcessResult ignored = run({METAL_TOOL, "-v", "-c", "b.metal", "-target", "air64-apple-macos14", "-Wshorten-64-to-32"});
    EXPECT_EQ(ignored.exitCode, 0) << ignored.output;
    EXPECT_TRUE(contains(ignored.output, "metal: ignored: -target air64-apple-macos14\n")) << ignored.output;
    EXPECT_TRUE(contains(ignored.output, "metal: ignored: -Wshorten-64-to-32 (the kernel compiler has no such warning)"))
        << ignored.output;
    EXPECT_TRUE(exists("b.air"));
    support::ProcessResult metallib = run({METALLIB_TOOL, "--version"});
    EXPECT_EQ(metallib.output.rfind("metalcpu metallib ", 0), 0u) << metallib.output;
}

// Test that which -W flags the compiler knows is asked once per compiler and list of flags, as
// a build that runs metal once per source wants: a second run with the same flags does not run
// the compiler for them and says the same. Other flags, a kept answer that is damaged and
// another compiler mean asking again, with the same result.
TEST_F(AppleCommandLines, WarningFlagsAreAskedOnce) {
    ASSERT_EQ(mkdir((dir_ + "/cache").c_str(), 0700), 0);
    ASSERT_EQ(mkdir((dir_ + "/tools").c_str(), 0755), 0);
    write("tools/c++", "#!/bin/sh\nexec " HOST_CXX " \"$@\"\n");
    ASSERT_EQ(chmod((dir_ + "/tools/c++").c_str(), 0755), 0);
    // With -v, the unknown flag is listed as ignored; with the debug log, each time the
    // compiler is asked.
    const auto metal = [&](const std::vector<std::string>& flags, const std::string& compiler = "") {
        std::vector<std::string> argv = {METAL_TOOL, "-v", "-fsyntax-only", "b.metal"};
        argv.insert(argv.end(), flags.begin(), flags.end());
        std::vector<std::string> environment = {"METALCPU_CACHE_DIR=" + dir_ + "/cache", "METALCPU_LOG_LEVEL=debug"};
        if (!compiler.empty()) environment.push_back("METALCPU_CXX=" + compiler);
        support::ProcessResult made = run(argv, environment);
        EXPECT_EQ(made.exitCode, 0) << made.output;
        EXPECT_TRUE(contains(made.output, "metal: ignored: -Wshorten-64-to-32 (the kernel compiler has no such warning)\n"))
            << made.output;
        EXPECT_FALSE(contains(made.output, "metal: ignored: -Wall")) << made.output;
        std::size_t asked = 0;
        for (std::size_t at = made.output.find("which of 2 warning flags it knows"); at != std::string::npos;
             at = made.output.find("which of 2 warning flags it knows", at + 1))
            ++asked;
        return asked;
    };
    const std::vector<std::string> flags = {"-Wall", "-Wshorten-64-to-32"};
    EXPECT_EQ(metal(flags), 1u);
    EXPECT_EQ(metal(flags), 0u) << "the answer was kept";
    EXPECT_EQ(metal({"-Wshorten-64-to-32", "-Wall"}), 1u) << "other flags";

    std::error_code error;
    std::size_t damaged = 0;
    for (const auto& kept : std::filesystem::directory_iterator(dir_ + "/cache/warning-flags", error)) {
        ASSERT_TRUE(support::writeFileAtomically(kept.path().string(), "metalcpu warning flags 1\nknown -Wall\n"));
        ++damaged;
    }
    EXPECT_EQ(damaged, 2u);
    EXPECT_EQ(metal(flags), 1u) << "a damaged answer is not read";
    EXPECT_EQ(metal(flags), 0u);

    EXPECT_EQ(metal(flags, dir_ + "/tools/c++"), 1u) << "another compiler";
    EXPECT_EQ(metal(flags, dir_ + "/tools/c++"), 0u);
}

/// A kernel with an unused variable on line 4.
constexpr const char kWarned[] = "#include <metal_stdlib>\n"
                                 "using namespace metal;\n"
                                 "kernel void w(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                                 "    int unused = 3;\n"
                                 "    out[i] = out[i] * 2.0f;\n"
                                 "}\n";

/// A kernel with a barrier, whose translation adds parameters and locals that -Wshadow and
/// -Wextra would warn about, and calls into the standard library that -Wconversion would.
constexpr const char kBarrier[] = "#include <metal_stdlib>\n"
                                  "using namespace metal;\n"
                                  "kernel void b(device float* out [[buffer(0)]], uint tid [[thread_position_in_threadgroup]],\n"
                                  "              uint lane [[thread_index_in_simdgroup]]) {\n"
                                  "    threadgroup float t[64];\n"
                                  "    t[tid] = simd_sum(out[tid]) + float(lane);\n"
                                  "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                  "    out[tid] = t[63 - tid];\n"
                                  "}\n";

// Test that -Wall's warnings are not among the defaults (docs/tools.md, "Warnings"; Clang's
// default too): an unused variable is shown only when asked for.
TEST_F(AppleCommandLines, UnusedVariableOnlyWithWall) {
    write("w.metal", kWarned);
    support::ProcessResult quiet = run({METAL_TOOL, "-c", "w.metal"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.output;
    EXPECT_FALSE(contains(quiet.output, "unused variable")) << quiet.output;
    support::ProcessResult warned = run({METAL_TOOL, "-c", "w.metal", "-Wunused-variable"});
    EXPECT_EQ(warned.exitCode, 0) << warned.output;
    EXPECT_TRUE(contains(warned.output, "w.metal:4:9: warning: unused variable ")) << warned.output;
}

// Test that the host compiler's warnings are shown at the .metal line with the line quoted,
// and nothing about metalcpu's generated code or standard library.
TEST_F(AppleCommandLines, WarningsAtTheMetalLine) {
    write("w.metal", kWarned);
    support::ProcessResult warned = run({METAL_TOOL, "-c", "w.metal", "-Wall", "-Wextra", "-Wshadow", "-Wconversion"});
    EXPECT_EQ(warned.exitCode, 0) << warned.output;
    // (The quotes around names are the locale's.)
    EXPECT_TRUE(contains(warned.output, "w.metal:4:9: warning: unused variable ")) << warned.output;
    EXPECT_TRUE(contains(warned.output, " [-Wunused-variable]\n    4 |     int unused = 3;\n")) << warned.output;
    EXPECT_TRUE(exists("w.air"));

    write("b.metal", kBarrier);
    support::ProcessResult quiet = run({METAL_TOOL, "-c", "b.metal", "-Wall", "-Wextra", "-Wshadow", "-Wconversion"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.output;
    EXPECT_EQ(quiet.output, "") << "nothing about metalcpu's generated code or standard library";

    write("hash.metal", "#warning \"look here\"\nkernel void h(device int* o [[buffer(0)]]) { o[0] = 1; }\n");
    support::ProcessResult directive = run({METAL_TOOL, "-c", "hash.metal"});
    EXPECT_EQ(directive.exitCode, 0) << directive.output;
    EXPECT_TRUE(contains(directive.output, "hash.metal:1:2: warning: #warning \"look here\" [-Wcpp]")) << directive.output;
}

// Kernels whose barriers the front end lowers in each of its three ways, with unused
// variables after a barrier, at the start of a line and after other code on it.
const char kWorkItemLoops[] = "#include <metal_stdlib>\n"
                              "using namespace metal;\n"
                              "kernel void w(device float* out [[buffer(0)]],\n"
                              "              uint tid [[thread_position_in_threadgroup]]) {\n"
                              "    threadgroup float t[64];\n"
                              "    t[tid] = out[tid];\n"
                              "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "    int first = 3;\n"
                              "    float a = t[63 - tid];   int second = 4;\n"
                              "    threadgroup_barrier(mem_flags::mem_threadgroup);  int third = 5;\n"
                              "    out[tid] = a;\n"
                              "}\n";
// The `break` out of the loop that holds the barrier keeps it from work-item loops: a coroutine.
const char kCoroutine[] = "#include <metal_stdlib>\n"
                          "using namespace metal;\n"
                          "kernel void c(device float* out [[buffer(0)]],\n"
                          "              uint tid [[thread_position_in_threadgroup]]) {\n"
                          "    threadgroup float t[64];\n"
                          "    for (uint s = 1;; s *= 2) {\n"
                          "        if (s >= 64) break;\n"
                          "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                          "        int first = 3;\n"
                          "        t[tid] += 1.0f;\n"
                          "    }\n"
                          "    threadgroup_barrier(mem_flags::mem_threadgroup);   int second = 1;\n"
                          "    out[tid] = t[tid];\n"
                          "}\n";
// A barrier inside a lambda keeps the fibers.
const char kFibers[] = "#include <metal_stdlib>\n"
                       "using namespace metal;\n"
                       "kernel void f(device float* data [[buffer(0)]],\n"
                       "              uint lid [[thread_index_in_threadgroup]]) {\n"
                       "    threadgroup float tile[256];\n"
                       "    auto exchange = [&](float x) {\n"
                       "        tile[lid] = x;\n"
                       "        threadgroup_barrier(mem_flags::mem_threadgroup);   int first = 2;\n"
                       "        return tile[255 - lid];\n"
                       "    };\n"
                       "    data[lid] = exchange(data[lid]);\n"
                       "}\n";

// Test that a warning inside a kernel with barriers is shown at its .metal line and column,
// whichever way the barriers are lowered (the passes wrap generated statements around the
// user's, which must not move the user's statements right).
TEST_F(AppleCommandLines, WarningColumnsInBarrierKernels) {
    struct Case {
        const char* file;
        const char* source;
        std::vector<std::string> at; // "line:column: warning: unused variable"
    };
    const Case cases[] = {
        {"w.metal", kWorkItemLoops, {"w.metal:8:9: ", "w.metal:9:34: ", "w.metal:10:59: "}},
        {"c.metal", kCoroutine, {"c.metal:9:13: ", "c.metal:12:60: "}},
        {"f.metal", kFibers, {"f.metal:8:64: "}},
    };
    for (const Case& c : cases) {
        write(c.file, c.source);
        support::ProcessResult warned = run({METAL_TOOL, "-c", c.file, "-Wall"});
        EXPECT_EQ(warned.exitCode, 0) << warned.output;
        for (const std::string& at : c.at)
            EXPECT_TRUE(contains(warned.output, at + "warning: unused variable ")) << at << "\n" << warned.output;
    }
}

// Test -Werror, -Werror=x, -Wno-error=x and -w: a warning made an error fails the run and
// leaves no object; -w shows nothing and fails nothing.
TEST_F(AppleCommandLines, WarningsAsErrors) {
    write("w.metal", kWarned);
    support::ProcessResult all = run({METAL_TOOL, "-c", "w.metal", "-Wall", "-Werror"});
    EXPECT_EQ(all.exitCode, 1);
    EXPECT_TRUE(contains(all.output, "w.metal:4:9: error: unused variable ")) << all.output;
    EXPECT_TRUE(contains(all.output, " [-Werror,-Wunused-variable]\n")) << all.output;
    EXPECT_FALSE(exists("w.air"));
    support::ProcessResult named = run({METAL_TOOL, "-c", "w.metal", "-Werror=unused-variable"});
    EXPECT_EQ(named.exitCode, 1) << named.output;
    EXPECT_FALSE(exists("w.air"));
    support::ProcessResult exempt = run({METAL_TOOL, "-c", "w.metal", "-Wall", "-Werror", "-Wno-error=unused-variable"});
    EXPECT_EQ(exempt.exitCode, 0) << exempt.output;
    EXPECT_TRUE(contains(exempt.output, "warning: unused variable")) << exempt.output;
    support::ProcessResult quiet = run({METAL_TOOL, "-c", "w.metal", "-o", "quiet.air", "-Wall", "-Werror", "-w"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.output;
    EXPECT_EQ(quiet.output, "");
    EXPECT_TRUE(exists("quiet.air"));
}

/// Whether readelf's decoded line table has a row for `line` of the file named `file`.
bool hasLineRow(const std::string& table, const std::string& file, int line) {
    std::istringstream rows(table);
    for (std::string row; std::getline(rows, row);) {
        std::istringstream words(row);
        std::string name, number;
        if (words >> name >> number && name == file && number == std::to_string(line)) return true;
    }
    return false;
}

// Test that -g, -gline-tables-only and -frecord-sources give line tables naming the .metal
// file at the kernel's lines (the translation's #line directives), which addr2line and gdb read,
// that -O reaches the compiler, and that without them there is no debug information.
TEST_F(AppleCommandLines, DebugInformationNamesTheMetalFile) {
    write("d.metal", "kernel void d(device int* out [[buffer(0)]],\n"
                     "              uint i [[thread_position_in_grid]]) {\n"
                     "    int twice = int(i) * 2;\n"
                     "    out[i] = twice + 1;\n"
                     "}\n");
    auto binutils = [&](const std::vector<std::string>& argv) {
        support::ProcessResult done = run(argv);
        EXPECT_EQ(done.exitCode, 0) << done.output;
        return done.output;
    };
    for (const char* flag : {"-g", "-gline-tables-only", "-frecord-sources"}) {
        support::ProcessResult made = run({METAL_TOOL, flag, "-O0", "d.metal", "-o", "d.metallib"});
        ASSERT_EQ(made.exitCode, 0) << flag << ": " << made.output;
        const std::string lines = binutils({"readelf", "--debug-dump=decodedline", "d.metallib"});
        EXPECT_TRUE(contains(lines, dir_ + "/d.metal:")) << flag << "\n" << lines;
        EXPECT_TRUE(hasLineRow(lines, "d.metal", 4)) << flag << "\n" << lines;
        const std::string info = binutils({"readelf", "--debug-dump=info", "d.metallib"});
        EXPECT_TRUE(contains(info, " -O0")) << flag << ": -O0 reaches the compiler (DW_AT_producer)";
        const std::string symbols = binutils({"nm", "d.metallib"});
        const std::size_t kernel = symbols.find(" _Z1d");
        ASSERT_NE(kernel, std::string::npos) << symbols;
        const std::string address = symbols.substr(symbols.rfind('\n', kernel) + 1, 16);
        EXPECT_TRUE(contains(binutils({"addr2line", "-e", "d.metallib", address}), dir_ + "/d.metal:"))
            << flag << " at " << address;
    }
    ASSERT_EQ(run({METAL_TOOL, "d.metal", "-o", "plain.metallib"}).exitCode, 0);
    EXPECT_FALSE(contains(binutils({"readelf", "-S", "plain.metallib"}), ".debug_line"));
}

} // namespace
} // namespace metalcpu::tools
