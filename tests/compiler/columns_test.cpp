#include "compiler/columns.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using testing::parse;

// The original of "a.metal" that the preprocessed snippets below come from.
constexpr std::string_view kOriginal =
    "#define N 16\n"
    "kernel void f(device float*    out,    uint i [[thread_position_in_grid]])\n"
    "{\n"
    "\tout[i]   =   N *  2;\n"
    "}\n";

OriginalSourceReader readerFor(std::string_view name, std::string_view text) {
    return [name = std::string(name),
            text = std::string(text)](const std::string& file) -> std::optional<std::string> {
        if (file == name) return text;
        return std::nullopt;
    };
}

// Test that tokens in the middle of lines get their original columns back, tokens from macro
// expansions take the column of the macro's name, and first tokens keep theirs.
TEST(Columns, RestoresCollapsedSpacing) {
    auto p = parse("# 1 \"a.metal\"\n"
                   "\n"
                   "kernel void f(device float* out, uint i [[thread_position_in_grid]])\n"
                   "{\n"
                   " out[i] = 16 * 2;\n"
                   "}\n");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    restoreColumns(p->tokens, p->files, readerFor("a.metal", kOriginal));
    EXPECT_EQ(p->tokens[p->find("out")].location.column, 32u);
    EXPECT_EQ(p->tokens[p->find("uint")].location.column, 40u);
    EXPECT_EQ(p->tokens[p->find("i")].location.column, 45u);
    EXPECT_EQ(p->tokens[p->find("out", 1)].location.column, 2u);
    EXPECT_EQ(p->tokens[p->find("=")].location.column, 11u);
    EXPECT_EQ(p->tokens[p->find("16")].location.column, 15u); // where N is written
    EXPECT_EQ(p->tokens[p->find("*", 1)].location.column, 17u);
    EXPECT_EQ(p->tokens[p->find("2")].location.column, 20u);
}

// Test that a macro expanding to punctuation cannot pull the tokens after it out of place.
TEST(Columns, MacroExpansionDoesNotShiftLaterTokens) {
    auto p = parse("# 1 \"m.metal\"\n  inline __attribute__((always_inline)) void f(int a) {}\n");
    restoreColumns(p->tokens, p->files, readerFor("m.metal", "  METAL_FUNC void   f(int    a) {}\n"));
    EXPECT_EQ(p->tokens[p->find("inline")].location.column, 3u);
    EXPECT_EQ(p->tokens[p->find("always_inline")].location.column, 3u); // the macro's column
    EXPECT_EQ(p->tokens[p->find("void")].location.column, 14u);
    EXPECT_EQ(p->tokens[p->find("f")].location.column, 21u);
    EXPECT_EQ(p->tokens[p->find("a")].location.column, 30u);
}

// Test that a line that is one macro expanding to 400000 tokens (an initializer made by
// nested macros, a few hundred bytes of source) aligns in linear time: every token takes the
// macro's column, the one after it its own. Each unmatched token used to search forward for
// the next matched one: quadratic, 40 s for this line in newLibrary()'s process.
TEST(Columns, LongExpansionsAlignInLinearTime) {
    std::string line = "  ";
    for (int i = 0; i < 200000; ++i) line += "1 , ";
    auto p = parse("# 1 \"big.metal\"\n" + line + "x\n");
    restoreColumns(p->tokens, p->files, readerFor("big.metal", "  B   x\n"));
    EXPECT_EQ(p->tokens[0].location.column, 3u);
    EXPECT_EQ(p->tokens[399999].location.column, 3u);
    EXPECT_EQ(p->tokens[p->find("x")].location.column, 7u);
}

// Test that without the original text the preprocessor's columns stay.
TEST(Columns, UnknownFileKeepsColumns) {
    auto p = parse("# 1 \"b.metal\"\nint a,  b;");
    restoreColumns(p->tokens, p->files, readerFor("a.metal", kOriginal));
    EXPECT_EQ(p->tokens[p->find("b")].location.column, 9u);
    restoreColumns(p->tokens, p->files, OriginalSourceReader());
    EXPECT_EQ(p->tokens[p->find("b")].location.column, 9u);
}

} // namespace
} // namespace metalcpu::msl
