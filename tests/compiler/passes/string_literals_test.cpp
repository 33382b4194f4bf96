#include "compiler/passes/string_literals.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// `source` after the string-literals pass of the validation flavour.
std::string literals(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteStringLiterals, true);
}

// Test that literals that decay to pointers become their objects' names: a pointer's
// initialiser, a call's argument, a returned value, an array of pointers; the same spelling
// names the same object, and adjacent pieces are one literal.
TEST(StringLiterals, DecayingLiteralsNameObjects) {
    EXPECT_EQ(literals("constant const char* s = \"abc\";"), "constant const char* s = ::__mc_string_0.text;");
    EXPECT_EQ(literals("void f() { g(\"abc\", \"de\"); h(\"abc\"); }"),
              "void f() { g(::__mc_string_0.text, ::__mc_string_1.text); h(::__mc_string_0.text); }");
    EXPECT_EQ(literals("constant char* f() { return \"a\" \"b\"; }"), "constant char* f() { return ::__mc_string_0.text ; }");
    EXPECT_EQ(literals("constant const char* constant names[] = {\"a\", \"b\"};"),
              "constant const char* constant names[] = {::__mc_string_0.text, ::__mc_string_1.text};");
    EXPECT_EQ(literals("void f() { if (x) { p = \"a\"; } }"), "void f() { if (x) { p = ::__mc_string_0.text; } }");
    EXPECT_EQ(literals("constant S k(\"a\");"), "constant S k(::__mc_string_0.text);");
}

// Test that literals that initialise character arrays, or may, stay literals, and so do the
// operands that must be literals (static_assert, attributes, decltype).
TEST(StringLiterals, ArrayInitialisersAndLiteralOperandsStay) {
    for (const char* kept : {
             "constant char w[] = \"word\";",
             "void f() { char s[4] = \"abc\"; }",
             "constant char w[2][4] = {\"ab\", \"cd\"};",
             "constant Entry t[] = {{\"ab\", 1}};",
             "void f() { S s{\"ab\"}; }",
             "void f() { g({\"ab\"}); }",
             "static_assert(true, \"message\");",
             "[[deprecated(\"old\")]] void f();",
             "void f() { decltype(\"ab\") r = x; }",
         })
        EXPECT_EQ(literals(kept), kept);
}

// Test that a literal in a braced initialiser of a class the file defines becomes its
// object's name where the member it initialises is declared a pointer, by position or by
// designator, in an array of the class or one object (s29-literals' open case), and stays a
// literal where the member is an array, where the class cannot be read simply (a template, a
// base class) or where the list is not one element's (brace elision).
TEST(StringLiterals, PointerMembersOfBracedInitialisers) {
    const std::string named = "struct Entry { int value; constant const char* name; char tag[4]; };\n";
    EXPECT_EQ(literals(named + "constant Entry t[] = {{1, \"a\", \"b\"}, {2, \"c\"}};"),
              named + "constant Entry t[] = {{1, ::__mc_string_0.text, \"b\"}, {2, ::__mc_string_1.text}};");
    EXPECT_EQ(literals(named + "void f() { Entry e{1, \"a\"}; Entry g = {.value = 2, .name = \"b\", .tag = \"c\"}; }"),
              named + "void f() { Entry e{1, ::__mc_string_0.text}; Entry g = {.value = 2, .name = ::__mc_string_1.text, "
                      ".tag = \"c\"}; }");
    const std::string functions =
        "struct Msg { Msg() = default; int f(int x) { return x; } char a[2], *p; private: constant const char* text; };\n";
    EXPECT_EQ(literals(functions + "constant Msg m = {\"x\", \"y\", \"z\"};"),
              functions + "constant Msg m = {\"x\", ::__mc_string_0.text, ::__mc_string_1.text};");
    for (const char* kept : {
             "struct E { char tag[4]; int v; }; constant E t[] = {{\"ab\", 1}};",
             "template <class T> struct E { const char* s; }; constant E<int> t = {\"ab\"};",
             "struct B {}; struct E : B { const char* s; }; constant E t = {{}, \"ab\"};",
             "struct E { const char* s; int v; }; constant E t[] = {\"ab\", 1};",
         })
        EXPECT_EQ(literals(kept), kept);
}

// Test that __func__ in a free function's body becomes the object of the function's name,
// but not in a lambda's body, where it names the lambda's operator.
TEST(StringLiterals, FunctionNames) {
    EXPECT_EQ(literals("void report() { copy(__func__); }"), "void report() { copy(::__mc_string_0.text); }");
    EXPECT_EQ(literals("void report() { auto l = [] { return __func__; }; }"),
              "void report() { auto l = [] { return __func__; }; }");
}

// Test that each literal's object holds its characters between two bytes that no region
// includes.
TEST(StringLiterals, Definitions) {
    EXPECT_EQ(stringLiteralDefinitions({{"\"a\" \"b\"", "__mc_string_0"}}),
              "constexpr struct { char before; char text[sizeof(\"a\" \"b\")]; char end; } __mc_string_0 = {0, "
              "\"a\" \"b\", 0};\n");
}

} // namespace
} // namespace metalcpu::msl
