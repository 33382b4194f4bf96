#include "compiler/passes/pragmas.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewritePragmas);
}

// Test that Clang's unroll pragmas become GCC's.
TEST(Pragmas, Unroll) {
    EXPECT_EQ(rewrite("#pragma unroll\n"), "#pragma GCC unroll 16");
    EXPECT_EQ(rewrite("#pragma unroll 4\n"), "#pragma GCC unroll 4");
    EXPECT_EQ(rewrite("#pragma unroll(8)\n"), "#pragma GCC unroll 8");
    EXPECT_EQ(rewrite("#  pragma unroll N\n"), "#pragma GCC unroll 16"); // GCC needs a literal
    EXPECT_EQ(rewrite("#pragma nounroll\n"), "#pragma GCC unroll 1");
    EXPECT_EQ(rewrite("#pragma clang loop unroll(full)\n"), "#pragma GCC unroll 16");
    EXPECT_EQ(rewrite("#pragma clang loop unroll(disable)\n"), "#pragma GCC unroll 1");
    EXPECT_EQ(rewrite("#pragma clang loop unroll_count(2)\n"), "#pragma GCC unroll 2");
}

// Test that other pragmas pass through unchanged.
TEST(Pragmas, OthersPassThrough) {
    EXPECT_EQ(rewrite("#pragma once\n"), "#pragma once");
    EXPECT_EQ(rewrite("#pragma METAL internals : enable\n"), "#pragma METAL internals : enable");
}

// Test how pragma lines split into words.
TEST(Pragmas, Words) {
    EXPECT_EQ(pragmaWords("# pragma clang loop unroll(full)"),
              (std::vector<std::string>{"clang", "loop", "unroll", "full"}));
}

// Test that pragmas of a declaration an earlier pass erased are left to it (no overlap report).
TEST(Pragmas, SkipsErasedDeclarations) {
    auto p = testing::parse("struct S {\nvoid f() device {\n#pragma unroll 2\nfor (;;) {} }\n"
                            "void f() thread {\n#pragma unroll 2\nfor (;;) {} }\n};");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewritePragmas}),
              "struct S {\n\n\n\nvoid f() thread {\n#pragma GCC unroll 2\nfor (;;) {} }\n};");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
