#include "compiler/edits.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

// Test the three insertions' order: a later pass's insertBefore/insertAfter enclose what
// earlier passes inserted, attachBefore sits next to the token.
TEST(EditList, InsertionsCompose) {
    auto p = testing::parse("x;");
    EditList edits(p->tokens, p->diagnostics);
    edits.beginPass("first");
    edits.insertBefore(0, "a(");
    edits.insertAfter(0, ")");
    edits.beginPass("second");
    edits.insertBefore(0, "b(");
    edits.insertAfter(0, ")");
    edits.attachBefore(0, "*");
    EXPECT_EQ(testing::render(p->tokens), "b(a(*x));");
    EXPECT_TRUE(p->messages().empty());
}

// Test that a second rewrite of a token is an internal error naming both passes, reported
// once, and that the first rewrite stays.
TEST(EditList, OverlappingRewritesAreRejected) {
    auto p = testing::parse("a / b;");
    EditList edits(p->tokens, p->diagnostics);
    edits.beginPass("divisions");
    edits.replace(1, "/__mc_div->*");
    edits.beginPass("literals");
    edits.erase(TokenRange{0, 3});
    edits.replace(1, "?");
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{"test.metal:1:3: error: internal error: the literals pass rewrites '/', which "
                                        "the divisions pass already rewrote; please report this with the kernel "
                                        "source"}));
    EXPECT_EQ(testing::render(p->tokens), "/__mc_div->* ;");
    EXPECT_EQ(edits.rewrittenBy(1), "divisions");
    EXPECT_EQ(edits.rewrittenBy(0), "literals");
    EXPECT_EQ(edits.rewrittenBy(3), "");
}

// Test that a pass may not rewrite the same token twice either.
TEST(EditList, SamePassTwiceIsRejected) {
    auto p = testing::parse("a;");
    EditList edits(p->tokens, p->diagnostics);
    edits.beginPass("pass");
    edits.replace(0, "b");
    edits.erase(0);
    ASSERT_EQ(p->messages().size(), 1u);
    EXPECT_NE(p->messages()[0].find("the pass pass rewrites 'a', which the same pass already rewrote"),
              std::string::npos);
}

// Test that takeOver() replaces a range with text built from its output, earlier edits and
// insertions included, without an overlap report.
TEST(EditList, TakeOverSupersedesEarlierEdits) {
    auto p = testing::parse("int n[a / b] ;");
    EditList edits(p->tokens, p->diagnostics);
    edits.beginPass("divisions");
    edits.replace(p->find("/"), "/__mc_div->*");
    edits.insertAfter(p->find("n"), " /*n*/");
    edits.beginPass("threadgroup-variables");
    const std::string built = "auto& n = f<int[" + outputText(p->tokens, p->find("a"), p->find("]")) + "]>();";
    edits.takeOver(TokenRange{0, p->find(";") + 1}, built);
    EXPECT_EQ(testing::render(p->tokens), "auto& n = f<int[a /__mc_div->* b]>();");
    EXPECT_TRUE(p->messages().empty());
    EXPECT_EQ(edits.rewrittenBy(p->find("/")), "threadgroup-variables");
}

// Test that replace(range) changes nothing when a token of the range is already rewritten:
// erasing the rest around a text that could not be placed would drop source silently.
TEST(EditList, RangeReplaceIsAllOrNothing) {
    auto p = testing::parse("a / b;");
    EditList edits(p->tokens, p->diagnostics);
    edits.beginPass("divisions");
    edits.replace(p->find("/"), "/__mc_div->*");
    edits.beginPass("literals");
    edits.replace(TokenRange{0, 3}, "c");
    ASSERT_EQ(p->messages().size(), 1u);
    EXPECT_NE(p->messages()[0].find("the literals pass rewrites '/', which the divisions pass already rewrote"),
              std::string::npos);
    EXPECT_EQ(testing::render(p->tokens), "a /__mc_div->* b;");
    EXPECT_EQ(edits.rewrittenBy(0), "");
    EXPECT_EQ(edits.rewrittenBy(2), "");
}

// Test that edits past the end of the tokens are internal errors, not silently dropped.
TEST(EditList, EditsPastTheEndAreRejected) {
    for (int which = 0; which < 3; ++which) {
        auto p = testing::parse("a;");
        EditList edits(p->tokens, p->diagnostics);
        edits.beginPass("broken");
        const std::size_t end = p->tokens.size();
        if (which == 0) edits.takeOver(TokenRange{0, end + 1}, "b");
        else if (which == 1) edits.replace(TokenRange{0, end + 1}, "b");
        else edits.erase(end);
        ASSERT_EQ(p->messages().size(), 1u) << which;
        EXPECT_NE(p->messages()[0].find("internal error: the broken pass "), std::string::npos) << p->messages()[0];
        EXPECT_NE(p->messages()[0].find("past the end"), std::string::npos) << p->messages()[0];
        EXPECT_EQ(testing::render(p->tokens), "a;") << which;
    }
}

} // namespace
} // namespace metalcpu::msl
