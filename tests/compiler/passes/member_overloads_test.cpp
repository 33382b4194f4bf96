#include "compiler/passes/member_overloads.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    collapseAddressSpaceOverloads(p->tokens, p->module);
    return testing::render(p->tokens);
}

// Test that overloads on the address space of `this` collapse to the thread one.
TEST(MemberOverloads, KeepsThreadVersion) {
    EXPECT_EQ(rewrite("struct B {\n"
                      "  B() thread = default;\n"
                      "  B() device = default;\n"
                      "  operator float() const device { return 2; }\n"
                      "  operator float() const thread { return 1; }\n"
                      "  operator float() const constant { return 3; }\n"
                      "  template <typename U> U to() const threadgroup { return U(0); }\n"
                      "  template <typename U> U to() const thread { return U(1); }\n"
                      "};"),
              "struct B {\n"
              "B() thread = default;\n"
              "\n"
              "\n"
              "operator float() const thread { return 1; }\n"
              "\n"
              "\n"
              "template <typename U> U to() const thread { return U(1); }\n"
              "};");
}

// Test that members differing in parameters or const-ness are separate overloads and stay.
TEST(MemberOverloads, RealOverloadsStay) {
    std::string source = "struct S {\n"
                         "  void set(float v) device { }\n"
                         "  void set(int v) thread { }\n"
                         "  float get() const device { return 0; }\n"
                         "  float get() device { return 1; }\n"
                         "};";
    EXPECT_EQ(rewrite(source), "struct S {\n"
                               "void set(float v) device { }\n"
                               "void set(int v) thread { }\n"
                               "float get() const device { return 0; }\n"
                               "float get() device { return 1; }\n"
                               "};");
}

// Test that without a thread version the unqualified one is kept, else the first.
TEST(MemberOverloads, FallbackChoice) {
    EXPECT_EQ(rewrite("struct S { int f() device { return 1; } int f() { return 2; } };"),
              "struct S { int f() { return 2; } };");
    EXPECT_EQ(rewrite("struct S { int f() device { return 1; } int f() threadgroup { return 2; } };"),
              "struct S { int f() device { return 1; } };");
}

} // namespace
} // namespace metalcpu::msl
