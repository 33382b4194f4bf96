#include "compiler/passes/member_specialisations.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    rewriteMemberSpecialisations(p->tokens, p->partner, p->module);
    return testing::render(p->tokens);
}

// Test that a member template's explicit specialisation in its class (MLX reduction/ops.h's
// Max::operator() for complex64_t) becomes an ordinary member, explicit arguments and all.
TEST(MemberSpecialisations, BecomeOrdinaryMembers) {
    EXPECT_EQ(rewrite("template <typename U> struct Max {\n"
                      "  template <typename T> T operator()(T a, T b) { return a; }\n"
                      "  template <> C operator()(C a, C b) { return b; }\n"
                      "  template <typename T> T f(T a);\n"
                      "  template <> int f<int>(int a) { return a; }\n"
                      "};"),
              "template <typename U> struct Max {\n"
              "template <typename T> T operator()(T a, T b) { return a; }\n"
              "C operator()(C a, C b) { return b; }\n"
              "template <typename T> T f(T a);\n"
              "int f(int a) { return a; }\n"
              "};");
}

// Test that specialisations at namespace scope, which GCC accepts, stay.
TEST(MemberSpecialisations, NamespaceScopeStays) {
    const char* source = "template <typename T> T g(T a) { return a; }\n"
                         "template <> int g<int>(int a) { return a; }";
    EXPECT_EQ(rewrite(source), source);
}

} // namespace
} // namespace metalcpu::msl
