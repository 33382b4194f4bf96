#include "compiler/emitter/code_writer.h"

#include "compiler/columns.h"
#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string write(testing::Parsed& p) {
    CodeWriter writer(p.files);
    writer.writeTokens(p.tokens);
    return writer.take();
}

// Test that tokens land on their original lines and columns, with one #line at the start.
TEST(CodeWriter, KeepsLinesAndColumns) {
    auto p = testing::parse("int   a;\n\n   float b;");
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\nint   a;\n\n   float b;\n");
}

// Test that erased tokens leave their columns blank and replaced text keeps later columns.
TEST(CodeWriter, ErasedAndReplaced) {
    auto p = testing::parse("constant float* device x;");
    p->tokens[0].text = "const";
    p->tokens[3].erased = true;
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\nconst    float*        x;\n");
}

// Test that text inserted before a token pushes the rest of an expression right, one space
// apart only where the source had whitespace, and that a statement it pushed (`x` after `{`)
// goes back to its column on a line of its own.
TEST(CodeWriter, InsertedText) {
    auto p = testing::parse("f(a) {x>>1;}");
    p->tokens[3].prefix = ", const ::mc_group* g";
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\nf(a, const ::mc_group* g) {\n#line 1 \"test.metal\"\n      x>>1;}\n");
    auto q = testing::parse("g(a + b, c);");
    q->tokens[4].prefix = "(long)";
    EXPECT_EQ(write(*q), "#line 1 \"test.metal\"\ng(a + (long)b, c);\n") << "within an expression text follows";
}

// Test that statements a pass wraps around the user's (as the barrier passes do: the end of
// one work-item loop and the start of the next, before `int`; a longer `co_await` in place of
// a barrier's name) leave every user statement at its line and column, also those that share
// a line with the inserted text.
TEST(CodeWriter, StatementsKeepTheirColumns) {
    auto p = testing::parse("{\n    a = 1;\n    int x = 2;   int y = 3;\n    barrier(m);   int z;\n}");
    // tokens: { a = 1 ; int x = 2 ; int y = 3 ; barrier ( m ) ; int z ; }
    p->tokens[5].prefix = "}); run([&](ids t) { ";
    p->tokens[10].prefix = "place(x); ";
    p->tokens[15].text = "co_await ::metalcpu_kernel::barrier_point";
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\n{\n    a = 1;\n    }); run([&](ids t) { \n#line 3 \"test.metal\"\n"
                   "    int x = 2;   place(x); \n#line 3 \"test.metal\"\n"
                   "                 int y = 3;\n    co_await ::metalcpu_kernel::barrier_point(m);\n#line 4 \"test.metal\"\n"
                   "                  int z;\n}\n");
}

std::vector<std::string> spellings(const TokenList& tokens) {
    std::vector<std::string> out;
    for (const Token& t : tokens)
        if (t.kind != TokenKind::End) out.push_back(t.spelling);
    return out;
}

// Test that tokens of a macro expansion, which restoreColumns() gives the macro's column, never
// join with the token next to them where the preprocessor kept them apart (`#define M -` makes
// `b M-b` `b - -b`, which must not print as `b --b`), while tokens the source wrote together
// stay together (`>>`): the output lexes as the same tokens.
TEST(CodeWriter, TokensNeverJoin) {
    const std::pair<std::string_view, std::string_view> cases[] = {
        {"b - -b;", "b M-b;"},         {"b + +b;", "b P+b;"},           {"x(16 / / 2) y;", "x(16 S/ 2) y;"},
        {"b / *a;", "b D*a;"},         {"b- - 1;", "b-M 1;"},           {"x - > y;", "x M> y;"},
        {"a b;", "AB;"},               {"1e +5;", "E+5;"},              {"s . 5;", "s D5;"},
        {"f < :: g;", "f L:: g;"},     {"v<v<int>> x;", "v<v<int>> x;"}, {"& &x;", "A&x;"},
    };
    for (const auto& [pp, original] : cases) {
        SCOPED_TRACE(pp);
        auto p = testing::parse("# 1 \"m.metal\"\n" + std::string(pp) + "\n");
        restoreColumns(p->tokens, p->files, [original = std::string(original)](const std::string&) {
            return std::optional<std::string>(original);
        });
        const std::string out = write(*p);
        auto reread = testing::parse(out.substr(out.find('\n') + 1));
        EXPECT_EQ(spellings(reread->tokens), spellings(p->tokens)) << out;
    }
}

// Test that a #line directive is written when the file changes or the line goes backwards or
// jumps far ahead, and plain newlines otherwise.
TEST(CodeWriter, LineDirectives) {
    auto p = testing::parse(
        "# 1 \"a.metal\"\nx\n# 1 \"inc.h\" 1\ny\n# 3 \"a.metal\" 2\nz\n# 40 \"a.metal\"\nw\n# 2 \"a.metal\"\nv");
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\nx\n"
                         "#line 1 \"inc.h\"\ny\n"
                         "#line 3 \"test.metal\"\nz\n"
                         "#line 40 \"test.metal\"\nw\n"
                         "#line 2 \"test.metal\"\nv\n");
}

// Test that a pragma gets a line of its own even when something precedes it on its line.
TEST(CodeWriter, PragmaOnItsOwnLine) {
    auto p = testing::parse("a;\n#pragma GCC unroll 4\nfor(;;);");
    p->tokens[1].suffix = " b;"; // the `;` of line 1 gets generated text
    EXPECT_EQ(write(*p), "#line 1 \"test.metal\"\na; b;\n#pragma GCC unroll 4\nfor(;;);\n");
}

// Test that generated code follows its own #line marker.
TEST(CodeWriter, Generated) {
    auto p = testing::parse("x;");
    CodeWriter writer(p->files);
    writer.writeRaw("#include <p.h>\n");
    writer.writeTokens(p->tokens);
    writer.writeGenerated("<gen>", "int y;");
    EXPECT_EQ(writer.take(), "#include <p.h>\n#line 1 \"test.metal\"\nx;\n#line 1 \"<gen>\"\nint y;\n");
}

} // namespace
} // namespace metalcpu::msl
