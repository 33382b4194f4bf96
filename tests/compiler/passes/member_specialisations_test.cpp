#include "compiler/passes/member_specialisations.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteMemberSpecialisations);
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

// Test that a specialisation address-space-overloads erased stays erased, without a second
// rewrite (an overlap report), and the one it kept becomes an ordinary member.
TEST(MemberSpecialisations, SkipsErasedOverloads) {
    auto p = testing::parse("struct S {\n"
                            "  template <typename T> T f() thread;\n"
                            "  template <> int f<int>() device { return 1; }\n"
                            "  template <> int f<int>() thread { return 1; }\n"
                            "};");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteMemberSpecialisations}),
              "struct S {\n"
              "template <typename T> T f() thread;\n"
              "\n"
              "int f() thread { return 1; }\n"
              "};");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
