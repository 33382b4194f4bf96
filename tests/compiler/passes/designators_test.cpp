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

} // namespace
} // namespace metalcpu::msl
