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

// Test that `kernel` and every attribute of the function and its parameters go, and the
// hidden group parameter comes last.
TEST(KernelSignatures, KernelKeywordForm) {
    EXPECT_EQ(rewrite("kernel void f(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {}"),
              "void f(device float* a , uint i , [[maybe_unused]] const ::mc_group* __mc_group) {}");
}

// Test the attribute forms, with and without other attributes in the list.
TEST(KernelSignatures, AttributeForms) {
    EXPECT_EQ(rewrite("[[kernel]] void f() {}"), "void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    EXPECT_EQ(rewrite("[[kernel, max_total_threads_per_threadgroup(64)]] void f(void) {}"),
              "void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
}

// Test that kernel declarations get the hidden parameter too, and other functions are untouched.
TEST(KernelSignatures, DeclarationsAndOtherFunctions) {
    EXPECT_EQ(rewrite("kernel void f(device int* x);\nvoid g(int y [[maybe_unused]]) {}"),
              "void f(device int* x, [[maybe_unused]] const ::mc_group* __mc_group);\n"
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
