#include "compiler/passes/constant_initialisation.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source, testing::Analysis analysis = testing::Analysis::MustSucceed) {
    auto p = testing::parse(source);
    EXPECT_TRUE(p->messages().empty());
    return testing::runPass(*p, rewriteConstantInitialisation, false, analysis);
}

/// The static_assert written after a variable `name` described as `what`.
std::string destructorCheck(const std::string& what, const std::string& name) {
    return " static_assert(__has_trivial_destructor(__typeof__(" + name + ")), \"" + what + " '" + name +
           "' must be trivially destructible (no kernel code may run when a library unloads)\");";
}

// Test that a program-scope variable gets constinit (constexpr when it is a `constant`
// initialised with `=` or braces, a constant expression in MSL) and a destructor check; when
// it starts its line, the specifier ends the line before, so its own tokens keep their columns.
TEST(ConstantInitialisation, ProgramScopeVariables) {
    const std::string k = destructorCheck("program-scope variable", "k");
    const std::string table = destructorCheck("program-scope variable", "table");
    EXPECT_EQ(rewrite("constant float k = 1;\nstruct A { int a; };\nconstant int table[2] = {1, 2};"),
              "constexpr constant float k = 1;" + k + "\nstruct A { int a; }; constexpr\nconstant int table[2] = {1, 2};" +
                  table);
    EXPECT_EQ(rewrite("constant int braced{3};"), "constexpr constant int braced{3};" +
                                                      destructorCheck("program-scope variable", "braced"));
    EXPECT_EQ(rewrite("const float g = 1;"), "constinit const float g = 1;" + destructorCheck("program-scope variable", "g"));
    EXPECT_EQ(rewrite("namespace n { [[maybe_unused]] constant S s(1, 2); }"),
              "namespace n { [[maybe_unused]] constinit constant S s(1, 2);" +
                  destructorCheck("program-scope variable", "s") + " }");
}

// Test that constexpr variables (constant-initialised already; constinit may not join them)
// keep only the destructor check, variable templates become constexpr (a literal type: no
// destructor but a constexpr one), and a member of a class template defined outside it gets
// constinit (its class's declaration has the check).
TEST(ConstantInitialisation, ConstexprAndTemplates) {
    EXPECT_EQ(rewrite("constexpr constant static float kv[2] = {1, 2};"),
              "constexpr constant static float kv[2] = {1, 2};" + destructorCheck("program-scope variable", "kv"));
    EXPECT_EQ(rewrite("template <typename T> constant T pi = T(3.14);"),
              "template <typename T> constexpr constant T pi = T(3.14);");
    EXPECT_EQ(rewrite("template <typename T> constexpr constant T e = T(2.72);"),
              "template <typename T> constexpr constant T e = T(2.72);");
    EXPECT_EQ(rewrite("template <class T> struct S { static const D d; };\ntemplate <class T> const D S<T>::d{};"),
              "template <class T> struct S { constinit static const D d;" +
                  destructorCheck("program-scope variable", "d") +
                  " };\ntemplate <class T> constinit const D S<T>::d{};");
}

// Test that the destructor check of a reference is of what it refers to: in
// `constant Dtor& r = Dtor();` the temporary lives, and is destroyed at exit, with it.
TEST(ConstantInitialisation, ReferencesAreCheckedThroughTheirReferent) {
    EXPECT_EQ(rewrite("constant Dtor& r = Dtor();"),
              "constexpr constant Dtor& r = Dtor();" + destructorCheck("program-scope variable", "r"));
}

// Test that in a constexpr constant's initialiser a one-letter component of another
// program-scope vector constant becomes a subscript (the component names are union members a
// constant expression may not read; SPIRV-Cross's `_27 = gl_WorkGroupSize.x`), and that other
// members, vectors that are not program-scope constants and swizzles stay.
TEST(ConstantInitialisation, VectorComponentsInConstantInitialisers) {
    const std::string size = destructorCheck("program-scope variable", "size");
    const std::string w = destructorCheck("program-scope variable", "w");
    EXPECT_EQ(rewrite("constant uint3 size = uint3(8u, 2u, 1u);\nconstant uint w = size.x * size.z + s.x + size.xy.y;"),
              "constexpr constant uint3 size = uint3(8u, 2u, 1u);" + size +
                  " constexpr\nconstant uint w = size[0] * size[2] + s.x + size.xy.y;" + w);
    EXPECT_EQ(rewrite("constant packed_float4 p = {1, 2, 3, 4};\nconstant float a = p.a;"),
              "constexpr constant packed_float4 p = {1, 2, 3, 4};" + destructorCheck("program-scope variable", "p") +
                  " constexpr\nconstant float a = p[3];" + destructorCheck("program-scope variable", "a"));
}

// Test that static data members get both, in the class and where they are defined outside
// it (named with their class there).
TEST(ConstantInitialisation, StaticDataMembers) {
    EXPECT_EQ(rewrite("struct S { static constant float f; static constexpr int n = 2; int plain; };\n"
                      "constant float S::f = 2;"),
              "struct S { constinit static constant float f;" + destructorCheck("program-scope variable", "f") +
                  " static constexpr int n = 2;" + destructorCheck("program-scope variable", "n") +
                  " int plain; }; constinit\nconstant float S::f = 2;" +
                  destructorCheck("program-scope variable", "S::f"));
}

// Test that static locals get both (constinit stays on their line, where a piece of a
// work-item loop may open), constexpr ones only the check, and static member functions of
// local classes nothing.
TEST(ConstantInitialisation, StaticLocals) {
    EXPECT_EQ(rewrite("float f(float x) { static const float scale = 4; static constexpr int n = 2;\n"
                      "  struct L { static int g() { return 0; } }; return x * scale + n + L::g(); }"),
              "float f(float x) { constinit static const float scale = 4;" +
                  destructorCheck("static local variable", "scale") + " static constexpr int n = 2;" +
                  destructorCheck("static local variable", "n") +
                  "\nstruct L { static int g() { return 0; } }; return x * scale + n + L::g(); }");
}

// Test that extern and threadgroup variables, which the restricted dialect's checks refuse, are left alone.
TEST(ConstantInitialisation, RefusedDeclarationsAreLeftAlone) {
    EXPECT_EQ(rewrite("extern constant int e;\nthreadgroup float t[4];", testing::Analysis::MayFail),
              "extern constant int e;\nthreadgroup float t[4];");
}

// Test that static locals of a function an earlier pass erased (an address-space overload
// collapsed away) get nothing: what is inserted around erased tokens would still print.
TEST(ConstantInitialisation, SkipsErasedFunctions) {
    auto p = testing::parse("struct S { int f() device { static int m = 0; return m; } "
                            "int f() thread { static int m = 0; return m; } };");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteConstantInitialisation}),
              "struct S { int f() thread { constinit static int m = 0;" + destructorCheck("static local variable", "m") +
                  " return m; } };");
}

} // namespace
} // namespace metalcpu::msl
