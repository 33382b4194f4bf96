#include "compiler/passes/kernel_selection.h"

#include "compiler/compiler_test_util.h"
#include "compiler/diagnostics.h"
#include "compiler/kernels.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// The kernels (host names) that reach each definition of a snippet, by function name; "?" for
/// a definition left unselected (its reach unknown).
struct Reach {
    std::unique_ptr<testing::Parsed> parsed;
    std::vector<EntryPoint> entryPoints;
    KernelReach reach;

    std::string of(std::string_view name, int n = 0) const {
        for (std::size_t i = 0; i < parsed->module.functions.size(); ++i) {
            const FunctionDecl& f = parsed->module.functions[i];
            if (f.name != name || !f.hasBody || n-- > 0) continue;
            if (!reach.selected[i]) return "?";
            std::string out;
            for (std::size_t e : reach.kernels[i]) out += (out.empty() ? "" : " ") + entryPoints[e].hostName;
            return out;
        }
        return "no definition";
    }
};

Reach reachOf(std::string_view source) {
    Reach r;
    r.parsed = testing::parse(source);
    r.entryPoints = findEntryPoints(r.parsed->tokens, r.parsed->module, r.parsed->diagnostics);
    const Unit unit(r.parsed->tokens, r.parsed->partner, r.parsed->module);
    r.reach = findKernelReach(unit, r.entryPoints);
    return r;
}

// Test that a helper is reached by the kernels that mention it, directly or through other
// helpers (templates included), overloads together, and an unused one by none.
TEST(KernelSelection, ReachThroughHelpers) {
    const Reach r = reachOf("float leaf(float x) { return x; }\n"
                            "float leaf(int x) { return x; }\n"
                            "float middle(float x) { return leaf(x); }\n"
                            "template <typename T> T generic(T x) { return leaf(x) + 1; }\n"
                            "float shared(float x) { return x; }\n"
                            "float unused(float x) { return x; }\n"
                            "float pointer_only(float x) { return x; }\n"
                            "kernel void a(device float* p) { p[0] = middle(shared(1)); }\n"
                            "kernel void b(device float* p) { p[0] = generic(2.0f) + shared(2); }\n"
                            "kernel void c(device float* p) { auto f = &pointer_only; p[0] = f(1); }\n");
    ASSERT_FALSE(r.parsed->diagnostics.hasErrors());
    EXPECT_EQ(r.of("leaf"), "a b");
    EXPECT_EQ(r.of("leaf", 1), "a b");
    EXPECT_EQ(r.of("middle"), "a");
    EXPECT_EQ(r.of("generic"), "b");
    EXPECT_EQ(r.of("shared"), "a b");
    EXPECT_EQ(r.of("unused"), "");
    EXPECT_EQ(r.of("pointer_only"), "c"); // a mention, not only a call
    EXPECT_EQ(r.of("a"), "a");
    EXPECT_EQ(r.of("c"), "c");
}

// Test that kernel templates are reached by their instantiations, and what they mention with them.
TEST(KernelSelection, KernelTemplatesReachThroughTheirInstantiations) {
    const Reach r = reachOf("float helper(float x) { return x; }\n"
                            "template <typename T> kernel void t(device T* p) { p[0] = helper(1); }\n"
                            "template [[host_name(\"t_float\")]] kernel void t<float>(device float*);\n"
                            "template [[host_name(\"t_int\")]] kernel void t<int>(device int*);\n"
                            "kernel void other(device float* p) { p[0] = 1; }\n");
    ASSERT_FALSE(r.parsed->diagnostics.hasErrors());
    EXPECT_EQ(r.of("t"), "t_float t_int");
    EXPECT_EQ(r.of("helper"), "t_float t_int");
    EXPECT_EQ(r.of("other"), "other");
}

// Test that a function named in an instantiation's template arguments (bound to a
// function-pointer parameter, as ggml's dequantizers are) is reached by that instantiation's
// entry point, and what it mentions with it.
TEST(KernelSelection, FunctionsNamedInInstantiationArguments) {
    const Reach r = reachOf("float scale(float x) { return x * 2; }\n"
                            "float twice(float x) { return scale(x); }\n"
                            "float thrice(float x) { return x * 3; }\n"
                            "template <float (*F)(float)> kernel void apply(device float* p) { p[0] = F(p[0]); }\n"
                            "template [[host_name(\"apply_twice\")]] kernel void apply<twice>(device float*);\n"
                            "template [[host_name(\"apply_thrice\")]] kernel void apply<thrice>(device float*);\n");
    ASSERT_FALSE(r.parsed->diagnostics.hasErrors());
    EXPECT_EQ(r.of("twice"), "apply_twice");
    EXPECT_EQ(r.of("scale"), "apply_twice");
    EXPECT_EQ(r.of("thrice"), "apply_thrice");
}

// Test that a kernel named anywhere but its own definition and explicit instantiations (ggml's
// `typedef decltype(kernel_x<float>) kernel_x_t;`, a `using` of its address, a call in a helper)
// stays unselected, and with it what it mentions; one named only by its instantiations is
// selected.
TEST(KernelSelection, KernelsNamedOutsideTheirInstantiationsAreUnknown) {
    const Reach r = reachOf("float helper(float x) { return x; }\n"
                            "float own_helper(float x) { return x; }\n"
                            "template <typename T> kernel void kt(device T* p) { p[0] = helper(1); }\n"
                            "typedef decltype(kt<float>) kt_t;\n"
                            "template [[host_name(\"kt_f32\")]] kernel kt_t kt<float>;\n"
                            "template <typename T> kernel void ku(device T* p) { p[0] = 1; }\n"
                            "using ku_t = decltype(&ku<int>);\n"
                            "template [[host_name(\"ku_i32\")]] kernel void ku<int>(device int*);\n"
                            "template <typename T> kernel void own(device T* p) { p[0] = own_helper(2); }\n"
                            "template [[host_name(\"own_f32\")]] kernel void own<float>(device float*);\n"
                            "kernel void k(device float* p) { p[0] = 2.0f; }\n"
                            "kernel void rows(device float* rows) { rows[0] = 1; }\n");
    ASSERT_FALSE(r.parsed->diagnostics.hasErrors());
    EXPECT_EQ(r.of("rows"), "rows"); // its own parameter and body do not count
    EXPECT_EQ(r.of("kt"), "?");
    EXPECT_EQ(r.of("helper"), "?"); // the unguarded template's body names it
    EXPECT_EQ(r.of("ku"), "?");
    EXPECT_EQ(r.of("own"), "own_f32");
    EXPECT_EQ(r.of("own_helper"), "own_f32");
    EXPECT_EQ(r.of("k"), "k");
}

// Test that a name mentioned outside the bodies of selected definitions leaves every
// definition of it unselected, and with them what they mention: a global initialiser, a
// member function, a class body, a parameter's default, a declaration's return type; and
// that members, operators, out-of-class member definitions and the functions C++ calls
// without naming them (a range-based for's begin and end) are never selected.
TEST(KernelSelection, MentionsOutsideSelectedBodiesAreUnknown) {
    const Reach r = reachOf("constexpr int in_global() { return 4; }\n"
                            "constant int kFour = in_global();\n"
                            "float in_member(float x) { return x; }\n"
                            "float below_member(float x) { return x; }\n"
                            "float through_member(float x) { return below_member(x); }\n"
                            "struct S { float m(float x) { return in_member(x) + through_member(x); } float n(); };\n"
                            "float S::n() { return 1; }\n"
                            "float in_default(float x) { return x; }\n"
                            "float with_default(float x = in_default(1)) { return x; }\n"
                            "float operator+(S a, S b) { return 0; }\n"
                            "struct R { int v[2]; };\n"
                            "thread const int* begin(thread const R& r) { return r.v; }\n"
                            "thread const int* end(thread const R& r) { return r.v + 2; }\n"
                            "kernel void k(device float* p) {\n"
                            "    S s; p[0] = s.m(in_global()) + s.n() + with_default() + in_member(1) + (s + s);\n"
                            "    R r{{1, 2}}; for (int x : r) p[0] += x;\n"
                            "}\n"
                            "kernel void other(device float* p) { p[0] = 1; }\n");
    ASSERT_FALSE(r.parsed->diagnostics.hasErrors());
    EXPECT_EQ(r.of("in_global"), "?");
    EXPECT_EQ(r.of("in_member"), "?");
    EXPECT_EQ(r.of("through_member"), "?");
    EXPECT_EQ(r.of("below_member"), "?"); // mentioned by a definition whose reach is unknown
    EXPECT_EQ(r.of("m"), "?");
    EXPECT_EQ(r.of("n"), "?");
    EXPECT_EQ(r.of("in_default"), "?");
    EXPECT_EQ(r.of("with_default"), "k");
    EXPECT_EQ(r.of("operator+"), "?");
    EXPECT_EQ(r.of("begin"), "?"); // called by the range-based for, never named
    EXPECT_EQ(r.of("end"), "?");
    EXPECT_EQ(r.of("k"), "k");
}

// Test the validation flavour's output: each kernel and each helper only some reach under the
// `#if` of those kernels, on lines of their own with the code after them back at its line; the
// helper every kernel reaches unguarded; the plain flavour with its kernels' entry points guarded only.
TEST(KernelSelection, GuardsFunctionsInTheValidationFlavourOnly) {
    constexpr std::string_view source = "# 1 \"two.metal\"\n"
                                        "float only_a(float x) { return x; } float both(float x) { return x; }\n"
                                        "kernel void a(device float* p) { p[0] = only_a(both(1)); }\n"
                                        "kernel void b(device float* p) { p[0] = both(2); }\n";
    TranslateOptions options;
    options.validation = true;
    const Translation v = translate(source, options);
    ASSERT_TRUE(v.ok) << testing::messages(v.diagnostics)[0];
    const std::string selectsA = "METALCPU_SELECTS_KERNEL(" + kernelSelector("a") + ")";
    EXPECT_NE(v.cpp.find("#if " + selectsA + "\n#line 1 \"two.metal\"\nfloat only_a(float x) { return x; }\n#endif\n"
                         "#line 1 \"two.metal\"\n" + std::string(36, ' ') + "float both("), // back at column 37
              std::string::npos)
        << v.cpp;
    EXPECT_NE(v.cpp.find("#if " + selectsA + "\n#line 2 \"two.metal\"\n"), std::string::npos) << v.cpp;
    const std::string selectsB = "METALCPU_SELECTS_KERNEL(" + kernelSelector("b") + ")";
    EXPECT_NE(v.cpp.find("#if " + selectsB + "\n#line 3 \"two.metal\"\n"), std::string::npos) << v.cpp;
    EXPECT_EQ(v.cpp.find("METALCPU_SELECTS_EVERY_KERNEL"), std::string::npos) << v.cpp;

    // The plain flavour guards only each kernel's entry-point code (for compiling in parts).
    const Translation plain = translate(source, {});
    ASSERT_TRUE(plain.ok);
    EXPECT_EQ(plain.cpp.find("#if " + selectsA + "\n#line"), std::string::npos) << plain.cpp;
    EXPECT_EQ(plain.cpp.find("#if " + selectsB + "\n#line"), std::string::npos) << plain.cpp;
    EXPECT_NE(plain.cpp.find("#if " + selectsA + "\nnamespace {\n"), std::string::npos) << plain.cpp;
    EXPECT_NE(plain.cpp.find("#if " + selectsB + "\nnamespace {\n"), std::string::npos) << plain.cpp;
}

// Test that the plain flavour of a file with function constants is guarded alike (a
// specialised pipeline compiles it for its kernel alone, jit/specialisation.h): helpers, kernels
// and each kernel's glue and table row; the table ends with the empty row the count leaves out.
TEST(KernelSelection, GuardsAFileWithFunctionConstants) {
    constexpr std::string_view source = "# 1 \"fc.metal\"\n"
                                        "constant int n [[function_constant(0)]];\n"
                                        "float only_a(float x) { return x + n; }\n"
                                        "kernel void a(device float* p) { p[0] = only_a(1); }\n"
                                        "kernel void b(device float* p) { p[0] = 2; }\n";
    const Translation plain = translate(source, {});
    ASSERT_TRUE(plain.ok) << testing::messages(plain.diagnostics)[0];
    const std::string selectsA = "#if METALCPU_SELECTS_KERNEL(" + kernelSelector("a") + ")\n";
    const std::string selectsB = "#if METALCPU_SELECTS_KERNEL(" + kernelSelector("b") + ")\n";
    EXPECT_NE(plain.cpp.find(selectsA + "#line 2 \"fc.metal\"\nfloat only_a("), std::string::npos) << plain.cpp;
    EXPECT_NE(plain.cpp.find(selectsB + "#line 4 \"fc.metal\"\n"), std::string::npos) << plain.cpp;
    EXPECT_NE(plain.cpp.find(selectsB + "namespace {\n"), std::string::npos) << plain.cpp; // b's glue
    EXPECT_NE(plain.cpp.find("    {},\n};\n"), std::string::npos) << plain.cpp;
}

// Test that a function reached by more than kMaxSelectedKernels kernels (but not all) stays
// unguarded, and one reached by exactly that many is guarded.
TEST(KernelSelection, WidelySharedFunctionsStayUnguarded) {
    std::string source = "# 1 \"many.metal\"\nfloat wide(float x) { return x; }\nfloat narrow(float x) { return x; }\n";
    for (std::size_t k = 0; k <= kMaxSelectedKernels + 1; ++k) {
        const std::string callee = k == kMaxSelectedKernels + 1 ? "1.0f" : k < kMaxSelectedKernels ? "narrow(wide(1))" : "wide(1)";
        source += "kernel void k" + std::to_string(k) + "(device float* p) { p[0] = " + callee + "; }\n";
    }
    TranslateOptions options;
    options.validation = true;
    const Translation v = translate(source, options);
    ASSERT_TRUE(v.ok) << testing::messages(v.diagnostics)[0];
    const std::size_t wide = v.cpp.find("float wide(");
    const std::size_t narrow = v.cpp.find("float narrow(");
    ASSERT_NE(wide, std::string::npos);
    ASSERT_NE(narrow, std::string::npos);
    // wide: 33 of 34 kernels; narrow: 32.
    EXPECT_EQ(v.cpp.rfind("#if", wide), std::string::npos) << v.cpp.substr(0, narrow);
    const std::size_t narrowGuard = v.cpp.rfind("#if ", narrow);
    ASSERT_NE(narrowGuard, std::string::npos);
    EXPECT_GT(narrowGuard, wide);
    const std::string guard = v.cpp.substr(narrowGuard, v.cpp.find('\n', narrowGuard) - narrowGuard);
    EXPECT_NE(guard.find(kernelSelector("k31")), std::string::npos) << guard;
    EXPECT_EQ(guard.find(kernelSelector("k32")), std::string::npos) << guard;
}

// Test the condition's spellings: one kernel, several, none.
TEST(KernelSelection, Conditions) {
    std::vector<EntryPoint> entryPoints(2);
    entryPoints[0].hostName = "x";
    entryPoints[1].hostName = "y";
    EXPECT_EQ(selectionCondition(entryPoints, {}), "METALCPU_SELECTS_EVERY_KERNEL");
    EXPECT_EQ(selectionCondition(entryPoints, {1}), "METALCPU_SELECTS_KERNEL(" + kernelSelector("y") + ")");
    EXPECT_EQ(selectionCondition(entryPoints, {0, 1}), "METALCPU_SELECTS_KERNEL(" + kernelSelector("x") +
                                                           ") || METALCPU_SELECTS_KERNEL(" + kernelSelector("y") + ")");
}

} // namespace
} // namespace metalcpu::msl
