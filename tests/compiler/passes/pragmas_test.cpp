#include "compiler/passes/pragmas.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/division.h"
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
              "struct S {\n\n\n\nvoid f() thread {\n#pragma GCC unroll 2\nfor (; true;) {} }\n};");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that a loop whose condition divides moves the condition to the top of its body after
// an unroll pragma (GCC drops the annotation of such a condition in a template instantiation
// and warns `ignoring loop annotation`), with the divisions pass's edits where they were and
// the increment copied; a body that is not a block stays in the loop through `else`.
TEST(Pragmas, DividingConditionsMoveIntoTheBody) {
    auto p = testing::parse("#pragma unroll\nfor (short k = 0; k < N / 8; k += 2) { f(k); }\n"
                            "#pragma unroll 2\nwhile (n % 4 != 0) n++;\n");
    EXPECT_EQ(testing::runPasses(*p, {rewriteDivisions, rewritePragmas}),
              "#pragma GCC unroll 16\nfor (short k = 0; true; k += 2) if (!(k < N /__mc_div->* 8)) break; else { f(k); }\n"
              "#pragma GCC unroll 2\nwhile (true) if (!(n %__mc_div->* 4 != 0)) break; else n++;");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that conditions without a division, loops without a pragma, a range-based for and a
// condition that declares a variable stay as written, and that a for without a condition gets
// `true` (GCC rejects an unroll pragma on a loop without one).
TEST(Pragmas, OtherLoopsStay) {
    for (const char* source : {"void f() {\n#pragma unroll\nfor (int k = 0; k < n; k++) {} }",
                               "void f() { for (int k = 0; k < n / 2; k++) {} }",
                               "void f() {\n#pragma unroll\nfor (int x : v / 2) {} }",
                               "void f() {\n#pragma unroll\nwhile (int r = n / 2) {} }",
                               "void f() {\n#pragma nounroll\ndo { n /= 2; } while (n / 2); }"}) {
        const std::string text = rewrite(source);
        EXPECT_NE(text.find("void f() {"), std::string::npos) << source;
        EXPECT_EQ(text.find("break"), std::string::npos) << source;
        EXPECT_EQ(text.find("true"), std::string::npos) << source;
    }
    EXPECT_EQ(rewrite("void f() {\n#pragma unroll 2\nfor (;;) {} }"), "void f() {\n#pragma GCC unroll 2\nfor (; true;) {} }");
}

} // namespace
} // namespace metalcpu::msl
