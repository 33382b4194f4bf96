#include "compiler/passes/attributes.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/kernel_signatures.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteAttributes);
}

// Test that MSL attributes on helper functions and struct members are removed.
TEST(Attributes, RemovesMslAttributes) {
    EXPECT_EQ(rewrite("short2 coord(ushort lane [[thread_index_in_simdgroup]]) { return 0; }"),
              "short2 coord(ushort lane ) { return 0; }");
    EXPECT_EQ(rewrite("struct Args { device float* data [[id(0)]]; };"),
              "struct Args { device float* data ; };");
}

// Test that standard and GNU attributes stay.
TEST(Attributes, KeepsStandardAttributes) {
    EXPECT_EQ(rewrite("[[maybe_unused]] int x; if (a) [[likely]] { } [[gnu::always_inline]] void f();"),
              "[[maybe_unused]] int x; if (a) [[likely]] { } [[gnu::always_inline]] void f();");
}

// Test that a list mixing standard and MSL attributes is removed whole.
TEST(Attributes, MixedListRemoved) {
    EXPECT_EQ(rewrite("void f(int a [[maybe_unused, thread_index_in_simdgroup]]);"), "void f(int a );");
}

// Test that specifiers another pass rewrote (kernel-signatures erases a kernel's) are left to
// it: no second rewrite of their tokens, so no overlap report.
TEST(Attributes, SkipsRewritten) {
    auto p = testing::parse("[[kernel]] void f() {}");
    EXPECT_EQ(testing::runPasses(*p, {rewriteKernelSignatures, rewriteAttributes}),
              "inline void f([[maybe_unused]] const ::mc_group* __mc_group) {}");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that function-constant attributes are removed (rewriteFunctionConstants() gives the
// declaration its value).
TEST(Attributes, FunctionConstants) {
    EXPECT_EQ(rewrite("constant bool has_bias [[function_constant(0)]];"), "constant bool has_bias ;");
}

} // namespace
} // namespace metalcpu::msl
