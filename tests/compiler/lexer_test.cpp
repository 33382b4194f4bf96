#include "compiler/lexer.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

struct Lexed {
    FileTable files{"test.metal"};
    Diagnostics diagnostics{files};
    TokenList tokens;
    std::vector<IncludeEvent> includes;
};

std::unique_ptr<Lexed> lex(std::string_view source) {
    auto l = std::make_unique<Lexed>();
    Lexer lexer(source, l->files, l->diagnostics);
    l->tokens = lexer.lex();
    l->includes = lexer.includes();
    return l;
}

void expectToken(const Token& t, TokenKind kind, std::string_view spelling, std::uint32_t line,
                 std::uint32_t column) {
    EXPECT_EQ(t.kind, kind) << t.spelling << " is a " << tokenKindName(t.kind) << ", not a " << tokenKindName(kind);
    EXPECT_EQ(t.spelling, spelling);
    EXPECT_EQ(t.location.line, line) << t.spelling;
    EXPECT_EQ(t.location.column, column) << t.spelling;
}

// Test that identifiers (keywords and MSL words alike) carry their exact location.
TEST(Lexer, Identifiers) {
    auto l = lex("kernel void _f2$(device x)");
    ASSERT_EQ(l->tokens.size(), 8u);
    expectToken(l->tokens[0], TokenKind::Identifier, "kernel", 1, 1);
    expectToken(l->tokens[1], TokenKind::Identifier, "void", 1, 8);
    expectToken(l->tokens[2], TokenKind::Identifier, "_f2$", 1, 13);
    expectToken(l->tokens[3], TokenKind::Punctuator, "(", 1, 17);
    expectToken(l->tokens[4], TokenKind::Identifier, "device", 1, 18);
    expectToken(l->tokens[5], TokenKind::Identifier, "x", 1, 25);
    expectToken(l->tokens[6], TokenKind::Punctuator, ")", 1, 26);
    EXPECT_EQ(l->tokens[7].kind, TokenKind::End);
}

// Test that pp-numbers include MSL's half suffix, exponents with signs, hex, and separators.
TEST(Lexer, Numbers) {
    auto l = lex("1.5h 2H 0x1Fu 1e-3f .5 1'000 0x1p+3 7");
    ASSERT_EQ(l->tokens.size(), 9u);
    expectToken(l->tokens[0], TokenKind::Number, "1.5h", 1, 1);
    expectToken(l->tokens[1], TokenKind::Number, "2H", 1, 6);
    expectToken(l->tokens[2], TokenKind::Number, "0x1Fu", 1, 9);
    expectToken(l->tokens[3], TokenKind::Number, "1e-3f", 1, 15);
    expectToken(l->tokens[4], TokenKind::Number, ".5", 1, 21);
    expectToken(l->tokens[5], TokenKind::Number, "1'000", 1, 24);
    expectToken(l->tokens[6], TokenKind::Number, "0x1p+3", 1, 30);
    expectToken(l->tokens[7], TokenKind::Number, "7", 1, 37);
}

// Test that string literals keep prefixes and escapes, and adjacent literals stay separate.
TEST(Lexer, Strings) {
    auto l = lex(R"(x = "a\"b" u8"c" L"d" "e" "f";)");
    ASSERT_EQ(l->tokens.size(), 9u);
    expectToken(l->tokens[2], TokenKind::String, R"("a\"b")", 1, 5);
    expectToken(l->tokens[3], TokenKind::String, R"(u8"c")", 1, 12);
    expectToken(l->tokens[4], TokenKind::String, R"(L"d")", 1, 18);
    expectToken(l->tokens[5], TokenKind::String, R"("e")", 1, 23);
    expectToken(l->tokens[6], TokenKind::String, R"("f")", 1, 27);
}

// Test that a raw string spans lines and the tokens after it keep their lines and columns.
TEST(Lexer, RawStringAcrossLines) {
    auto l = lex("s = R\"x(a )\"\nb)x\"; t");
    ASSERT_EQ(l->tokens.size(), 6u);
    expectToken(l->tokens[2], TokenKind::String, "R\"x(a )\"\nb)x\"", 1, 5);
    expectToken(l->tokens[3], TokenKind::Punctuator, ";", 2, 5);
    expectToken(l->tokens[4], TokenKind::Identifier, "t", 2, 7);
}

// Test that character literals, with prefixes and escapes, are single tokens.
TEST(Lexer, Characters) {
    auto l = lex("'a' '\\'' u'b'");
    ASSERT_EQ(l->tokens.size(), 4u);
    expectToken(l->tokens[0], TokenKind::Character, "'a'", 1, 1);
    expectToken(l->tokens[1], TokenKind::Character, "'\\''", 1, 5);
    expectToken(l->tokens[2], TokenKind::Character, "u'b'", 1, 10);
}

// Test that punctuators take the longest match, except that `>>` and `[[` are always split.
TEST(Lexer, Punctuators) {
    auto l = lex("a::b->*c >>= [[x]] ... <=> <<");
    std::vector<std::string> spellings;
    for (const Token& t : l->tokens)
        if (t.kind != TokenKind::End) spellings.push_back(t.spelling);
    std::vector<std::string> expected = {"a", "::", "b", "->*", "c",   ">",   ">=", "[",
                                         "[", "x",  "]", "]",   "...", "<=>", "<<"};
    EXPECT_EQ(spellings, expected);
    EXPECT_FALSE(l->tokens[6].spaceBefore); // the `>=` of `>>=` follows its `>` directly
    EXPECT_FALSE(l->tokens[8].spaceBefore);
}

// Test that digraphs are the tokens they stand for, keeping their own columns, and that `<::`
// is `<` `::` unless a third `:` or a `>` follows.
TEST(Lexer, Digraphs) {
    auto l = lex("int v<:2:> = <% 5, 6 %>; a<::b> c<:::d:> e<::>");
    std::vector<std::string> spellings;
    for (const Token& t : l->tokens)
        if (t.kind != TokenKind::End) spellings.push_back(t.spelling);
    std::vector<std::string> expected = {"int", "v", "[", "2", "]", "=", "{", "5", ",", "6", "}", ";", "a", "<",
                                         "::", "b", ">", "c", "[", "::", "d", "]", "e", "[", "]"};
    EXPECT_EQ(spellings, expected);
    expectToken(l->tokens[6], TokenKind::Punctuator, "{", 1, 14);
    expectToken(l->tokens[10], TokenKind::Punctuator, "}", 1, 22);
    EXPECT_EQ(l->tokens[6].text, "{");
    EXPECT_FALSE(l->diagnostics.hasErrors());
}

// Test that a `#` or `##` outside a directive, in any spelling, is an error at the token: the
// translated text is preprocessed again, where a `#` that a macro put at the start of a line
// would be a directive of the kernel's making. Only a `#` in the first column starts a
// directive (the preprocessor writes its own there, and a blank before one a macro made).
TEST(Lexer, StrayHashes) {
    const std::pair<std::string_view, std::string> cases[] = {
        {" # include \"/etc/passwd\"\n", "test.metal:1:2: error: stray '#' in kernel code: a macro cannot make a "
                                          "preprocessor directive"},
        {" %: include \"/etc/passwd\"\n", "test.metal:1:2: error: stray '%:' in kernel code: a macro cannot make a "
                                           "preprocessor directive"},
        {"x # y", "test.metal:1:3: error: stray '#' in kernel code: a macro cannot make a preprocessor directive"},
        {"a ## b", "test.metal:1:3: error: stray '##' in kernel code: a macro cannot make a preprocessor directive"},
        {"a %:%: b",
         "test.metal:1:3: error: stray '%:%:' in kernel code: a macro cannot make a preprocessor directive"},
        {" # pragma GCC dependency \"/etc/passwd\"\n",
         "test.metal:1:2: error: stray '#' in kernel code: a macro cannot make a preprocessor directive"},
    };
    for (const auto& [source, expected] : cases) {
        SCOPED_TRACE(source);
        auto l = lex(source);
        ASSERT_FALSE(l->diagnostics.list().empty());
        EXPECT_EQ(l->diagnostics.list()[0].format(), expected);
        for (const Token& t : l->tokens) EXPECT_NE(t.kind, TokenKind::Pragma);
    }
}

// Test that lexing stops with an error at the first token past the limit, which bounds the
// front end's memory (it runs in the compiling process).
TEST(Lexer, TokenLimit) {
    FileTable files("test.metal");
    Diagnostics diagnostics(files);
    Lexer lexer("a b c\nd e f", files, diagnostics);
    lexer.limitTokens(3);
    TokenList tokens = lexer.lex();
    EXPECT_EQ(tokens.size(), 5u); // a b c d End
    ASSERT_EQ(diagnostics.list().size(), 1u);
    EXPECT_EQ(diagnostics.list()[0].format(),
              "test.metal:2:1: error: the preprocessed source has more than 3 tokens: does a macro expand to a huge "
              "initializer? (METALCPU_COMPILE_TOKEN_LIMIT raises the limit; 0 removes it)");
}

// Test that comments are skipped and count as whitespace, also across lines.
TEST(Lexer, Comments) {
    auto l = lex("a/* x\n y */b // c\nd");
    ASSERT_EQ(l->tokens.size(), 4u);
    expectToken(l->tokens[0], TokenKind::Identifier, "a", 1, 1);
    expectToken(l->tokens[1], TokenKind::Identifier, "b", 2, 6);
    EXPECT_TRUE(l->tokens[1].spaceBefore);
    EXPECT_FALSE(l->tokens[1].startOfLine);
    expectToken(l->tokens[2], TokenKind::Identifier, "d", 3, 1);
    EXPECT_TRUE(l->tokens[2].startOfLine);
}

// Test that a #pragma line is one token, at the column of its `#`.
TEST(Lexer, Pragma) {
    auto l = lex("x;\n#pragma unroll 4\ny;");
    ASSERT_EQ(l->tokens.size(), 6u);
    expectToken(l->tokens[2], TokenKind::Pragma, "#pragma unroll 4", 2, 1);
    expectToken(l->tokens[3], TokenKind::Identifier, "y", 3, 1);
}

// Test that a pragma continued with a line splice becomes one line.
TEST(Lexer, PragmaWithSplice) {
    auto l = lex("#pragma clang loop \\\n  unroll(full)\nx");
    ASSERT_EQ(l->tokens.size(), 3u);
    expectToken(l->tokens[0], TokenKind::Pragma, "#pragma clang loop    unroll(full)", 1, 1);
    expectToken(l->tokens[1], TokenKind::Identifier, "x", 3, 1);
}

// Test that linemarkers set the file and line of the tokens after them, and are not tokens.
TEST(Lexer, Linemarkers) {
    auto l = lex("# 0 \"main.metal\"\n"
                 "# 1 \"main.metal\"\n"
                 "# 1 \"inc/h.h\" 1\n"
                 "int a;\n"
                 "# 7 \"main.metal\" 2\n"
                 "\n"
                 "  int b;\n");
    ASSERT_EQ(l->tokens.size(), 7u);
    expectToken(l->tokens[0], TokenKind::Identifier, "int", 1, 1);
    EXPECT_EQ(l->tokens[0].location.file, 1u);
    EXPECT_EQ(l->files.spelling(1), "inc/h.h");
    expectToken(l->tokens[3], TokenKind::Identifier, "int", 8, 3);
    EXPECT_EQ(l->tokens[3].location.file, 0u);
    EXPECT_EQ(l->files.reportedName(0), "test.metal"); // the main file is reported as the option says
    EXPECT_EQ(l->files.spelling(0), "main.metal");
    ASSERT_EQ(l->includes.size(), 1u);
    EXPECT_EQ(l->includes[0].file, 1u);
    EXPECT_EQ(l->includes[0].includedFrom.line, 1u);
}

// Test that `#line` directives work like linemarkers, and are recorded as naming a file.
TEST(Lexer, LineDirective) {
    auto l = lex("#line 40 \"other.metal\"\nx");
    ASSERT_EQ(l->tokens.size(), 2u);
    expectToken(l->tokens[0], TokenKind::Identifier, "x", 40, 1);
    EXPECT_EQ(l->files.spelling(l->tokens[0].location.file), "other.metal");
    auto renamed = lex("# 1 \"main.metal\"\n#line 40 \"other.metal\"\nx");
    ASSERT_EQ(renamed->includes.size(), 1u);
    EXPECT_TRUE(renamed->includes[0].lineDirective);
    EXPECT_EQ(renamed->files.spelling(renamed->includes[0].file), "other.metal");
}

// Test that a line splice is whitespace and the next physical line keeps its own number.
TEST(Lexer, LineSplice) {
    auto l = lex("a \\\nb");
    ASSERT_EQ(l->tokens.size(), 3u);
    expectToken(l->tokens[1], TokenKind::Identifier, "b", 2, 1);
}

// Test that an unterminated string is reported at its start.
TEST(Lexer, UnterminatedString) {
    auto l = lex("x = \"abc\ny");
    ASSERT_EQ(l->diagnostics.list().size(), 1u);
    EXPECT_EQ(l->diagnostics.list()[0].format(), "test.metal:1:5: error: unterminated string literal");
}

// Test that characters outside C++ are reported.
TEST(Lexer, UnexpectedCharacter) {
    auto l = lex("a @ b");
    ASSERT_EQ(l->diagnostics.list().size(), 1u);
    EXPECT_EQ(l->diagnostics.list()[0].format(), "test.metal:1:3: error: unexpected character '@'");
}

// Test that directives other than linemarkers and pragmas mean the input was not preprocessed.
TEST(Lexer, UnpreprocessedDirective) {
    auto l = lex("#include <metal_stdlib>\n");
    ASSERT_EQ(l->diagnostics.list().size(), 1u);
    EXPECT_EQ(l->diagnostics.list()[0].format(),
              "test.metal:1:1: error: unexpected preprocessor directive '#include'; kernel source must be "
              "preprocessed first");
}

// Test that raw-source mode skips directive lines entirely.
TEST(Lexer, RawSourceSkipsDirectives) {
    FileTable files("x");
    Diagnostics diagnostics(files);
    Lexer lexer("#include <a>\n  #define N 3\n%:define M #\nint y;", files, diagnostics, /*rawSource=*/true);
    TokenList tokens = lexer.lex();
    EXPECT_FALSE(diagnostics.hasErrors());
    ASSERT_EQ(tokens.size(), 4u);
    expectToken(tokens[0], TokenKind::Identifier, "int", 4, 1);
}

} // namespace
} // namespace metalcpu::msl
