#include "compiler/template_names.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using testing::parse;

// Test that a `<` after a constant (`constexpr`, `const` or `constant` with an initialiser) is
// a comparison inside template arguments, at namespace and class scope: the template header
// closes where C++ closes it and the scanner reads the declaration.
TEST(TemplateNames, ComparisonAfterAConstant) {
    auto p = parse("constexpr int kLimit = 4;\n"
                   "struct S { static constexpr constant uint kSize = 2; };\n"
                   "template <int N, enable_if_t<kLimit < 8, bool> = true, enable_if_t<S::kSize < N, int> = 0>\n"
                   "int f();");
    ASSERT_TRUE(p->messages().empty()) << p->messages()[0];
    EXPECT_TRUE(p->tokens[p->find("kLimit", 1)].neverTemplate);
    EXPECT_TRUE(p->tokens[p->find("kSize", 1)].neverTemplate);
    const std::size_t header = p->find("<", 0);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, header, p->tokens.size()), p->find(">", 2));
    EXPECT_EQ(closingAngle(p->tokens, p->partner, header + 5, p->tokens.size()), p->find(">", 0));
    ASSERT_EQ(p->module.functions.size(), 1u);
    EXPECT_EQ(p->module.functions[0].name, "f");
}

// Test that a dependent name without `template` (after a type parameter's `T::`, after `>::`,
// after another dependent name) is not a template, and that `T::template x<` still is.
TEST(TemplateNames, ComparisonAfterADependentName) {
    auto p = parse("template <typename T, enable_if_t<T::size < 8, bool> = true,\n"
                   "          enable_if_t<is_same<T, int>::value < 2 && T::U::n < 3, bool> = true>\n"
                   "int f() { return T::template get<4>(); }");
    ASSERT_TRUE(p->messages().empty()) << p->messages()[0];
    EXPECT_TRUE(p->tokens[p->find("size")].neverTemplate);
    EXPECT_TRUE(p->tokens[p->find("value")].neverTemplate);
    EXPECT_TRUE(p->tokens[p->find("n")].neverTemplate);
    EXPECT_FALSE(p->tokens[p->find("is_same")].neverTemplate);
    EXPECT_FALSE(p->tokens[p->find("get")].neverTemplate);
    ASSERT_EQ(p->module.functions.size(), 1u);
    const std::size_t get = p->find("get");
    EXPECT_EQ(closingAngle(p->tokens, p->partner, get + 1, p->tokens.size()), get + 3);
}

// Test that a constant declared in a block is one only to the end of that block, that a name
// also declared as a template anywhere keeps opening lists, and that parameters and later
// declarators of a list are not constants.
TEST(TemplateNames, ScopesAndExceptions) {
    auto p = parse("void f() { const int n = 3; g<(n < 2)>(); }\n"
                   "void h() { x<n<int>>(); }\n"
                   "template <typename T> constexpr constant T pi = T(3);\n"
                   "constexpr float pi2 = pi<float> * 2;\n"
                   "void k(const int m = 3) { y<m<int>>(); }");
    ASSERT_TRUE(p->messages().empty()) << p->messages()[0];
    EXPECT_TRUE(p->tokens[p->find("n", 1)].neverTemplate) << "in its block";
    EXPECT_FALSE(p->tokens[p->find("n", 2)].neverTemplate) << "after its block";
    EXPECT_FALSE(p->tokens[p->find("pi", 1)].neverTemplate) << "a variable template";
    EXPECT_TRUE(p->tokens[p->find("pi2")].neverTemplate);
    EXPECT_FALSE(p->tokens[p->find("m", 1)].neverTemplate) << "a parameter";
}

} // namespace
} // namespace metalcpu::msl
