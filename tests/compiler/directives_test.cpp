#include "compiler/directives.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using Kind = FileReference::Kind;

/// The references of `text` as "line:column directive name" (computed ones as "?", angled
/// names in <>).
std::vector<std::string> references(std::string_view text) {
    std::vector<std::string> out;
    for (const FileReference& r : findFileReferences(text)) {
        std::string name = r.computed ? "?" : r.angled ? "<" + r.name + ">" : "\"" + r.name + "\"";
        out.push_back(std::to_string(r.line) + ":" + std::to_string(r.column) + " " + r.directive + " " + name);
    }
    return out;
}

// Test that every include-like directive is found with its name, quoted or angled, with
// blanks and comments anywhere GCC allows them, and with the %: digraph.
TEST(Directives, Includes) {
    EXPECT_EQ(references("#include \"a.h\"\n"
                         "  #  include <b.h>\n"
                         "#/**/include/**/\"c.h\" // trailing\n"
                         "%:include <d.h>\n"
                         "#include_next <e.h>\n"
                         "#import \"f.h\"\n"
                         "#embed \"g.bin\"\n"
                         "int x; /* a comment */ #include \"not-a-directive.h\"\n"),
              (std::vector<std::string>{"1:1 #include \"a.h\"", "2:3 #include <b.h>", "3:1 #include \"c.h\"",
                                        "4:1 #include <d.h>", "5:1 #include_next <e.h>", "6:1 #import \"f.h\"",
                                        "7:1 #embed \"g.bin\""}));
}

// Test that names made by macros are reported as computed.
TEST(Directives, ComputedNames) {
    EXPECT_EQ(references("#define H \"a.h\"\n#include H\n#include <unterminated.h\n#if __has_include(H)\n#endif\n"),
              (std::vector<std::string>{"2:1 #include ?", "3:1 #include ?", "4:5 __has_include ?"}));
}

// Test that line splices are undone first: a directive name can be split, and a // comment
// continued onto the next line hides that line, blanks before the newline included (GCC).
TEST(Directives, LineSplices) {
    EXPECT_EQ(references("#inc\\\nlude \"split.h\"\n"
                         "// comment \\  \n#include \"hidden.h\"\n"
                         "#include \"shown.h\"\n"),
              (std::vector<std::string>{"1:1 #include \"split.h\"", "5:1 #include \"shown.h\""}));
}

// Test that comments and literals hide what only looks like a directive, but a string cannot
// hide a directive on a later line, and digit separators are not character literals.
TEST(Directives, CommentsAndLiterals) {
    EXPECT_EQ(references("/*\n#include \"in-comment.h\"\n*/\n"
                         "const char* s = \"/*\";\n#include \"after-string.h\"\n"
                         "int n = 1'000; char c = '\"';\n#include \"after-literals.h\"\n"
                         "const char* t = \"unterminated;\n#include \"after-unterminated.h\"\n"),
              (std::vector<std::string>{"5:1 #include \"after-string.h\"", "7:1 #include \"after-literals.h\"",
                                        "9:1 #include \"after-unterminated.h\""}));
}

// Test that a raw string literal ends where GCC ends it (line splices are not undone inside),
// so a comment opener inside it hides nothing, and that its body is scanned too.
TEST(Directives, RawStrings) {
    EXPECT_EQ(references("const char* r = R\"x(/* )\" \\\n)x\";\n#include \"after-raw.h\"\n"
                         "const char* q = R\"(\n#include \"in-raw.h\"\n)\";\n"),
              (std::vector<std::string>{"3:1 #include \"after-raw.h\"", "5:1 #include \"in-raw.h\""}));
}

// Test that a byte order mark does not hide a directive on the first line, and that a NUL is a
// blank as GCC takes it.
TEST(Directives, ByteOrderMarkAndNul) {
    EXPECT_EQ(references(std::string_view("\xEF\xBB\xBF#include \"bom.h\"\n\0#include \"nul.h\"\n", 39)),
              (std::vector<std::string>{"1:4 #include \"bom.h\"", "2:2 #include \"nul.h\""}));
}

// Test that probes are found in #if lines and macro bodies, with their operand, and that
// a directive after a comment spanning lines counts (finding too much is safe).
TEST(Directives, Probes) {
    EXPECT_EQ(references("#if __has_include(<metal_tensor>) && __has_include_next ( \"x.h\" )\n#endif\n"
                         "#define HAS __has_embed(\"y.bin\")\n"
                         "/* spans\n lines */ #include \"after-comment.h\"\n"),
              (std::vector<std::string>{"1:5 __has_include <metal_tensor>", "1:38 __has_include_next \"x.h\"",
                                        "3:13 __has_embed \"y.bin\"", "5:11 #include \"after-comment.h\""}));
}

// Test #line and linemarkers: the file name is taken with its escapes read (a Windows path as
// generators write it), macros make it computed, a number alone names no file.
TEST(Directives, LineFiles) {
    EXPECT_EQ(references("#line 10 \"a.metal\"\n# 20 \"/etc/passwd\" 1\n#line 30\n#line 40 FILE\n"
                         "#line 50 \"C:\\\\proj\\\\k.slang\"\n#line N\n#line 7 \"say \\\"hi\\\".metal\"\n"),
              (std::vector<std::string>{"1:1 #line \"a.metal\"", "2:1 # \"/etc/passwd\"", "4:1 #line ?",
                                        "5:1 #line \"C:\\proj\\k.slang\"", "6:1 #line ?",
                                        "7:1 #line \"say \"hi\".metal\""}));
}

// Test that #pragma GCC dependency is found as a directive and through _Pragma, and that
// other pragmas are not references.
TEST(Directives, DependencyPragmas) {
    std::vector<FileReference> found = findFileReferences(
        "#pragma once\n#pragma GCC dependency \"x.h\"\n_Pragma(\"GCC dependency \\\"y.h\\\"\") int a;\n"
        "_Pragma(\"clang loop unroll(full)\")\n#pragma GCC poison p\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].kind, Kind::Dependency);
    EXPECT_EQ(found[0].line, 2u);
    EXPECT_EQ(found[1].kind, Kind::Dependency);
    EXPECT_EQ(found[1].line, 3u);
}

} // namespace
} // namespace metalcpu::msl
