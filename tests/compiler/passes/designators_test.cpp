#include "compiler/passes/designators.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/division.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source, std::vector<std::string>* messages = nullptr) {
    auto p = testing::parse(source);
    std::string text = testing::runPass(*p, rewriteArrayDesignators);
    if (messages) *messages = p->messages();
    return text;
}

// Test that GNU ranges and single-index designators are written out in order, with `{}` for
// the positions they skip, nested lists included (erased designators leave a blank).
TEST(ArrayDesignators, WrittenOut) {
    EXPECT_EQ(rewrite("float k[8] = {[0 ... 3] = 1.0f, [4 ... 7] = x + 1};"),
              "float k[8] = { 1.0f, 1.0f, 1.0f, 1.0f, x + 1, x + 1, x + 1, x + 1};");
    EXPECT_EQ(rewrite("int a[4] = {[2] = 5, 6};"), "int a[4] = { {}, {}, 5, 6};");
    EXPECT_EQ(rewrite("int m[2][2] = {{[1] = 1}, {[0 ... 1] = f(1, 2)}};"),
              "int m[2][2] = {{ {}, 1}, { f(1, 2), f(1, 2)}};");
}

// Test that lambdas, attributes and statements keep their brackets.
TEST(ArrayDesignators, OtherBracketsStay) {
    const char* source = "void f() { auto g = [=](int i) { return i; }; [[maybe_unused]] int a[2] = {g(1), 2}; }";
    EXPECT_EQ(rewrite(source), source);
}

// Test that indices that are not literal constants or that go backwards are errors.
TEST(ArrayDesignators, Errors) {
    std::vector<std::string> messages;
    rewrite("int a[4] = {[N] = 1};", &messages);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("array designators need increasing integer constants"), std::string::npos);
    rewrite("int a[4] = {[2] = 1, [1] = 2};", &messages);
    EXPECT_EQ(messages.size(), 1u);
}

// Test that a designator whose index an earlier pass rewrote (a division) goes whole, with
// that pass's edit, and no overlap is reported.
TEST(ArrayDesignators, TakesOverRewrittenIndices) {
    auto p = testing::parse("int a[4] = {[4 / 2] = 7};");
    EXPECT_EQ(testing::runPasses(*p, {rewriteDivisions, rewriteArrayDesignators}), "int a[4] = { {}, {}, 7};");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that a range whose value is itself a designated list copies it written out (inner
// lists first; before, the copies kept the inner designators, which g++ rejects).
TEST(ArrayDesignators, NestedRangeValues) {
    EXPECT_EQ(rewrite("int m[3][2] = {[0 ... 1] = {[1] = 5}, [2] = {7}};"),
              "int m[3][2] = { { {}, 5}, { {}, 5}, {7}};");
}

// Test that a local array whose designators have indices the front end cannot evaluate (a
// template parameter, a constexpr local, sizeof) is value-initialised and filled after its
// declaration, one designate() per element in order; the positions the list leaves out stay
// value-initialised, and an element without a designator follows the one before it.
TEST(ArrayDesignators, FillsLocalArraysWithConstantIndices) {
    EXPECT_EQ(rewrite("template <short N> void f() { float s[N] = {[0 ... N - 1] = 1.0f}; }"),
              "template <short N> void f() { float s[N] = { }; "
              "::metalcpu_kernel::designate<(0), (N - 1)>(s, 1.0f); }");
    EXPECT_EQ(rewrite("void f() { constexpr short N = 4; int s[N] = {7, [1 ... N - 2] = 2, 3}; }"),
              "void f() { constexpr short N = 4; int s[N] = { }; "
              "::metalcpu_kernel::designate<0, 0>(s, 7); ::metalcpu_kernel::designate<(1), (N - 2)>(s, 2); "
              "::metalcpu_kernel::designate<(N - 2) + 1, (N - 2) + 1>(s, 3); }");
    // In a lambda's body too, which has statements of its own.
    EXPECT_EQ(rewrite("template <short N> void f() { auto g = [] { float s[N] = {[0 ... N - 1] = 1.0f}; }; }"),
              "template <short N> void f() { auto g = [] { float s[N] = { }; "
              "::metalcpu_kernel::designate<(0), (N - 1)>(s, 1.0f); }; }");
    // And in a local class's member function, whose body has a tree of its own too.
    EXPECT_EQ(rewrite("template <short N> void f() { struct S { void g() { float s[N] = {[0 ... N - 1] = 1.0f}; } }; }"),
              "template <short N> void f() { struct S { void g() { float s[N] = { }; "
              "::metalcpu_kernel::designate<(0), (N - 1)>(s, 1.0f); } }; }");
    // An array of arrays takes a braced value, written out when its own designators are literal.
    EXPECT_EQ(rewrite("void f() { float v[sizeof(int)][2] = {[0 ... sizeof(int) - 1] = {[1] = x}}; }"),
              "void f() { float v[sizeof(int)][2] = { }; "
              "::metalcpu_kernel::designate<(0), (sizeof(int) - 1)>(v, { {}, x}); }");
}

// Test that a range whose value may have side effects is filled, so that it is evaluated once
// as GCC evaluates it, while a single index or a constant value is still written out.
TEST(ArrayDesignators, RangeValuesWithEffectsAreEvaluatedOnce) {
    EXPECT_EQ(rewrite("void f() { int a[3] = {[0 ... 2] = g()}; }"),
              "void f() { int a[3] = { }; ::metalcpu_kernel::designate<(0), (2)>(a, g()); }");
    EXPECT_EQ(rewrite("void f() { int a[3] = {[0 ... 2] = i++}; }"),
              "void f() { int a[3] = { }; ::metalcpu_kernel::designate<(0), (2)>(a, i++); }");
    EXPECT_EQ(rewrite("void f() { int a[3] = {[1] = g(), [2 ... 2] = h()}; }"),
              "void f() { int a[3] = { {}, g(), h()}; }");
    EXPECT_EQ(rewrite("void f() { int a[3] = {[0 ... 2] = x + 1}; }"),
              "void f() { int a[3] = { x + 1, x + 1, x + 1}; }");
}

// Test that indices the front end cannot evaluate are an error where no statement can follow
// the declaration: program scope, a const or static local, a for-init, a list that is not the
// whole initializer.
TEST(ArrayDesignators, ConstantIndicesOutsideLocalArraysAreErrors) {
    for (const char* source : {
             "constant float k[N] = {[0 ... N - 1] = 1};",
             "void f() { const float k[N] = {[0 ... N - 1] = 1}; }",
             "void f() { static float k[N] = {[0 ... N - 1] = 1}; }",
             "void f() { for (float k[N] = {[0 ... N - 1] = 1};;) {} }",
             "void f() { float k[N][2] = {{[0 ... N - 1] = 1}}; }",
             "void f() { float k[N] = {[0 ... N - 1] = 1}, j; }",
             "struct S { float k[N] = {[0 ... N - 1] = 1}; };",
         }) {
        std::vector<std::string> messages;
        rewrite(source, &messages);
        ASSERT_EQ(messages.size(), 1u) << source;
        EXPECT_NE(messages[0].find("except in the initializer `= {...}` of a local array"), std::string::npos)
            << source;
    }
}

// Test that a designator whose non-literal index an earlier pass rewrote (a division) is
// filled with that pass's edit.
TEST(ArrayDesignators, FillCarriesRewrittenIndices) {
    auto p = testing::parse("void f() { float a[C / E] = {[0 ... C / E - 1] = 1.0f}; }");
    const std::string text = testing::runPasses(*p, {rewriteDivisions, rewriteArrayDesignators});
    EXPECT_NE(text.find("designate<(0), (C /__mc_div->* E - 1)>(a, 1.0f);"), std::string::npos) << text;
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
