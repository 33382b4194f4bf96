#include "compiler/source.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

// Test that a GCC linemarker with flags is read.
TEST(LineMarker, WithFlags) {
    auto m = parseLineMarker(" 12 \"dir/a.metal\" 1 3");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->line, 12u);
    EXPECT_EQ(m->file, "dir/a.metal");
    EXPECT_TRUE(m->entersFile);
    EXPECT_FALSE(m->returnsToFile);
    EXPECT_TRUE(m->systemHeader);
}

// Test that `#line N` with and without a file name is read.
TEST(LineMarker, LineDirective) {
    auto m = parseLineMarker("line 7");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->line, 7u);
    EXPECT_EQ(m->file, "");
    auto n = parseLineMarker("line 8 \"x.metal\" 2");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->file, "x.metal");
    EXPECT_TRUE(n->returnsToFile);
}

// Test that escaped file names are unescaped.
TEST(LineMarker, EscapedFileName) {
    auto m = parseLineMarker("1 \"a\\\\b \\\"c\\\".metal\"");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->file, "a\\b \"c\".metal");
}

// Test that other directives are not linemarkers.
TEST(LineMarker, NotAMarker) {
    EXPECT_FALSE(parseLineMarker("pragma once"));
    EXPECT_FALSE(parseLineMarker("define X 1"));
    EXPECT_FALSE(parseLineMarker("1 unquoted"));
}

// Test that quoteString escapes what a C string literal needs.
TEST(QuoteString, Escapes) {
    EXPECT_EQ(quoteString("plain"), "\"plain\"");
    EXPECT_EQ(quoteString("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    EXPECT_EQ(quoteString(std::string("\x01", 1)), "\"\\001\"");
}

// Test that the first file named becomes the main file, reported under the given name.
TEST(FileTable, MainFileIsReportedByOption) {
    FileTable files("program_source");
    EXPECT_EQ(files.intern("/tmp/x/source.metal"), 0u);
    EXPECT_EQ(files.intern("<built-in>"), 1u);
    EXPECT_EQ(files.intern("/tmp/x/source.metal"), 0u);
    EXPECT_EQ(files.reportedName(0), "program_source");
    EXPECT_EQ(files.reportedName(1), "<built-in>");
    EXPECT_TRUE(FileTable::isPseudoFile("<built-in>"));
    EXPECT_FALSE(FileTable::isPseudoFile("a.metal"));
}

// Test that without a main file name, the linemarker's spelling is reported.
TEST(FileTable, MainFileWithoutOption) {
    FileTable files("");
    files.intern("a.metal");
    EXPECT_EQ(files.reportedName(0), "a.metal");
}

} // namespace
} // namespace metalcpu::msl
