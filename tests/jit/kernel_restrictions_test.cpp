// The restricted dialect end to end: what the front end refuses reaches the program as nullptr
// and an NS::Error from newLibrary(source), or as a failed `metal -c`, naming the rule and the
// .metal line; the harmless neighbours compile and run.
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/confinement.h"
#include "support/files.h"
#include "support/process.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace metalcpu::jit {
namespace {

/// Planted in files kernels must not read: no message may ever contain it.
constexpr const char kMarker[] = "METALCPU_SECRET_MARKER";

class KernelRestrictionsTest : public testing::MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        directory_ = support::makeTemporaryDirectory("metalcpu-restrictions-");
        ASSERT_FALSE(directory_.empty());
        // A cache of its own, so that every run compiles: a library cached by an earlier
        // build could hide a regression.
        cache_ = std::make_unique<testing::ScopedEnvironmentVariable>("METALCPU_CACHE_DIR", directory_ + "/cache");
        // Included, the front end would name the variable; named by #line, the compiler would
        // quote the line under its message.
        write("secret.h", "int " + std::string(kMarker) + ";\n");
        std::filesystem::create_directories(directory_ + "/src");
        std::filesystem::create_directories(directory_ + "/inc");
    }
    void TearDown() override {
        cache_.reset();
        support::removeTree(directory_);
        MetalTest::TearDown();
    }

    void write(const std::string& relative, const std::string& text) {
        ASSERT_TRUE(support::writeFileAtomically(directory_ + "/" + relative, text)) << relative;
    }

    /// newLibrary(source)'s error text, or "" when the source compiled.
    std::string compileError(const std::string& source) {
        NS::Error* error = nullptr;
        MTL::Library* library =
            device_->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), nullptr, &error);
        if (library) {
            library->release();
            return "";
        }
        return error ? testing::text(error->localizedDescription()) : "(no error)";
    }

    /// `metal -c src/k.metal -o k.air` run in the scratch directory, after `arguments`.
    support::ProcessResult compileWithTool(const std::vector<std::string>& arguments = {}) {
        std::vector<std::string> argv = {METAL_TOOL};
        argv.insert(argv.end(), arguments.begin(), arguments.end());
        argv.insert(argv.end(), {"-c", "src/k.metal", "-o", "k.air"});
        return support::runProcess(argv, directory_);
    }

    std::string directory_;
    std::unique_ptr<testing::ScopedEnvironmentVariable> cache_;
};

// ---- Pragmas ---------------------------------------------------------------------------------

// Test that pragmas anywhere in a source string — `#pragma once` on its first line, Metal's
// and Clang's pragmas in a function body, `_Pragma` in the middle of a line through a macro,
// pragmas in the pieces of a kernel split at its barriers — compile, and that the kernels run.
TEST_F(KernelRestrictionsTest, PragmasInASourceString) {
    MTL::Library* library = compile(
        "#pragma once\n"
        "#include <metal_stdlib>\n"
        "using namespace metal;\n"
        "#define UNROLLED _Pragma(\"clang loop unroll(full)\") for\n"
        "kernel void k(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
        "#pragma METAL fp math_mode(safe)\n"
        "    int s = 0;\n"
        "    UNROLLED (int j = 0; j < 4; ++j) s += j;\n"
        "    #pragma unroll\n"
        "    for (int j = 0; j < 4; ++j) s += j;\n"
        "#pragma clang diagnostic push\n"
        "    out[i] = s + int(i);\n"
        "#pragma clang diagnostic pop\n"
        "}\n"
        // Split at its barriers, each piece becomes a lambda written on one line: the pragmas
        // inside must still get lines of their own.
        "kernel void neighbours(device int* out [[buffer(0)]], uint lid [[thread_position_in_threadgroup]],\n"
        "                       uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {\n"
        "    threadgroup int shared[1024];\n"
        "    #pragma unroll\n"
        "    for (int j = 0; j < 2; ++j) shared[lid] = int(lid) + j;\n"
        "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
        "#pragma METAL internals : enable\n"
        "    int s = 0; UNROLLED (int j = 0; j < 2; ++j) s += shared[(lid + 1) % n];\n"
        "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
        "    out[i] = s;\n"
        "}\n");
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "k", 3), (std::vector<int>{12, 13, 14}));
    EXPECT_EQ(runIntKernel(library, "neighbours", 7), (std::vector<int>{4, 6, 8, 10, 12, 14, 2}));
    library->release();
}

// Test that `#pragma once` and other pragmas in the main .metal file and in a header included
// twice compile with the metal tool.
TEST_F(KernelRestrictionsTest, PragmasInAFileAndAHeader) {
    write("src/h.h", "#pragma once\n#pragma clang diagnostic push\nconstant int kOne = 1;\n"
                     "#pragma clang diagnostic pop\n");
    write("src/k.metal", "#pragma once\n#include \"h.h\"\n#include \"h.h\"\n"
                         "kernel void k(device int* out [[buffer(0)]]) {\n#pragma unroll 2\n"
                         "    for (int j = 0; j < 2; ++j) out[j] = kOne;\n}\n");
    support::ProcessResult compiled = compileWithTool();
    EXPECT_EQ(compiled.exitCode, 0) << compiled.output;
}

// ---- Constant initialisation --------------------------------------------------------------------

// Test that a program-scope object whose constructor is not constexpr is an error at its line:
// the library never exists, so the constructor (a store through a null pointer, which would
// kill this process if it ran while the library loads) never runs. A non-constant initialiser,
// a destructor (also of a reference's temporary, or in a variable template), a static local
// computed at run time and functions with an IFUNC resolver are errors too, at their line.
TEST_F(KernelRestrictionsTest, LoadTimeCodeIsRefused) {
    struct Case {
        std::string declarations; ///< from line 2 on
        std::string use;          ///< what the kernel reads
        std::vector<std::string> expected;
    };
    const Case cases[] = {
        {"struct Boom { int v; Boom() : v(0) { *(volatile int*)(out_of_reach()) = 1; } };\nconstant Boom kBoom;\n",
         "kBoom.v",
         {"program_source:3:15: error: ", "kBoom", " does not have a constant initializer"}},
        // An initialised `constant` is constexpr (MSL's constant expression): GCC names the call.
        {"constant int kRuntime = out_of_reach()[0];\n", "kRuntime",
         {"program_source:2:37: error: ", "kRuntime", "call to non-'constexpr' function 'int* out_of_reach()'"}},
        {"struct Tidy { int v; constexpr Tidy(int x) : v(x) {} ~Tidy() { v = 0; } };\nconstant Tidy kTidy(1);\n",
         "kTidy.v",
         {"program_source:3:", "error: static assertion failed: program-scope variable 'kTidy' must be trivially "
                               "destructible"}},
        {"int first() { static const int cached = out_of_reach()[0]; return cached; }\n", "first()",
         {"program_source:2:", "cached", " does not have a constant initializer"}},
        // The temporary a reference keeps alive is destroyed at exit.
        {"struct Tidy { int v; constexpr Tidy() : v(1) {} ~Tidy() { v = 0; } };\nconstant Tidy& kRef = Tidy();\n",
         "kRef.v",
         {"program_source:3:", "error: static assertion failed: program-scope variable 'kRef' must be trivially "
                               "destructible"}},
        {"struct Tidy { int v; constexpr Tidy() : v(1) {} ~Tidy() { v = 0; } };\n"
         "template <class T> constant Tidy kEach{};\n",
         "kEach<int>.v",
         {"program_source:3:", "kEach<int>", " is not literal", "does not have ", "constexpr", " destructor"}},
        // Versions of a function for several targets are chosen by an IFUNC resolver at load time.
        {"__attribute__((target_clones(\"avx2\", \"default\"))) int tc(int x) { return x + 1; }\n", "tc(1)",
         {"program_source:2:16: error: attribute 'target_clones' is not allowed in kernel code"}},
        {"__attribute__((target(\"avx2\"))) int tc(int x) { return x + 1; }\n"
         "__attribute__((target(\"default\"))) int tc(int x) { return x + 2; }\n",
         "tc(1)", {"program_source:2:16: error: attribute 'target' is not allowed in kernel code"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.declarations);
        std::string error = compileError("device int* out_of_reach() { return nullptr; }\n" + c.declarations +
                                         "kernel void k(device int* out [[buffer(0)]]) { out[0] = " + c.use + "; }\n");
        for (const std::string& part : c.expected) EXPECT_NE(error.find(part), std::string::npos) << part << "\n" << error;
    }
}

// Test that tokens a macro makes never join with their neighbours in the translated text:
// `b M-b` with `#define M -` subtracts, and a `/` before a `/` cannot comment out the rest of
// the line, the `constinit` written there for the declaration on the next line included.
TEST_F(KernelRestrictionsTest, MacroTokensStayApart) {
    MTL::Library* library = compile("#define M -\n#define P +\n#define D /\n"
                                    "kernel void k(device int* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                                    "    int b = 2;\n"
                                    "    if (i == 0) { a[0] = 5 M-b; a[1] = b P+b; a[2] = b-M 1; a[3] = 8 D*a; }\n"
                                    "}\n");
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "k", 4), (std::vector<int>{7, 4, 3, 1}));
    library->release();
    std::string error = compileError("#define S /\nstruct Runs { int v; Runs() { v = 42; } };\n"
                                     "struct __attribute__((aligned(16 S/ 2))) T { int x; };\n"
                                     "constant Runs kRuns;\n"
                                     "kernel void k(device int* out [[buffer(0)]]) { out[0] = kRuns.v; }\n");
    EXPECT_NE(error.find("program_source:4:15: error: "), std::string::npos) << error;
    EXPECT_NE(error.find("kRuns"), std::string::npos) << error;
    EXPECT_NE(error.find(" does not have a constant initializer"), std::string::npos) << error;
}

// Test that constant-initialised program-scope data of every usual shape compiles and holds
// its values: arrays, vectors, matrices, packed and half vectors, aggregates, constexpr
// constructors, constexpr variables, variable templates, static data members, static locals.
TEST_F(KernelRestrictionsTest, ConstantInitialisedDataRuns) {
    MTL::Library* library = compile(
        "#include <metal_stdlib>\nusing namespace metal;\n"
        "struct P { int a; int b; };\n"
        "struct C { int v; constexpr C(int x) : v(2 * x) {} };\n"
        "constant int kTable[4] = {1, 2, 3, 4};\n"
        "constant int4 kVec = int4(10, 20, 30, 40);\n"
        "constant float4x4 kIdentity = float4x4(1.0f);\n"
        "constant packed_int3 kPacked = packed_int3(5, 6, 7);\n"
        "constant half2 kHalf = half2(1.5h, 2.5h);\n"
        "constant P kP = {100, 200};\n"
        "constant C kC(21);\n"
        "constexpr constant static int kCx[2] = {1000, 2000};\n"
        "template <typename T> constant T kSeven = T(7);\n"
        "struct S { static constexpr int k = 3; static constant int f; };\n"
        "constant int S::f = 9;\n"
        "int scaled(int x) { static const int scale = 4; return x * scale; }\n"
        "kernel void k(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
        "    out[i] = kTable[i % 4] + kVec[i % 4] + int(kIdentity[0][0]) + kPacked[2] + int(float(kHalf.y) * 2)\n"
        "           + kP.b + kC.v + kCx[1] + kSeven<int> + S::k + S::f + scaled(1);\n"
        "}\n");
    ASSERT_NE(library, nullptr);
    const int rest = 1 + 7 + 5 + 200 + 42 + 2000 + 7 + 3 + 9 + 4;
    EXPECT_EQ(runIntKernel(library, "k", 2), (std::vector<int>{1 + 10 + rest, 2 + 20 + rest}));
    library->release();
}

// ---- Includes --------------------------------------------------------------------------------

// Test that a source string cannot include or probe for a file outside its roots, and that
// the error names the rule and the line but never quotes the file. A #line name is a display
// name: with confined compilers (which cannot read the file) messages name it, and still never
// quote it; without, naming an existing file outside the roots is refused.
TEST_F(KernelRestrictionsTest, SourceStringIncludeEscapes) {
    const std::string secret = directory_ + "/secret.h";
    const support::ConfinementSupport& confinement = support::confinementSupport();
    const bool confined = confinement.landlockAbi > 0 || confinement.privateView;
    const std::pair<std::string, std::string> cases[] = {
        {"#include <metal_stdlib>\n#include \"" + secret + "\"\n",
         "program_source:2:1: error: kernel code cannot include '" + secret + "'"},
        {"#if __has_include(\"" + secret + "\")\nconstant int x = undefined_name;\n#endif\n",
         "program_source:1:5: error: kernel code cannot probe for '" + secret + "'"},
        {"#line 1 \"" + secret + "\"\nconstant int x = undefined_name;\n",
         confined ? secret + ":1:"
                  : "program_source:1:1: error: '#line' cannot name '" + secret + "' on this machine"},
    };
    for (const auto& [source, expected] : cases) {
        SCOPED_TRACE(source);
        std::string error = compileError(source);
        EXPECT_NE(error.find(expected), std::string::npos) << error;
        EXPECT_EQ(error.find(kMarker), std::string::npos) << error;
    }
}

// Test that a `#` or `%:` a macro makes is refused at its line, also where the tokens erased around
// it would leave it first on its line in the translated text, which is preprocessed again: there
// it would be a directive of the kernel's own (an #include of any file, a #define, a #line, a
// #pragma). The planted file is never read.
TEST_F(KernelRestrictionsTest, DirectivesMadeByMacros) {
    const std::string secret = "\"" + directory_ + "/secret.h\"";
    const std::string kernel = "kernel void k(device int* a [[buffer(0)]]) {\n";
    const std::pair<std::string, std::string> cases[] = {
        {"#define HASH #\n" + kernel + "device HASH include " + secret + "\n a[0] = 1; }\n", "program_source:3:"},
        {"#define HASH #\n[[kernel]] HASH include " + secret + "\nvoid k(device int* a [[buffer(0)]]) { a[0] = 1; }\n",
         "program_source:2:"},
        {"#define HASH %:\nstruct __attribute__((aligned(\nHASH include " + secret + "\n16))) S { int x; };\n" + kernel +
             "a[0] = 1; }\n",
         "program_source:3:"},
        {"#define HASH #\n" + kernel + "device HASH include \"/proc/self/environ\"\n a[0] = 1; }\n", "program_source:3:"},
        {"#define HASH #\n" + kernel + "device HASH define a 0\n a[0] = 1; }\n", "program_source:3:"},
        {"#define HASH #\n" + kernel + "device HASH line 1 " + secret + "\n a[0] = 1; }\n", "program_source:3:"},
        {"#define HASH #\n" + kernel + "device HASH pragma GCC dependency " + secret + "\n a[0] = 1; }\n",
         "program_source:3:"},
        {"#define ID(x) x\n" + kernel + "device ID(%:%:) include " + secret + "\n a[0] = 1; }\n", "program_source:3:"},
    };
    for (const auto& [source, line] : cases) {
        SCOPED_TRACE(source);
        std::string error = compileError(source);
        EXPECT_NE(error.find(line), std::string::npos) << error;
        EXPECT_NE(error.find("error: stray '"), std::string::npos) << error;
        EXPECT_NE(error.find("' in kernel code: a macro cannot make a preprocessor directive"), std::string::npos)
            << error;
        EXPECT_EQ(error.find(kMarker), std::string::npos) << error;
        EXPECT_EQ(error.find("root:"), std::string::npos) << error;
    }
}

// Test that digraphs are the tokens they stand for: braces, brackets and `<::`.
TEST_F(KernelRestrictionsTest, DigraphsRun) {
    MTL::Library* library = compile("#include <metal_stdlib>\nusing namespace metal;\n"
                                    "namespace n { struct W { int v; }; }\n"
                                    "template <class T> struct Box { T t; };\n"
                                    "kernel void k(device int* out <:<:buffer(0):>:>, uint i [[thread_position_in_grid]]) <%\n"
                                    "    int v<:2:> = <% 5, 6 %>;\n"
                                    "    Box<::n::W> b = {{7}};\n"
                                    "    out<:i:> = v[i % 2] + b.t.v;\n"
                                    "%>\n");
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "k", 3), (std::vector<int>{12, 13, 12}));
    library->release();
}

// Test that the metal tool refuses `..` escapes and symbolic links out of the roots, in the
// main file and in a header found through -I, without quoting the file.
TEST_F(KernelRestrictionsTest, ToolIncludeEscapes) {
    std::filesystem::create_symlink(directory_ + "/secret.h", directory_ + "/src/link.h");
    write("inc/h.h", "#include \"../secret.h\"\n");
    const std::pair<std::string, std::string> cases[] = {
        {"#include \"../secret.h\"\n", "src/k.metal:1:1: error: kernel code cannot include '../secret.h'"},
        {"\n#include \"link.h\"\n", "src/k.metal:2:1: error: kernel code cannot include 'link.h'"},
        {"#include <h.h>\n", "inc/h.h:1:1: error: kernel code cannot include '../secret.h'"},
    };
    for (const auto& [source, expected] : cases) {
        SCOPED_TRACE(source);
        write("src/k.metal", source);
        support::ProcessResult compiled = compileWithTool({"-I", "inc"});
        EXPECT_NE(compiled.exitCode, 0);
        EXPECT_NE(compiled.output.find(expected), std::string::npos) << compiled.output;
        EXPECT_EQ(compiled.output.find(kMarker), std::string::npos) << compiled.output;
    }
}

// Test that includes inside the roots work: the source's directory, `..` that stays inside
// an include directory, and the standard library.
TEST_F(KernelRestrictionsTest, IncludesInsideTheRoots) {
    std::filesystem::create_directories(directory_ + "/inc/sub");
    write("inc/sub/a.h", "#include \"../b.h\"\n");
    write("inc/b.h", "constant int kTwo = 2;\n");
    write("src/local.h", "#include <sub/a.h>\n");
    write("src/k.metal", "#include <metal_stdlib>\n#include \"local.h\"\n"
                         "kernel void k(device int* out [[buffer(0)]]) { out[0] = kTwo; }\n");
    support::ProcessResult compiled = compileWithTool({"-I", "inc"});
    EXPECT_EQ(compiled.exitCode, 0) << compiled.output;
}

// ---- Builtins, internal names, function pointers --------------------------------------------

/// A kernel whose second line uses `expression`, and the start of the error it must get.
struct RefusedUse {
    std::string expression;
    std::string error;
};

void PrintTo(const RefusedUse& use, std::ostream* out) { *out << use.expression; }

std::string kernelUsing(const std::string& expression) {
    return "kernel void k(device ulong* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
           "    out[i] = (ulong)(" + expression + ");\n}\n";
}

class RefusedUses : public KernelRestrictionsTest, public ::testing::WithParamInterface<RefusedUse> {};

// Test that newLibrary(source) refuses the use at its line and column, naming the rule.
TEST_P(RefusedUses, AtTheLine) {
    std::string error = compileError(kernelUsing(GetParam().expression));
    EXPECT_NE(error.find(GetParam().error), std::string::npos) << error;
}

/// The error for the builtin `name`, used at `column` of the kernel's second line.
std::string outside(const std::string& name, int column = 22) {
    return "program_source:2:" + std::to_string(column) + ": error: '" + name +
           "' is not allowed in kernel code: it reaches outside the kernel's memory";
}

INSTANTIATE_TEST_SUITE_P(
    Builtins, RefusedUses,
    ::testing::Values(RefusedUse{"__builtin_frame_address(0)", outside("__builtin_frame_address")},
                      RefusedUse{"__builtin_return_address(0)", outside("__builtin_return_address")},
                      RefusedUse{"__builtin_extract_return_addr(out)", outside("__builtin_extract_return_addr")},
                      RefusedUse{"__builtin_alloca(i)", outside("__builtin_alloca")},
                      RefusedUse{"__builtin_alloca_with_align(i, 64)", outside("__builtin_alloca_with_align")},
                      RefusedUse{"alloca(i)", outside("alloca")},
                      RefusedUse{"__builtin_setjmp((void**)out)", outside("__builtin_setjmp")},
                      RefusedUse{"(__builtin_longjmp((void**)out, 1), 0)", outside("__builtin_longjmp", 23)},
                      RefusedUse{"setjmp(out)", outside("setjmp")},
                      RefusedUse{"(longjmp(out, 1), 0)", outside("longjmp", 23)},
                      RefusedUse{"__builtin_apply_args()", outside("__builtin_apply_args")},
                      RefusedUse{"(__builtin_return(out), 0)", outside("__builtin_return", 23)},
                      RefusedUse{"(__builtin_eh_return(0, out), 0)", outside("__builtin_eh_return", 23)},
                      RefusedUse{"(__builtin_unwind_init(), 0)", outside("__builtin_unwind_init", 23)},
                      RefusedUse{"__builtin_dwarf_cfa()", outside("__builtin_dwarf_cfa")},
                      RefusedUse{"__builtin_stack_save()", outside("__builtin_stack_save")},
                      RefusedUse{"__builtin_thread_pointer()", outside("__builtin_thread_pointer")},
                      RefusedUse{"(__builtin___clear_cache((char*)out, (char*)out + 8), 0)",
                                 outside("__builtin___clear_cache", 23)},
                      RefusedUse{"__builtin_ia32_rdtsc()", outside("__builtin_ia32_rdtsc")},
                      RefusedUse{"[](int n, ...) { __builtin_va_list v; __builtin_va_start(v, n); return "
                                 "__builtin_va_arg(v, ulong); }(0)",
                                 outside("__builtin_va_list", 39)},
                      RefusedUse{"(__builtin_trap(), 0)", "program_source:2:23: error: '__builtin_trap' is not allowed in "
                                                          "kernel code: it would stop the host process"}));

INSTANTIATE_TEST_SUITE_P(
    InternalNames, RefusedUses,
    ::testing::Values(
        RefusedUse{"metalcpu_kernel::g_services", "program_source:2:22: error: 'metalcpu_kernel' is reserved"},
        RefusedUse{"sizeof(mc_services)", "program_source:2:29: error: 'mc_services' is reserved"},
        RefusedUse{"__mc_group->dispatch", "program_source:2:22: error: '__mc_group' is reserved"},
        RefusedUse{"METALCPU_KERNEL_ABI_VERSION", "program_source:2:22: error: 'METALCPU_KERNEL_ABI_VERSION' is reserved"},
        RefusedUse{"MC_BUILTIN_GRID_SIZE", "program_source:2:22: error: 'MC_BUILTIN_GRID_SIZE' is reserved"}));

INSTANTIATE_TEST_SUITE_P(
    FunctionPointerCasts, RefusedUses,
    ::testing::Values(
        RefusedUse{"((void (*)())out[0])(), 0", "program_source:2:23: error: kernel code cannot cast to a function "
                                                "pointer type ('void(*)()')"},
        RefusedUse{"reinterpret_cast<void (*)()>(out[0])(), 0",
                   "program_source:2:22: error: kernel code cannot cast to a function pointer type"},
        RefusedUse{"__builtin_bit_cast(void (*)(), out[0])(), 0",
                   "program_source:2:22: error: kernel code cannot cast to a function pointer type"},
        RefusedUse{"as_type<void (*)()>(out[0])(), 0",
                   "program_source:2:22: error: kernel code cannot cast to a function pointer type"}));

// Test that casts to function pointer types named through the file's aliases are refused.
TEST_F(KernelRestrictionsTest, FunctionPointerCastsThroughAliases) {
    std::string error = compileError("typedef void (*fn_t)(uint);\nusing other_t = fn_t;\n" +
                                     kernelUsing("((other_t)out[0])(i), 0"));
    EXPECT_NE(error.find("program_source:4:23: error: kernel code cannot cast to a function pointer type "
                         "('other_t')"),
              std::string::npos)
        << error;
}

// Test that the casts whose target may be a function pointer type, which the front end cannot
// see through, are refused at their line: each was accepted, and `f()` would have called the
// address in a[1].
TEST_F(KernelRestrictionsTest, FunctionPointerCastsItCannotSeeThrough) {
    const std::string declarations = "void g() {}\ntemplate <class T> using ptr = T*;\n"
                                     "template <class T> struct P { using type = T*; };\n";
    const std::string casts[] = {
        "auto f = (long (*)())[&] { return a[1]; }(); f();",
        "using F = decltype(+[] {}); reinterpret_cast<F>(a[1])();",
        "reinterpret_cast<decltype((&g))>(a[1])();",
        "reinterpret_cast<decltype(true ? &g : &g)>(a[1])();",
        "auto p = &g; reinterpret_cast<decltype(p)>(a[1])();",
        "reinterpret_cast<ptr<void()>>(a[1])();",
        "reinterpret_cast<P<void()>::type>(a[1])();",
    };
    for (const std::string& cast : casts) {
        SCOPED_TRACE(cast);
        std::string error = compileError(declarations + "kernel void k(device ulong* a [[buffer(0)]]) {\n    " + cast +
                                         "\n}\n");
        EXPECT_NE(error.find("program_source:5:"), std::string::npos) << error;
        EXPECT_NE(error.find("error: kernel code cannot cast to "), std::string::npos) << error;
    }
}

// Test that the harmless neighbours compile and run: builtins kernels use, a user name that
// merely starts like the kernel interface's, and ggml's function-pointer template parameters with their
// decltype-typedef instantiations.
TEST_F(KernelRestrictionsTest, HarmlessNeighboursRun) {
    MTL::Library* library = compile(
        "#include <metal_stdlib>\nusing namespace metal;\n"
        "struct tables { int mc_block; };\n"
        "void twice(thread const int* src, short il, thread int& reg) { reg = 2 * src[il]; }\n"
        "void thrice(thread const int* src, short il, thread int& reg) { reg = 3 * src[il]; }\n"
        "template <short nl, void (*dequantize_func)(thread const int*, short, thread int&)>\n"
        "kernel void apply(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
        "    const int in[2] = {int(i), nl};\n"
        "    int reg = 0;\n"
        "    dequantize_func(in, 1, reg);\n"
        "    tables t = {__builtin_popcount(i)};\n"
        "    out[i] = __builtin_expect(reg, 0) * 100 + t.mc_block;\n"
        "}\n"
        "typedef decltype(apply<5, twice>) apply_t;\n"
        "template [[host_name(\"apply_twice\")]] kernel apply_t apply<5, twice>;\n"
        "template [[host_name(\"apply_thrice\")]] kernel apply_t apply<7, thrice>;\n");
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "apply_twice", 4), (std::vector<int>{1000, 1001, 1001, 1002}));
    EXPECT_EQ(runIntKernel(library, "apply_thrice", 2), (std::vector<int>{2100, 2101}));
    library->release();
}

// Test that errors point into the source string, at the column of what the user wrote, when
// the front end rewrote the line: inside a rewritten declaration (a function constant named
// like metal::dot, so the rewrite's own text refers to an ambiguous name), and at a name
// after a literal it lengthened (`1.0h`). They pointed past the end of the line (MFA v1's
// `forward`: column 235 of a 49-column line).
TEST_F(KernelRestrictionsTest, ErrorColumnsInRewrittenLines) {
    const std::string source = "#include <metal_stdlib>\n"
                               "using namespace metal;\n"
                               "constant bool dot [[function_constant(0)]];\n"
                               "kernel void k(device half* out [[buffer(0)]]) { out[0] = 1.0h + undefined_h; }\n";
    const std::string error = compileError(source);
    ASSERT_NE(error.find("program_source:3:"), std::string::npos) << error;
    const std::vector<std::size_t> lengths = {23, 22, 43, 78};
    for (std::size_t at = error.find("program_source:"); at != std::string::npos;
         at = error.find("program_source:", at + 1)) {
        unsigned line = 0, column = 0;
        if (std::sscanf(error.c_str() + at, "program_source:%u:%u", &line, &column) != 2) continue;
        ASSERT_GE(line, 1u);
        ASSERT_LE(line, lengths.size());
        EXPECT_LE(column, lengths[line - 1]) << "line " << line << " of\n" << error;
    }
    const std::size_t undefinedColumn = source.find("undefined_h") - source.find("kernel void") + 1;
    EXPECT_NE(error.find("program_source:4:" + std::to_string(undefinedColumn) + ": error: 'undefined_h'"),
              std::string::npos)
        << error;
}

} // namespace
} // namespace metalcpu::jit
