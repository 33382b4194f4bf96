#include "compiler/passes/literals.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteHalfLiterals);
}

// Test that half literals become half conversions of float literals.
TEST(HalfLiterals, Rewritten) {
    EXPECT_EQ(rewrite("x = 1.5h + 2H - 1e-3h * .5h + 1.h;"),
              "x = half(1.5f) + half(2.0f) - half(1e-3f) * half(.5f) + half(1.f);");
}

// Test that bfloat literals become bfloat conversions of float literals.
TEST(HalfLiterals, BfloatRewritten) {
    EXPECT_EQ(rewrite("x = 5.0bf + 2BF * 1e-2bf;"), "x = bfloat(5.0f) + bfloat(2.0f) * bfloat(1e-2f);");
}

// Test that other numbers keep their spelling.
TEST(HalfLiterals, OthersUnchanged) {
    EXPECT_EQ(rewrite("x = 1.5f + 0x1Fh + 0xbf + 2 + 3u + 1e3;"), "x = 1.5f + 0x1Fh + 0xbf + 2 + 3u + 1e3;");
}

// Test that literals of a declaration an earlier pass erased are left to it (no overlap report).
TEST(HalfLiterals, SkipsErasedDeclarations) {
    auto p = testing::parse("struct S { half f() device { return 2.5h; } half f() thread { return 2.5h; } };");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteHalfLiterals}),
              "struct S { half f() thread { return half(2.5f); } };");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
