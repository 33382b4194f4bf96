#include "compiler/source_access.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace metalcpu::msl {
namespace {

namespace fs = std::filesystem;

/// A scratch tree: <root>/src holds the kernel, <root>/inc is an include directory,
/// <root>/stubs stands for the standard library's, and <root>/outside holds a secret.
class SourceAccessTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "metalcpu-access-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        for (const char* dir : {"src/sub", "inc", "stubs", "outside"}) fs::create_directories(root_ / dir);
        write("stubs/metal_stdlib", "");
        write("outside/secret.h", "SECRET\n");
        write("inc/shared.h", "#pragma once\n");
    }
    void TearDown() override { fs::remove_all(root_); }

    void write(const std::string& file, const std::string& text) { std::ofstream(root_ / file) << text; }

    /// The formatted refusals for src/k.metal holding `kernel`, compiled from src/.
    std::vector<std::string> refusals(const std::string& kernel) {
        write("src/k.metal", kernel);
        SourceAccess access("k.metal", (root_ / "src").string(),
                            {(root_ / "stubs").string(), (root_ / "inc").string()});
        std::vector<std::string> out;
        for (const Diagnostic& d : access.check()) out.push_back(d.format());
        return out;
    }

    fs::path root_;
};

// Test that includes that stay inside the roots pass: the source's directory, a
// subdirectory, `..` that comes back in, the include directories and the stubs, and files
// that exist nowhere (the preprocessor reports those).
TEST_F(SourceAccessTest, AllowedIncludes) {
    write("src/sub/local.h", "#include \"../sibling.h\"\n#include <shared.h>\n");
    write("src/sibling.h", "");
    EXPECT_EQ(refusals("#include <metal_stdlib>\n#include \"sub/local.h\"\n#include \"sub/../sibling.h\"\n"
                       "#include <missing.h>\n#include \"shared.h\"\n#if __has_include(<metal_tensor>)\n#endif\n"),
              std::vector<std::string>{});
}

// Test that absolute paths and `..` escapes are refused at their directive, also in an
// included header (named as the preprocessor names it), without reading the file.
TEST_F(SourceAccessTest, EscapesAreRefused) {
    const std::string secret = (root_ / "outside/secret.h").string();
    write("src/sub/h.h", "\n#include \"../../outside/secret.h\"\n");
    EXPECT_EQ(refusals("#include \"" + secret + "\"\n#include \"../outside/secret.h\"\n#include \"sub/h.h\"\n"
                       "#include <../outside/secret.h>\n"),
              (std::vector<std::string>{
                  "k.metal:1:1: error: kernel code cannot include '" + secret +
                      "': it is outside the source's directory, the include directories and the standard library",
                  "k.metal:2:1: error: kernel code cannot include '../outside/secret.h': it is outside the "
                  "source's directory, the include directories and the standard library",
                  "sub/h.h:2:1: error: kernel code cannot include '../../outside/secret.h': it is outside the "
                  "source's directory, the include directories and the standard library",
                  "k.metal:4:1: error: kernel code cannot include '../outside/secret.h': it is outside the "
                  "source's directory, the include directories and the standard library",
              }));
}

// Test that a symbolic link inside a root that leads out of the roots is refused, as file and
// as directory, while one that stays inside passes.
TEST_F(SourceAccessTest, SymbolicLinks) {
    fs::create_symlink(root_ / "outside/secret.h", root_ / "src/link.h");
    fs::create_directory_symlink(root_ / "outside", root_ / "inc/out");
    fs::create_symlink(root_ / "inc/shared.h", root_ / "src/inside.h");
    std::vector<std::string> found = refusals("#include \"link.h\"\n#include <out/secret.h>\n#include \"inside.h\"\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_NE(found[0].find("k.metal:1:1: error: kernel code cannot include 'link.h'"), std::string::npos);
    EXPECT_NE(found[1].find("k.metal:2:1: error: kernel code cannot include 'out/secret.h'"), std::string::npos);
}

// Test that probes for files outside the roots are refused whether or not the file exists.
TEST_F(SourceAccessTest, Probes) {
    std::vector<std::string> found =
        refusals("#if __has_include(\"../outside/secret.h\") || __has_include(\"/no/such/file\")\n#endif\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_NE(found[0].find("k.metal:1:5: error: kernel code cannot probe for '../outside/secret.h' with "
                            "'__has_include'"),
              std::string::npos);
    EXPECT_NE(found[1].find("'/no/such/file'"), std::string::npos);
}

// Test that, with compilers that cannot be confined, #line may name files inside the roots and
// files that do not exist (a generator's input on another machine, a Windows path) but no
// existing file outside the roots, whose lines a message would quote, nor a name made by
// macros; and that computed includes and GCC dependency pragmas are refused.
TEST_F(SourceAccessTest, LineComputedAndDependency) {
    EXPECT_EQ(refusals("#line 5 \"k.metal\"\n#line 6 \"../outside/secret.h\"\n#define H <metal_stdlib>\n"
                       "#include H\n#pragma GCC dependency \"k.metal\"\n"
                       "#line 7 \"/Users/someone/shaders/k.slang\"\n#line 8 \"C:\\\\proj\\\\k.slang\"\n#line 9 NAME\n"),
              (std::vector<std::string>{
                  "k.metal:2:1: error: '#line' cannot name '../outside/secret.h' on this machine: it is a file "
                  "outside the source's directory, the include directories and the standard library, whose lines "
                  "the compiler's messages would quote, and the compilers cannot be confined to those directories "
                  "here (docs/architecture.md, \"Confined compilers\")",
                  "k.metal:4:1: error: the file name of '#include' must be written out (\"file\" or <file>): a "
                  "name made by macros cannot be checked before preprocessing",
                  "k.metal:5:1: error: '#pragma GCC dependency' is not allowed in kernel code",
                  "k.metal:8:1: error: the file name of '#line' must be written out as a string literal on this "
                  "machine: a name made by macros cannot be checked before preprocessing, and the compilers cannot "
                  "be confined to those directories here (docs/architecture.md, \"Confined compilers\")",
              }));
}

// Test that, with confined compilers, every #line name is a display name: a file outside the
// roots and a name made by macros are accepted too (the compilers cannot read them).
TEST_F(SourceAccessTest, ConfinedCompilersTakeEveryLineName) {
    write("src/k.metal", "#line 6 \"../outside/secret.h\"\n#line 7 \"/etc/passwd\"\n#line 9 NAME\n#line 10 \"k.metal\"\n");
    SourceAccess access("k.metal", (root_ / "src").string(), {(root_ / "stubs").string()});
    access.setCompilersConfined(true);
    EXPECT_TRUE(access.check().empty());
    access.setCompilersConfined(false);
    EXPECT_EQ(access.check().size(), 3u);
}

// Test that the quoted search starts in the including file's directory: a header found in an
// include directory includes its neighbour, not a file of the same name next to the kernel.
TEST_F(SourceAccessTest, QuotedSearchStartsAtTheIncluder) {
    write("inc/a.h", "#include \"b.h\"\n");
    write("inc/b.h", "#include \"../outside/secret.h\"\n");
    write("src/b.h", "");
    std::vector<std::string> found = refusals("#include <a.h>\n");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].rfind((root_ / "inc/b.h").string() + ":1:1: error: kernel code cannot include", 0), 0u)
        << found[0];
}

// Test -include files: found in the working directory first, then along the search path;
// the directory each is found in is a root (the command line named it), and what it
// includes is checked like the source's own includes.
TEST_F(SourceAccessTest, ForcedIncludes) {
    fs::create_directories(root_ / "prefix");
    write("prefix/pre.h", "#include \"local.h\"\n#include \"../outside/secret.h\"\n");
    write("prefix/local.h", "");
    write("inc/found.h", "");
    write("src/k.metal", "");
    SourceAccess access("k.metal", (root_ / "src").string(), {(root_ / "stubs").string(), (root_ / "inc").string()},
                        {"../prefix/pre.h", "found.h", "missing.h"});
    EXPECT_TRUE(access.allows("../prefix/local.h"));
    EXPECT_TRUE(access.allows((root_ / "inc/found.h").string()));
    std::vector<std::string> found;
    for (const Diagnostic& d : access.check()) found.push_back(d.format());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].rfind("../prefix/pre.h:2:1: error: kernel code cannot include '../outside/secret.h'", 0), 0u)
        << found[0];
}

// Test that files including each other end, and that allows() and read() follow the roots.
TEST_F(SourceAccessTest, CyclesAndReading) {
    write("src/x.h", "#include \"y.h\"\n");
    write("src/y.h", "#include \"./x.h\"\n#include \"x.h\"\n");
    EXPECT_EQ(refusals("#include \"x.h\"\n"), std::vector<std::string>{});
    SourceAccess access("k.metal", (root_ / "src").string(), {(root_ / "inc").string()});
    EXPECT_TRUE(access.allows("x.h"));
    EXPECT_TRUE(access.allows((root_ / "inc/shared.h").string()));
    EXPECT_FALSE(access.allows("../outside/secret.h"));
    EXPECT_EQ(access.read("x.h"), std::optional<std::string>("#include \"y.h\"\n"));
    EXPECT_EQ(access.read("../outside/secret.h"), std::nullopt);
    EXPECT_EQ(access.read("sub"), std::nullopt); // not a regular file
}

} // namespace
} // namespace metalcpu::msl
