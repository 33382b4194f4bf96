#include "compiler/passes/restrictions.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::vector<std::string> check(std::string_view source, TranslateOptions options = {}) {
    auto p = testing::parse(source);
    return testing::runChecks(*p, options);
}

// Test that extern declarations in every form are rejected.
TEST(Restrictions, Extern) {
    EXPECT_EQ(
        check("extern int x;\nextern \"C\" void f();"),
        (std::vector<std::string>{
            "test.metal:1:1: error: kernel code cannot declare extern symbols",
            "test.metal:2:1: error: kernel code cannot declare extern symbols",
            "test.metal:2:17: error: function 'f' is declared but not defined; kernel code can only call "
            "functions it defines",
        }));
}

// Test that functions declared but defined nowhere are rejected: calls would bind to host symbols.
TEST(Restrictions, UndefinedFunctions) {
    EXPECT_EQ(
        check("int system(const char*);\nfloat twice(float);\nfloat twice(float x) { return 2 * x; }"),
        (std::vector<std::string>{"test.metal:1:5: error: function 'system' is declared but not defined; "
                                  "kernel code can only call functions it defines"}));
}

// Test that a declaration whose __asm label is one of the AIR intrinsics metalcpu implements
// (metal-flash-attention's async copies and their wait), under the name its header gives it,
// is accepted, neither assembly nor an undefined function; that the same label on another
// name, an unknown AIR label and any other label stay errors at their lines; and that
// metal::vec takes 2, 3, 4 or 64 components (64: the storage inside a SIMD-group matrix),
// another number being an error at its line, not in metalcpu's vec.h; a program's own `vec`
// template takes any.
TEST(Restrictions, AirIntrinsicsAndWideVectors) {
    EXPECT_EQ(check("struct _simdgroup_event_t;\n"
                    "thread _simdgroup_event_t* __metal_simdgroup_async_copy_1d(ulong, ulong, threadgroup void*, "
                    "const device void*, ulong) __asm(\"air.simdgroup_async_copy_1d.p3i8.p1i8\");\n"
                    "thread _simdgroup_event_t* __metal_simdgroup_async_copy_2d(ulong, ulong, device void*, ulong, "
                    "ulong, ulong2, const threadgroup void*, ulong, ulong, ulong2, long2, int) "
                    "__asm__(\"air.simdgroup_async_copy_2d.p1i8.p3i8\");\n"
                    "void __metal_wait_simdgroup_events(int, thread _simdgroup_event_t**) "
                    "asm(\"air.wait_simdgroup_events\");\n"
                    "template <typename T> struct s { vec<T, 64> t; metal::vec<T, 4> v; };"),
              (std::vector<std::string>{}));
    EXPECT_EQ(check("void w(int) __asm(\"air.wait_simdgroup_events\");\n"
                    "void __metal_simdgroup_async_copy_1d(int) __asm(\"air.simdgroup_async_copy_1d.p3i8.p3i8\");\n"
                    "void x(int) __asm(\"_exit\");\n"
                    "template <typename T> struct s { metal::vec<T, 8> u; vec<T, 32> v; };"),
              (std::vector<std::string>{
                  "test.metal:1:13: error: kernel code cannot contain assembly: Apple's AIR intrinsic "
                  "\"air.wait_simdgroup_events\" binds only a declaration named '__metal_wait_simdgroup_events' at "
                  "program scope",
                  "test.metal:2:43: error: kernel code cannot contain assembly: Apple's AIR intrinsic "
                  "\"air.simdgroup_async_copy_1d.p3i8.p3i8\" is not there on the CPU (metalcpu has the SIMD-group "
                  "async copies, air.simdgroup_async_copy_1d/_2d and air.wait_simdgroup_events)",
                  "test.metal:3:13: error: kernel code cannot contain assembly",
                  "test.metal:4:41: error: metal::vec has 2, 3 or 4 components, not 8",
                  "test.metal:4:54: error: metal::vec has 2, 3 or 4 components, not 32",
                  "test.metal:1:6: error: function 'w' is declared but not defined; kernel code can only call "
                  "functions it defines",
                  "test.metal:2:6: error: function '__metal_simdgroup_async_copy_1d' is declared but not defined; "
                  "kernel code can only call functions it defines",
                  "test.metal:3:6: error: function 'x' is declared but not defined; kernel code can only call "
                  "functions it defines",
              }));
    EXPECT_EQ(check("template <typename T, int N> struct vec { T x[N]; };\nconstant vec<float, 64> big{};"),
              (std::vector<std::string>{}));
}

// Test that inline assembly, thread_local and goto are rejected.
TEST(Restrictions, AsmThreadLocalGoto) {
    EXPECT_EQ(check("void f() { asm(\"nop\"); __asm__(\"nop\"); thread_local int t; goto end; end:; }"),
              (std::vector<std::string>{
                  "test.metal:1:12: error: kernel code cannot contain assembly",
                  "test.metal:1:24: error: kernel code cannot contain assembly",
                  "test.metal:1:40: error: kernel code cannot declare thread_local variables",
                  "test.metal:1:60: error: goto is not supported in metal shading language",
              }));
}

// Test that `double` and its vectors and matrices are rejected at each use, named as written,
// while floating literals (`1.0`, `2e3`), `metal::precise`, names that merely contain the
// word (`doubled`, `double5`, `double2x5`) and `float2` are not.
TEST(Restrictions, DoubleIsNotSupported) {
    EXPECT_EQ(check("struct S { double d; };\n"
                    "kernel void k(device float* out, uint i) {\n"
                    "    double2 v = double2(1.0, 2e3);\n"
                    "    out[i] = float(static_cast<double>(out[i]) + sizeof(long double));\n"
                    "    double4x4 m; double3 w;\n"
                    "    float doubled = 1.0; float2 double5 = metal::precise::sqrt(float2(doubled));\n"
                    "    int double2x5 = 0;\n"
                    "}"),
              (std::vector<std::string>{
                  "test.metal:1:12: error: 'double' is not supported in Metal",
                  "test.metal:3:5: error: 'double2' is not supported in Metal",
                  "test.metal:3:17: error: 'double2' is not supported in Metal",
                  "test.metal:4:32: error: 'double' is not supported in Metal",
                  "test.metal:4:62: error: 'double' is not supported in Metal",
                  "test.metal:5:5: error: 'double4x4' is not supported in Metal",
                  "test.metal:5:18: error: 'double3' is not supported in Metal",
              }));
}

// Test that a call of printf is an error pointing at os_log (GCC's own would suggest <cstdio>,
// which kernel code cannot include), but not in a program that defines its own printf, and
// not a member or a variable of that name.
TEST(Restrictions, PrintfPointsAtOsLog) {
    const std::vector<std::string> got = check("kernel void k(device float* out, uint i) {\n"
                                               "    printf(\"%f\", out[i]);\n"
                                               "}");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].rfind("test.metal:2:5: error: 'printf' is not available in Metal: log with os_log "
                           "(os_log_default.log(\"x = %d\", x), from <metal_logging>)",
                           0),
              0u)
        << got[0];
    EXPECT_EQ(check("int printf(const char* f) { return 0; }\nkernel void k(device int* out) { out[0] = printf(\"\"); }"),
              std::vector<std::string>{});
    EXPECT_EQ(check("struct L { void printf(int) {} };\nkernel void k(device int* out) { L l; l.printf(1); int printf = 0; }"),
              std::vector<std::string>{});
}

// Test that an array whose size uses a parameter of its function is a variable-length array,
// reported at its name, in a kernel and a helper, in thread and threadgroup memory; constant
// sizes, subscripts (`o[n]`, `return t[n]`) and a template parameter's size are not.
TEST(Restrictions, VariableLengthArrays) {
    EXPECT_EQ(check("kernel void k(device float* o [[buffer(0)]], constant uint& n [[buffer(1)]], uint i) {\n"
                    "  float tmp[n];\n"
                    "  threadgroup float s[n * 2];\n"
                    "  float fine[4] = {0}; o[n] = fine[i]; o[i] = tmp[n - 1];\n"
                    "}\n"
                    "float h(int m) { uint2 a[m + 1]; return float(a[0].x); }\n"
                    "template <int N> float g(int m) { float b[N]; bool big = b[0] > b[m]; return big ? b[m] : 0; }"),
              (std::vector<std::string>{
                  "test.metal:2:9: error: variable-length arrays are not supported in Metal: the size of 'tmp' uses "
                  "parameter 'n', which is not a constant expression; give the array a constant size (a literal, a "
                  "constexpr or constant value, a template parameter)",
                  "test.metal:3:21: error: variable-length arrays are not supported in Metal: the size of 's' uses "
                  "parameter 'n', which is not a constant expression; give the array a constant size (a literal, a "
                  "constexpr or constant value, a template parameter)",
                  "test.metal:6:24: error: variable-length arrays are not supported in Metal: the size of 'a' uses "
                  "parameter 'm', which is not a constant expression; give the array a constant size (a literal, a "
                  "constexpr or constant value, a template parameter)",
              }));
}

// Test that new and delete expressions are rejected, but deleted functions are fine.
TEST(Restrictions, NewDelete) {
    EXPECT_EQ(check("struct S { S(const S&) = delete; };\nvoid f() { int* p = new int; delete p; }"),
              (std::vector<std::string>{
                  "test.metal:2:21: error: kernel code cannot use 'new'",
                  "test.metal:2:30: error: kernel code cannot use 'delete'",
              }));
}

// Test that GCC attributes affecting linking or load-time code are rejected, harmless ones not.
TEST(Restrictions, GnuAttributes) {
    EXPECT_EQ(check("__attribute__((always_inline, aligned(16))) inline void a() {}\n"
                    "__attribute__((constructor)) void b() {}\n"
                    "__attribute__((__visibility__(\"default\"))) void c() {}\n"
                    "[[gnu::section(\".x\")]] void d() {}\n"
                    "[[gnu::noinline]] void e() {}\n"
                    "__attribute__((target_clones(\"avx2\", \"default\"))) int f() { return 0; }\n"
                    "[[gnu::target(\"avx2\")]] int g() { return 0; }"),
              (std::vector<std::string>{
                  "test.metal:2:16: error: attribute 'constructor' is not allowed in kernel code",
                  "test.metal:3:16: error: attribute '__visibility__' is not allowed in kernel code",
                  "test.metal:6:16: error: attribute 'target_clones' is not allowed in kernel code",
                  "test.metal:4:3: error: attribute 'gnu::section' is not allowed in kernel code",
                  "test.metal:7:3: error: attribute 'gnu::target' is not allowed in kernel code",
              }));
}

// Test that symbol-renaming pragmas are rejected, and `GCC dependency` (an existence probe in
// the compile of the translated text) in any spacing, as is a `_Pragma` left over.
TEST(Restrictions, Pragmas) {
    EXPECT_EQ(check("#pragma weak foo\n#pragma redefine_extname a b\n#pragma once\n"
                    "#pragma GCC dependency \"/etc/passwd\"\n#  pragma\tGCC\fdependency \"x\"\n"
                    "#pragma GCC poison p\nvoid f() { _Pragma(\"GCC dependency \\\"/etc/passwd\\\"\") }\n"),
              (std::vector<std::string>{
                  "test.metal:1:1: error: '#pragma weak' is not allowed in kernel code",
                  "test.metal:2:1: error: '#pragma redefine_extname' is not allowed in kernel code",
                  "test.metal:4:1: error: '#pragma GCC dependency' is not allowed in kernel code: it tells whether a "
                  "file exists",
                  "test.metal:5:1: error: '#pragma GCC dependency' is not allowed in kernel code: it tells whether a "
                  "file exists",
                  "test.metal:7:12: error: '_Pragma' cannot remain in preprocessed kernel code",
              }));
}

// Test that static locals must be const, while static functions of local classes are fine.
TEST(Restrictions, StaticLocals) {
    EXPECT_EQ(check("void f() { static int calls; static constexpr int k = 1; static const float c = 2;\n"
                    "  struct L { static int g() { return 0; } }; }"),
              (std::vector<std::string>{"test.metal:1:12: error: static local variables must be const"}));
}

// Test that program-scope variables must be in the constant address space.
TEST(Restrictions, ProgramScopeVariables) {
    EXPECT_EQ(
        check("int counter;\nconstant int k = 1;\nconstexpr float pi = 3.14f;\ndevice float* p;\n"
              "struct S { int a; };\nstruct T { int b; } t;"),
        (std::vector<std::string>{
            "test.metal:1:5: error: program-scope variable 'counter' must be declared in the constant address space",
            "test.metal:4:15: error: program-scope variable 'p' must be declared in the constant address space",
            "test.metal:6:21: error: program-scope variable 't' must be declared in the constant address space",
        }));
}

// Test that static data members and variable templates are program-scope variables too, and
// that a static local built with parentheses is a variable, not a function.
TEST(Restrictions, StaticMembersTemplatesAndParenthesisedLocals) {
    EXPECT_EQ(check("struct S { static inline int counter = 0; static constexpr int k = 1; int plain; };\n"
                    "template <typename T> T scratch = T();\ntemplate <typename T> constant T pi = T(3);\n"
                    "void f() { static float4 v(1, 2, 3, 4); }"),
              (std::vector<std::string>{
                  "test.metal:4:12: error: static local variables must be const",
                  "test.metal:1:30: error: program-scope variable 'counter' must be declared in the constant "
                  "address space",
                  "test.metal:2:25: error: program-scope variable 'scratch' must be declared in the constant "
                  "address space",
              }));
}

// Test that files the allowsFile option refuses are reported where they were included, or
// where a #line named them; allowed and pseudo files are not.
TEST(Restrictions, DisallowedFiles) {
    std::string source = "# 1 \"main.metal\"\n"
                         "# 1 \"/opt/metalcpu/include/metal_stdlib\" 1 3\n"
                         "# 2 \"main.metal\" 2\n"
                         "# 1 \"/usr/include/stdio.h\" 1 3\n"
                         "# 3 \"main.metal\" 2\n"
                         "# 1 \"<built-in>\"\n"
                         "# 4 \"main.metal\"\n"
                         "# 40 \"/etc/passwd\"\n"
                         "constant int k = 1;";
    TranslateOptions options;
    options.allowsFile = [](const std::string& file) { return file.starts_with("/opt/metalcpu/include/"); };
    EXPECT_EQ(check(source, options),
              (std::vector<std::string>{
                  "test.metal:2:1: error: kernel code cannot include '/usr/include/stdio.h': it is outside the "
                  "allowed include directories",
                  "test.metal:4:1: error: '#line' cannot name '/etc/passwd': it is outside the allowed include "
                  "directories",
              }));
    EXPECT_TRUE(check(source).empty()); // without the option, nothing is checked
}

} // namespace
} // namespace metalcpu::msl
