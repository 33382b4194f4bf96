// Failures of run-time compilation that are not the kernel's fault reach the program as
// Metal's do: nullptr and an NS::Error, never a C++ exception. A compile stopped by one of
// the METALCPU_COMPILE_* limits says which, and the variable that raises it.
#include "jit/compiler_process.h"
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/config.h"
#include "support/files.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace metalcpu::jit {
namespace {

/// A 1 KB source whose one macro expands to 10^9 tokens (2 GB of text).
const char kMacroBomb[] = R"(#define A0 x x x x x x x x x x
#define A1 A0 A0 A0 A0 A0 A0 A0 A0 A0 A0
#define A2 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1
#define A3 A2 A2 A2 A2 A2 A2 A2 A2 A2 A2
#define A4 A3 A3 A3 A3 A3 A3 A3 A3 A3 A3
#define A5 A4 A4 A4 A4 A4 A4 A4 A4 A4 A4
#define A6 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5
#define A7 A6 A6 A6 A6 A6 A6 A6 A6 A6 A6
#define A8 A7 A7 A7 A7 A7 A7 A7 A7 A7 A7
kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }
A8
)";

const char kSource[] = "kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n";

/// A few hundred bytes whose initializer expands to `copies` times 2 million tokens, well
/// within METALCPU_COMPILE_SOURCE_LIMIT: nested macros, each ten of the one before.
std::string hugeInitializer(int copies) {
    std::string source = "#define A0 1,1,1,1,1,1,1,1,1,1,\n";
    for (int level = 1; level <= 5; ++level) {
        source += "#define A" + std::to_string(level);
        for (int k = 0; k < 10; ++k) source += " A" + std::to_string(level - 1);
        source += "\n";
    }
    source += "constant int arr[] = {\n";
    for (int k = 0; k < copies; ++k) source += "A5 ";
    return source + "\n};\nkernel void k(device int* out [[buffer(0)]]) { out[0] = arr[0]; }\n";
}

/// Lowers this process's address space (the soft limit, so that compiler children keep theirs).
void limitAddressSpace(std::uint64_t bytes) {
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    limit.rlim_cur = static_cast<rlim_t>(bytes);
    setrlimit(RLIMIT_AS, &limit);
}

/// Each test has its own cache and temporary directory, so that what a compile leaves
/// behind can be counted.
class CompileErrorsTest : public testing::MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        directory_ = scratch_.path().string();
        std::filesystem::create_directory(scratch_.path() / "tmp");
        temporary_.emplace("TMPDIR", directory_ + "/tmp");
        cache_.emplace("METALCPU_CACHE_DIR", directory_ + "/cache");
    }
    void TearDown() override {
        cache_.reset();
        temporary_.reset();
        MetalTest::TearDown();
    }

    /// newLibrary(source): nullptr is expected, and the error's text is returned.
    std::string failedCompile(const std::string& source) {
        NS::Error* error = nullptr;
        MTL::Library* library = nullptr;
        EXPECT_NO_THROW(library = device_->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding),
                                                      nullptr, &error));
        EXPECT_EQ(library, nullptr);
        if (library) library->release();
        if (!error) {
            ADD_FAILURE() << "no NS::Error";
            return {};
        }
        return error->localizedDescription()->utf8String();
    }

    /// Writes an executable shell script and returns its path.
    std::string script(const std::string& name, const std::string& body) {
        std::string path = directory_ + "/" + name;
        EXPECT_TRUE(support::writeFileAtomically(path, "#!/bin/sh\n" + body));
        chmod(path.c_str(), 0700);
        return path;
    }

    std::string compilerFailingAt(const std::string& name, const std::string& action);

    /// Whether a compile left a temporary directory behind.
    bool temporaryLeftovers() const { return !std::filesystem::is_empty(scratch_.path() / "tmp"); }

    testing::TemporaryDirectory scratch_;
    std::string directory_;
    std::optional<testing::ScopedEnvironmentVariable> temporary_, cache_;
};

// Test that newLibrary(source) with a cache directory that is a file fails with an error
// that says why.
TEST_F(CompileErrorsTest, UnusableCacheDirectory) {
    ASSERT_TRUE(support::writeFileAtomically(directory_ + "/file", "not a directory\n"));
    testing::ScopedEnvironmentVariable unusable("METALCPU_CACHE_DIR", directory_ + "/file");
    std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("cache directory"), std::string::npos) << message;
}

// Test that newLibrary(source) with a cache directory others may write to fails with an
// error naming the directory, the rule and the fix.
TEST_F(CompileErrorsTest, UntrustedCacheDirectory) {
    std::filesystem::create_directory(directory_ + "/shared");
    chmod((directory_ + "/shared").c_str(), 0775);
    testing::ScopedEnvironmentVariable shared("METALCPU_CACHE_DIR", directory_ + "/shared");
    std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("the cache directory " + directory_ + "/shared cannot be trusted"), std::string::npos)
        << message;
    EXPECT_NE(message.find("is writable by its group (mode 0775)"), std::string::npos) << message;
    EXPECT_NE(message.find("METALCPU_CACHE_DIR"), std::string::npos) << message;
}

// Test that a compiler that has used METALCPU_COMPILE_TIMEOUT of CPU time, its own child's
// included, is stopped with what it started, the error names the variable, and no
// temporary directory is left.
TEST_F(CompileErrorsTest, TimeLimit) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    testing::ScopedEnvironmentVariable compiler(
        "METALCPU_CXX", script("slow-c++", "sh -c 'while :; do :; done' &\necho sleeper $!\nwait\n"));
    std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("did not finish within 1 s of CPU time"), std::string::npos) << message;
    EXPECT_NE(message.find("METALCPU_COMPILE_TIMEOUT"), std::string::npos) << message;
    EXPECT_FALSE(temporaryLeftovers());
    // The compiler's own child was killed too: it has ended (a zombie at most).
    // The compiler may write only in its own scratch directory: it says its child's pid.
    const std::size_t said = message.find("sleeper ");
    ASSERT_NE(said, std::string::npos) << message;
    const pid_t sleeper = std::stoi(message.substr(said + 8));
    ASSERT_GT(sleeper, 0);
    int pidfd = static_cast<int>(syscall(SYS_pidfd_open, sleeper, 0));
    if (pidfd >= 0) {
        pollfd ended{pidfd, POLLIN, 0};
        EXPECT_EQ(poll(&ended, 1, 10000), 1) << "the compiler's child " << sleeper << " still runs";
        close(pidfd);
    }
}

// Test that a compiler that waits instead of computing (it uses no CPU time) is still
// stopped, after ten times METALCPU_COMPILE_TIMEOUT of wall time, and the error says which.
TEST_F(CompileErrorsTest, WallTimeLimitOfAWaitingCompiler) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    testing::ScopedEnvironmentVariable compiler("METALCPU_CXX", script("waiting-c++", "exec sleep 300\n"));
    std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("did not finish within 10 s of wall time (10 times its CPU time)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("METALCPU_COMPILE_TIMEOUT"), std::string::npos) << message;
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that the time limit grows with the translated code: a source of more than 512 KiB of
// code gets METALCPU_COMPILE_TIMEOUT for each started 512 KiB, and the error says so. The
// compiler preprocesses (and makes its precompiled prelude) as g++ does, and hangs compiling.
TEST_F(CompileErrorsTest, TimeLimitGrowsWithTheCode) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    testing::ScopedEnvironmentVariable compiler(
        "METALCPU_CXX", script("hangs-compiling-c++", "for a; do [ \"$a\" = -shared ] && exec sh -c 'while :; do :; done'; done\n"
                                                      "exec " HOST_CXX " \"$@\"\n"));
    std::string source;
    for (int i = 0; i < 12000; ++i) // about 600 KiB
        source += "int helper_number_" + std::to_string(i) + "(int x) { return x + " + std::to_string(i) + "; }\n";
    source += kSource;
    const std::string message = failedCompile(source);
    EXPECT_NE(message.find("did not finish within 2 s of CPU time"), std::string::npos) << message.substr(0, 2000);
    EXPECT_NE(message.find("METALCPU_COMPILE_TIMEOUT=1 s for each started 512 KiB of the "), std::string::npos)
        << message.substr(0, 2000);
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that a shader-validation flavour's compile may take kValidationCompileTimeFactor times
// METALCPU_COMPILE_TIMEOUT (its instrumented -O3 code costs that much more than the plain
// compile, which gets the limit alone), and that its error says so. The compiler compiles the
// plain library as g++ does and hangs on the flavour (the only compile with -funswitch-loops).
TEST_F(CompileErrorsTest, ValidationFlavourGetsAMultipleOfTheTimeLimit) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    testing::ScopedEnvironmentVariable prelude("METALCPU_PRECOMPILED_PRELUDE", "0");
    testing::ScopedEnvironmentVariable compiler(
        "METALCPU_CXX",
        script("hangs-on-the-flavour-c++",
               "for a; do [ \"$a\" = -funswitch-loops ] && exec sh -c 'while :; do :; done'; done\n"
               "exec " HOST_CXX " \"$@\"\n"));
    MTL::Library* library = compile(kSource);
    ASSERT_NE(library, nullptr);
    std::string message;
    MTL::ComputePipelineState* state = pipelineOrError(library, "k", MTL::ShaderValidationEnabled, &message);
    library->release();
    EXPECT_EQ(state, nullptr);
    if (state) state->release();
    EXPECT_NE(message.find("did not finish within " + std::to_string(kValidationCompileTimeFactor) + " s of CPU time"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(std::to_string(kValidationCompileTimeFactor) + " times METALCPU_COMPILE_TIMEOUT=1 s"),
              std::string::npos)
        << message;
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that a real compile stopped at the time limit leaves none of the compiler's own
// temporary files behind (a killed compiler cannot remove them).
TEST_F(CompileErrorsTest, TimeLimitOfARealCompile) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    // Constant evaluation of 4e10 steps: minutes.
    std::string message = failedCompile(
        "constexpr long slow() {\n"
        "    long s = 0;\n"
        "    for (long i = 0; i < 200000; ++i) for (long j = 0; j < 200000; ++j) s += i ^ j;\n"
        "    return s;\n"
        "}\n"
        "constant long kSlow = slow();\n"
        "kernel void k(device long* out [[buffer(0)]]) { out[0] = kSlow; }\n");
    EXPECT_NE(message.find("did not finish within 1 s"), std::string::npos) << message;
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that the macro bomb stops at METALCPU_COMPILE_MEMORY_LIMIT with an error naming it,
// a message of bounded size, and nothing left behind.
TEST_F(CompileErrorsTest, MemoryLimit) {
    testing::ScopedEnvironmentVariable memory("METALCPU_COMPILE_MEMORY_LIMIT", "128");
    testing::ScopedEnvironmentVariable noSourceLimit("METALCPU_COMPILE_SOURCE_LIMIT", "0");
    std::string message = failedCompile(kMacroBomb);
    EXPECT_NE(message.find("out of memory within its limit of 128 MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("METALCPU_COMPILE_MEMORY_LIMIT"), std::string::npos) << message;
    EXPECT_LT(message.size(), 4096u);
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that the macro bomb stops at METALCPU_COMPILE_SOURCE_LIMIT with an error naming it.
TEST_F(CompileErrorsTest, SourceLimit) {
    testing::ScopedEnvironmentVariable source("METALCPU_COMPILE_SOURCE_LIMIT", "1");
    std::string message = failedCompile(kMacroBomb);
    EXPECT_NE(message.find("exceeds its limit of 1 MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("METALCPU_COMPILE_SOURCE_LIMIT"), std::string::npos) << message;
    EXPECT_LT(message.size(), 4096u);
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that the front end's own constant folding, which runs in this process, cannot trap:
// LLONG_MIN / -1 in a binding index (SIGFPE on x86-64) is an error, not a dead process.
TEST_F(CompileErrorsTest, FrontEndArithmeticCannotTrap) {
    std::string message = failedCompile(
        "kernel void k(device long* a [[buffer((-9223372036854775807 - 1) / -1)]]) { a[0] = 1; }\n");
    EXPECT_NE(message.find("program_source:1:32: error: the index in [[buffer]] of parameter 'a' must be an "
                           "integer constant"),
              std::string::npos)
        << message;
}

// Test that brackets nested past Metal's limit of 256 are an error, not a stack overflow in the
// front end, which runs in this process (100000 nested namespaces crashed it).
TEST_F(CompileErrorsTest, DeepNestingIsAnError) {
    std::string nested;
    for (int i = 0; i < 100000; ++i) nested += "namespace a { ";
    std::string message = failedCompile(nested + std::string(100000, '}') + "\n" + kSource);
    EXPECT_NE(message.find("program_source:1:3597: error: bracket nesting level exceeded maximum of 256"),
              std::string::npos)
        << message.substr(0, 500);
}

// Test that the front end, which runs in this process, is bounded by default: a source of 6
// million tokens fails at METALCPU_COMPILE_TOKEN_LIMIT, naming it, inside a 2.5 GB address
// space; and with the limit lifted, running out of memory there is a failed compile with an
// NS::Error, not a std::bad_alloc through newLibrary() (which ended the process).
TEST_F(CompileErrorsTest, HugeSourcesAreBounded) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
#if !defined(__SANITIZE_ADDRESS__)
            // AddressSanitizer's shadow already takes terabytes of address space, so under it
            // the token limit is checked without an address-space limit, and not running out.
            limitAddressSpace(2500ull << 20);
#endif
            const std::string message = failedCompile(hugeInitializer(3));
            const bool named = message.find("program_source:8:") != std::string::npos &&
                               message.find("error: the preprocessed source has more than 4000000 tokens") !=
                                   std::string::npos &&
                               message.find("METALCPU_COMPILE_TOKEN_LIMIT") != std::string::npos;
            std::fputs(message.substr(0, 300).c_str(), stderr);
            std::exit(named ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
#if !defined(__SANITIZE_ADDRESS__)
    EXPECT_EXIT(
        {
            testing::ScopedEnvironmentVariable unlimited("METALCPU_COMPILE_TOKEN_LIMIT", "0");
            limitAddressSpace(1500ull << 20);
            const std::string message = failedCompile(hugeInitializer(5));
            std::fputs(message.substr(0, 300).c_str(), stderr);
            std::exit(message.find("error: this process ran out of memory while compiling the kernels") !=
                              std::string::npos
                          ? 0
                          : 1);
        },
        ::testing::ExitedWithCode(0), "");
#endif
}

// Test that an explicit instantiation the host compiler rejects is reported at the
// instantiation's own line first (not only inside the generated glue), and that the messages
// stop at Clang's error limit (20) instead of cascading.
TEST_F(CompileErrorsTest, BadInstantiationIsReportedAtItsLine) {
    const std::string message = failedCompile(
        "#include <metal_stdlib>\nusing namespace metal;\n"
        "template <typename U = bool> struct And { static constexpr constant bool init = true; };\n"
        "template <typename T, typename Op>\n"
        "[[kernel]] void red(device T* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = Op::init; }\n"
        "template [[host_name(\"red_and\")]] [[kernel]] void red<bool, And>(device bool*, uint);\n");
    const std::size_t first = message.find("error:");
    ASSERT_NE(first, std::string::npos) << message;
    EXPECT_NE(message.rfind("program_source:6:", first), std::string::npos) << message;
    std::size_t errors = 0;
    for (std::size_t at = message.find("error:"); at != std::string::npos; at = message.find("error:", at + 1)) ++errors;
    EXPECT_LE(errors, 21u) << message;
}

// Test that a compiler that writes megabytes of messages yields an error of bounded size
// that says how much was cut.
TEST_F(CompileErrorsTest, MessagesAreCapped) {
    testing::ScopedEnvironmentVariable compiler(
        "METALCPU_CXX", script("chatty-c++", "yes e | head -c 10000000 >&2\nexit 1\n"));
    std::string message = failedCompile(kSource);
    EXPECT_LT(message.size(), 2 * 64 * 1024u);
    EXPECT_NE(message.find("9934464 more bytes of compiler output cut"), std::string::npos)
        << message.substr(message.size() - 200);
}

// A compiler that fails without a word must not make an error without one: the message says
// which step failed, how the compiler ended, and that it printed nothing.

/// Writes a compiler that runs as g++ (it preprocesses, it answers --version) but does
/// `action` when it builds kernels: with -shared (the compile of a whole file into a library,
/// or the link of its parts) or -c (the compile of a part).
std::string CompileErrorsTest::compilerFailingAt(const std::string& name, const std::string& action) {
    return script(name, "for a; do case \"$a\" in -shared|-c) " + action + ";; esac; done\nexec " HOST_CXX " \"$@\"\n");
}

// Test that a compiler that exits 1 printing nothing gives an error naming the step (the
// compile of program_source for a level), the compiler, its exit code, and its silence.
TEST_F(CompileErrorsTest, SilentExitIsExplained) {
    const std::string compiler = compilerFailingAt("silent-c++", "exit 1");
    testing::ScopedEnvironmentVariable cxx("METALCPU_CXX", compiler);
    const std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("error: compiling program_source for "), std::string::npos) << message;
    EXPECT_NE(message.find(": the compiler (" + compiler + ") exited with code 1 and printed nothing\n"),
              std::string::npos)
        << message;
}

// Test that a compiler killed by a signal (as the out-of-memory killer does) gives an error
// naming the step, the signal by number and name, and the compiler's silence.
TEST_F(CompileErrorsTest, SignalIsExplained) {
    testing::ScopedEnvironmentVariable cxx("METALCPU_CXX", compilerFailingAt("killed-c++", "kill -KILL $$"));
    const std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("error: compiling program_source for "), std::string::npos) << message;
    EXPECT_NE(message.find(" was ended by signal 9 (SIGKILL: "), std::string::npos) << message;
    EXPECT_NE(message.find(") and printed nothing\n"), std::string::npos) << message;
}

// Test that a silent compiler stopped at METALCPU_COMPILE_TIMEOUT gives an error naming the
// step, the limit and its value, and the compiler's silence.
TEST_F(CompileErrorsTest, SilentTimeLimitIsExplained) {
    testing::ScopedEnvironmentVariable timeout("METALCPU_COMPILE_TIMEOUT", "1");
    testing::ScopedEnvironmentVariable cxx(
        "METALCPU_CXX", compilerFailingAt("silent-slow-c++", "exec sh -c 'while :; do :; done'"));
    const std::string message = failedCompile(kSource);
    EXPECT_NE(message.find("error: compiling program_source for "), std::string::npos) << message;
    EXPECT_NE(message.find(" did not finish within 1 s of CPU time and was stopped, having printed nothing "
                           "(METALCPU_COMPILE_TIMEOUT raises the limit; 0 removes it)\n"),
              std::string::npos)
        << message;
    EXPECT_FALSE(temporaryLeftovers());
}

// Test that when a part of a file compiled in parts is killed, and the compile of the whole
// file that follows fails too, the error names both: the whole compile, and after it the part
// by number and kernels, and the signal that ended it.
TEST_F(CompileErrorsTest, KilledPartIsNamed) {
    testing::ScopedEnvironmentVariable jobs("METALCPU_COMPILE_JOBS", "2");
    const std::string compiler = script(
        "parts-killed-c++",
        "for a; do case \"$a\" in -c) kill -KILL $$;; -shared) exit 1;; esac; done\nexec " HOST_CXX " \"$@\"\n");
    testing::ScopedEnvironmentVariable cxx("METALCPU_CXX", compiler);
    // Three kernels and more than compile_parts.h's kPartCodeBytes of code: two parts.
    std::string source = "constant float kTable[8000] = {";
    for (int i = 0; i < 8000; ++i) source += std::to_string(i) + ".25f, ";
    source += "};\n";
    for (const char* name : {"first", "second", "third"})
        source += "kernel void " + std::string(name) +
                  "(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = kTable[i]; }\n";
    const std::string message = failedCompile(source);
    EXPECT_NE(message.find(": the compiler (" + compiler + ") exited with code 1 and printed nothing\n"),
              std::string::npos)
        << message;
    const std::size_t note = message.find("\nnote: program_source for ");
    ASSERT_NE(note, std::string::npos) << message;
    const std::string part = message.substr(note);
    EXPECT_NE(part.find(" was compiled whole because compiling part 1 of 2 of program_source for "), std::string::npos)
        << message;
    EXPECT_NE(part.find(" (kernels first, third) failed: the compiler (" + compiler +
                        ") was ended by signal 9 (SIGKILL: "),
              std::string::npos)
        << message;
}

// Test, against the explanations above, that a real compile error is the compiler's own
// message at the source's line, with nothing added.
TEST_F(CompileErrorsTest, CompileErrorIsTheCompilersOwn) {
    const std::string message =
        failedCompile("kernel void k(device int* out [[buffer(0)]]) {\n    out[0] = not_declared;\n}\n");
    EXPECT_NE(message.find("program_source:2:14: error: 'not_declared' was not declared in this scope"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("the compiler ("), std::string::npos) << message;
}

} // namespace
} // namespace metalcpu::jit
