#include "compiler/passes/aggregate_constructors.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, eraseAggregateConstructors);
}

// Test that a class whose constructors are all defaulted default constructors loses them, in
// the forms libraries write (a class template's `MD<T>()`, `constexpr`, an address space).
TEST(AggregateConstructors, DefaultedDefaultConstructorsAreErased) {
    EXPECT_EQ(rewrite("template <typename T> struct MD {\n"
                      "  T m;\n"
                      "  float d;\n"
                      "  constexpr MD<T>() = default;\n"
                      "};"),
              "template <typename T> struct MD {\n"
              "T m;\n"
              "float d;\n"
              "\n"
              "};");
    EXPECT_EQ(rewrite("struct S { uint i; S() thread = default; };"), "struct S { uint i; };");
    EXPECT_EQ(rewrite("struct S { uint i; constexpr S(void) = default; };"), "struct S { uint i; };");
}

// Test that the constructors stay when erasing them would change the class: another
// constructor (the implicit default one would be gone), `explicit`, deleted, private, or
// defined with a body.
TEST(AggregateConstructors, OtherwiseTheyStay) {
    for (const char* source : {
             "struct S { uint i; S() = default; S(uint v) : i(v) {} };",
             "struct S { uint i; S() = default; S(const thread S&) = default; };",
             "struct S { uint i; explicit S() = default; };",
             "struct S { uint i; S() = delete; };",
             "struct S { private: uint i; S() = default; };",
             "struct S { uint i; S() {} };",
             "struct S { uint i; template <typename U> S(U u) : i(u) {} S() = default; };",
         })
        EXPECT_EQ(rewrite(source), source) << source;
}

// Test the pass after address-space-overloads, as the pipeline runs them: the copies for
// other address spaces go with the one that was kept.
TEST(AggregateConstructors, AfterAddressSpaceOverloads) {
    auto p = testing::parse("struct H {\n"
                            "  float state;\n"
                            "  H() thread = default;\n"
                            "  H() threadgroup = default;\n"
                            "  H() device = default;\n"
                            "};");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, eraseAggregateConstructors}),
              "struct H {\n"
              "float state;\n"
              "\n"
              "\n"
              "\n"
              "};");
}

} // namespace
} // namespace metalcpu::msl
