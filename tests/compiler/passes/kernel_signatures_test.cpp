#include "compiler/passes/kernel_signatures.h"

#include "compiler/compiler_test_util.h"
#include "compiler/edits.h"
#include "compiler/kernels.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPasses(*p, {rewriteKernelSignatures, eraseKernelInstantiations});
}

// Test that `kernel` becomes `inline` (only the group function calls a kernel, and inlines
// it), every attribute of the function and its parameters goes, and the hidden group
// parameter comes last.
TEST(KernelSignatures, KernelKeywordForm) {
    EXPECT_EQ(rewrite("kernel void f(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {}"),
              "inline void f(device float* a , uint i , [[maybe_unused]] const ::mc_group* __mc_group) {}");
}

// Test the attribute forms, with and without other attributes in the list.
TEST(KernelSignatures, AttributeForms) {
    EXPECT_EQ(rewrite("[[kernel]] void f() {}"), "inline void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    EXPECT_EQ(rewrite("[[kernel, max_total_threads_per_threadgroup(64)]] void f(void) {}"),
              "inline void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    // After the parameters, the attribute only goes: there is no place for `inline` there.
    EXPECT_EQ(rewrite("void f() [[kernel]] {}"), "void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
}

// Test that a kernel that says its own linkage, or a template kernel (its instantiation is
// the group function's call), is not made inline.
TEST(KernelSignatures, LinkageOfItsOwnStays) {
    EXPECT_EQ(rewrite("static kernel void f() {}"), "static void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    EXPECT_EQ(rewrite("inline kernel void f() {}"), "inline void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    EXPECT_EQ(rewrite("template <typename T> kernel void f(device T* x) {}"),
              "template <typename T> void f(device T* x, [[maybe_unused]] const ::mc_group* __mc_group) {}");
}

// Test that kernel declarations get the hidden parameter too, and other functions are untouched.
TEST(KernelSignatures, DeclarationsAndOtherFunctions) {
    EXPECT_EQ(rewrite("kernel void f(device int* x);\nvoid g(int y [[maybe_unused]]) {}"),
              "inline void f(device int* x, [[maybe_unused]] const ::mc_group* __mc_group);\n"
              "void g(int y [[maybe_unused]]) {}");
}

// Test that kernel instantiations are erased, and ordinary ones stay.
TEST(KernelSignatures, ErasesKernelInstantiations) {
    EXPECT_EQ(rewrite("template <typename T> [[kernel]] void f(device T* x) {}\n"
                      "template [[host_name(\"f_float\")]] [[kernel]] decltype(f<float>) f<float>;\n"
                      "template <typename T> T g(T x) { return x; }\n"
                      "template int g<int>(int);"),
              "template <typename T> void f(device T* x, [[maybe_unused]] const ::mc_group* __mc_group) {}\n"
              "\n"
              "template <typename T> T g(T x) { return x; }\n"
              "template int g<int>(int);");
}

// Test the helper that evaluates a template-dependent thread limit.
TEST(KernelSignatures, MaxThreadsHelper) {
    auto p = testing::parse(
        "template <int WM, int WN> [[kernel, max_total_threads_per_threadgroup(WM * WN)]] void f() {}");
    const FunctionDecl& f = p->module.functions[0];
    const Attribute& limit = f.attributes[0].attributes[1];
    EditList edits(p->tokens, p->diagnostics);
    std::string name = addMaxThreadsHelper(edits, f, 7, limit.arguments);
    EXPECT_EQ(name, "__mc_max_threads_7");
    EXPECT_EQ(
        p->tokens[f.bodyClose].suffix,
        " namespace { template <int WM, int WN> constexpr unsigned __mc_max_threads_7() { return (WM * WN); } }");
}

} // namespace
} // namespace metalcpu::msl
