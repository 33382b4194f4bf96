#include "compiler/passes/division.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteDivisions);
}

// Test that every division and remainder routes its divisor through __mc_div, whatever the
// operand looks like, and the compound assignments through `=`.
TEST(Divisions, Operators) {
    EXPECT_EQ(rewrite("int f(int a, int b) { return a / b + a%b + a / -b + a / (int)b + a / *&b + a / b++; }"),
              "int f(int a, int b) { return a /__mc_div->* b + a%__mc_div->*b + a /__mc_div->* -b + "
              "a /__mc_div->* (int)b + a /__mc_div->* *&b + a /__mc_div->* b++; }");
    EXPECT_EQ(rewrite("void g(int a, int b) { a /= b + 1; a %= b, b; }"),
              "void g(int a, int b) { a /=__mc_div= b + 1; a %=__mc_div= b, b; }");
}

// Test that divisions in constant expressions are rewritten too (the helpers are constexpr):
// array bounds, template arguments, enumerators, static_assert.
TEST(Divisions, ConstantExpressions) {
    EXPECT_EQ(rewrite("template <int N> struct A { float v[N / 2]; };\nenum { kHalf = 8 / 2 };\n"
                      "static_assert(A<4 % 3>::v, \"\");"),
              "template <int N> struct A { float v[N /__mc_div->* 2]; };\nenum { kHalf = 8 /__mc_div->* 2 };\n"
              "static_assert(A<4 %__mc_div->* 3>::v, \"\");");
}

// Test that operator declarations, attribute arguments and GNU attributes are left alone.
TEST(Divisions, LeftAlone) {
    EXPECT_EQ(rewrite("S operator/(S a, int d); S operator%=(S& a, int d); auto p = &S::operator/;\n"
                      "[[kernel, max_total_threads_per_threadgroup(1024 / 2)]] void k() {}\n"
                      "__attribute__((aligned(32 / 2))) int x;"),
              "S operator/(S a, int d); S operator%=(S& a, int d); auto p = &S::operator/;\n"
              "[[kernel, max_total_threads_per_threadgroup(1024 / 2)]] void k() {}\n"
              "__attribute__((aligned(32 / 2))) int x;");
}

// Test that the operators of a declaration an earlier pass erased (an address-space overload
// collapsed away) are left to it: no second rewrite, so no overlap report.
TEST(Divisions, SkipsErasedDeclarations) {
    auto p = testing::parse("struct S { int f(int a) device { return a / 3; } int f(int a) thread { return a / 3; } };");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteDivisions}),
              "struct S { int f(int a) thread { return a /__mc_div->* 3; } };");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
