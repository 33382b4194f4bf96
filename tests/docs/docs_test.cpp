// The docs stay true: the tutorial quotes the sample programs as they are and shows what
// they print, troubleshooting.md quotes messages the library still gives, and the generated
// code the docs show is excerpted from the translator's golden files as they are.
#include "docs/doc_checks.h"

#include "support/files.h"
#include "support/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace metalcpu::docs {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kSource = METALCPU_SOURCE_DIR;

std::string read(const std::filesystem::path& path) {
    std::optional<std::string> text = support::readFile(path.string());
    EXPECT_TRUE(text) << "cannot read " << path;
    return text.value_or("");
}

std::vector<Block> blocksOfKind(const std::string& doc, const std::string& kind) {
    std::vector<Block> found;
    for (const Block& block : blocksOf(read(kSource / "docs" / doc)))
        if (block.kind == kind) found.push_back(block);
    return found;
}

// Test that every block the tutorial quotes is the region (or the whole file) it names, as
// the file is now.
TEST(Tutorial, QuotesTheSamplesAsTheyAre) {
    const std::vector<Block> quotes = blocksOfKind("tutorial.md", "quote");
    EXPECT_GE(quotes.size(), 15u);
    for (const Block& quote : quotes) {
        ASSERT_FALSE(quote.words.empty()) << "tutorial.md:" << quote.line << ": a quote names no file";
        const std::string file = read(kSource / quote.words[0]);
        const std::optional<std::string> expected =
            quote.words.size() > 1 ? regionOf(file, "tutorial", quote.words[1]) : file;
        ASSERT_TRUE(expected) << "tutorial.md:" << quote.line << ": " << quote.words[0] << " marks no region "
                              << quote.words[1];
        EXPECT_EQ(quote.text, *expected) << "tutorial.md:" << quote.line << " quotes " << quote.words[0]
                                         << (quote.words.size() > 1 ? " " + quote.words[1] : "")
                                         << " as it was; the block should read:\n"
                                         << *expected;
    }
}

// Test that every region the tutorial's sources mark for it is quoted: a region left behind
// is code the tutorial no longer explains.
TEST(Tutorial, QuotesEveryMarkedRegion) {
    std::set<std::string> quoted;
    for (const Block& quote : blocksOfKind("tutorial.md", "quote"))
        if (quote.words.size() > 1) quoted.insert(quote.words[0] + " " + quote.words[1]);
    std::size_t marked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kSource / "samples" / "tutorial")) {
        const std::string relative = "samples/tutorial/" + entry.path().filename().string();
        for (const std::string& region : regionNames(read(entry.path()), "tutorial")) {
            ++marked;
            EXPECT_TRUE(quoted.count(relative + " " + region)) << relative << " marks " << region
                                                                << " for the tutorial, which does not quote it";
        }
    }
    EXPECT_GE(marked, 10u);
}

#ifdef METALCPU_TUTORIAL_DIR
// Test that each output the tutorial shows is what its program prints: every line of the
// block, in order, is a line of the real output (<...> stands for text that varies).
TEST(Tutorial, ShowsWhatTheProgramsPrint) {
    const std::vector<Block> outputs = blocksOfKind("tutorial.md", "output");
    EXPECT_GE(outputs.size(), 3u);
    for (const Block& shown : outputs) {
        std::vector<std::string> environment, argv;
        for (const std::string& word : shown.words)
            (argv.empty() && word.find('=') != std::string::npos ? environment : argv).push_back(word);
        ASSERT_FALSE(argv.empty()) << "tutorial.md:" << shown.line << ": an output names no program";
        argv[0] = std::string(METALCPU_TUTORIAL_DIR) + "/" + argv[0];
        const support::ProcessResult run = support::runProcess(argv, {}, {}, environment);
        ASSERT_TRUE(run.started) << argv[0];
        EXPECT_EQ(run.exitCode, 0) << "tutorial.md:" << shown.line << ": " << argv[0] << " failed:\n" << run.output;
        std::size_t from = 0;
        std::istringstream lines(shown.text);
        for (std::string line; std::getline(lines, line);)
            EXPECT_TRUE(matchesOutputLine(run.output, line, &from))
                << "tutorial.md:" << shown.line << ": the program does not print, here, the line\n"
                << line << "\nIt printed:\n"
                << run.output;
    }
}
#endif

// Test that every excerpt a doc shows (the generated code in compiler.md and kernel-abi.md,
// from the translator's golden files) is made of lines the file still has, in that order.
TEST(Docs, ExcerptsShowTheFilesAsTheyAre) {
    std::size_t excerpts = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kSource / "docs")) {
        if (entry.path().extension() != ".md") continue;
        const std::string doc = entry.path().filename().string();
        for (const Block& excerpt : blocksOfKind(doc, "excerpt")) {
            ++excerpts;
            ASSERT_FALSE(excerpt.words.empty()) << doc << ":" << excerpt.line << ": an excerpt names no file";
            const std::string file = read(kSource / excerpt.words[0]);
            std::size_t from = 0;
            std::istringstream lines(excerpt.text);
            for (std::string line; std::getline(lines, line);)
                EXPECT_TRUE(matchesExcerptLine(file, line, &from))
                    << doc << ":" << excerpt.line << ": " << excerpt.words[0]
                    << " has no such line here (after the excerpt's previous one):\n"
                    << line;
        }
    }
    EXPECT_GE(excerpts, 3u);
}

/// The string literals of every source file of the library, its validation layer included.
std::string libraryLiterals() {
    std::string runs;
    for (const char* directory : {"src", "validation"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(kSource / directory)) {
            const std::string extension = entry.path().extension().string();
            if (extension == ".cpp" || extension == ".h") runs += literalRuns(read(entry.path()));
        }
    return runs;
}

// Test that every message troubleshooting.md quotes (its ```message blocks) is still given
// by the library, in the same words.
TEST(Troubleshooting, QuotesMessagesTheLibraryGives) {
    const Literals literals(libraryLiterals());
    std::size_t checked = 0;
    for (const Block& block : blocksOfKind("troubleshooting.md", "message")) {
        std::istringstream lines(block.text);
        for (std::string line; std::getline(lines, line);)
            for (const std::string& part : messageParts(line)) {
                ++checked;
                EXPECT_TRUE(literals.give(part))
                    << "troubleshooting.md:" << block.line << " quotes words no source of the library has: \""
                    << part << "\"";
            }
    }
    EXPECT_GE(checked, 20u);
}

// The checks themselves: each must be able to fail.

TEST(DocChecks, BlocksKeepTheirComments) {
    const std::vector<Block> blocks = blocksOf("text\n<!-- quote: a/b.cpp region -->\n```cpp\nint x;\n```\n"
                                               "```message\nsaid\n```\n<!-- output: X=1 prog --fixed -->\n```\nout\n```\n");
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].kind, "quote");
    EXPECT_EQ(blocks[0].words, (std::vector<std::string>{"a/b.cpp", "region"}));
    EXPECT_EQ(blocks[0].text, "int x;\n");
    EXPECT_EQ(blocks[0].line, 3);
    EXPECT_EQ(blocks[1].kind, "message");
    EXPECT_EQ(blocks[2].words, (std::vector<std::string>{"X=1", "prog", "--fixed"}));
}

TEST(DocChecks, RegionsAreDedentedAndNamed) {
    const std::string file = "int main() {\n    // [tutorial:one]\n    f();\n\n        g();\n    // [tutorial:end]\n"
                             "    // [other:two]\n}\n";
    EXPECT_EQ(regionOf(file, "tutorial", "one"), "f();\n\n    g();\n");
    EXPECT_EQ(regionOf(file, "tutorial", "two"), std::nullopt);
    EXPECT_EQ(regionOf(file, "other", "two"), std::nullopt) << "a region without its end";
    EXPECT_EQ(regionNames(file, "tutorial"), (std::vector<std::string>{"one"}));
}

TEST(DocChecks, OutputLinesMatchWholeLinesInOrder) {
    const std::string output = "device: metalcpu AMD EPYC\n1000 sums, 0 wrong\n";
    std::size_t from = 0;
    EXPECT_TRUE(matchesOutputLine(output, "device: metalcpu <CPU>", &from));
    EXPECT_TRUE(matchesOutputLine(output, "1000 sums, 0 wrong", &from));
    from = 0;
    EXPECT_FALSE(matchesOutputLine(output, "1000 sums, 1 wrong", &from));
    EXPECT_FALSE(matchesOutputLine(output, "1000 sums", &from)) << "part of a line";
    from = 1;
    EXPECT_FALSE(matchesOutputLine(output, "device: <name>", &from)) << "before the last line matched";
}

TEST(DocChecks, ExcerptLinesMatchWholeLinesInOrderWithGaps) {
    const std::string file = "template <class T> f(T);\n#line 3\n    g<int>(a, b);\n}\n";
    std::size_t from = 0;
    EXPECT_TRUE(matchesExcerptLine(file, "template <class T> f(T);", &from));
    EXPECT_TRUE(matchesExcerptLine(file, "    ...", &from)); // a gap
    EXPECT_TRUE(matchesExcerptLine(file, "    g<...>(a, ...);", &from));
    EXPECT_EQ(from, 3u);
    std::size_t again = 0;
    EXPECT_FALSE(matchesExcerptLine(file, "g<int>(a, b);", &again)); // not the whole line
    EXPECT_FALSE(matchesExcerptLine(file, "template <...> f(T)", &again));
    std::size_t after = 3;
    EXPECT_FALSE(matchesExcerptLine(file, "template <class T> f(T);", &after)); // out of order
    const std::vector<Block> blocks = blocksOf("<!-- excerpt: tests/x.cpp -->\n```cpp\nint x;\n```\n");
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].kind, "excerpt");
    EXPECT_EQ(blocks[0].words, std::vector<std::string>{"tests/x.cpp"});
}

TEST(DocChecks, LiteralsJoinAsTheCompilerJoinsThem) {
    const std::string runs = literalRuns("error = \"cannot open \" + path + \": it is \"\n"
                                         "        \"a directory\"; // \"not this\"\nchar c = '\"'; int n = 1'000;\n"
                                         "log(\"{} is {}\", a, b); auto r = R\"(raw \"text\")\";\n");
    EXPECT_THAT(runs, HasSubstr("\n: it is a directory\n"));
    EXPECT_THAT(runs, HasSubstr("cannot open \n"));
    EXPECT_THAT(runs, HasSubstr("raw \"text\""));
    EXPECT_THAT(runs, ::testing::Not(HasSubstr("not this")));
    EXPECT_THAT(runs, HasSubstr("\n is \n"));
}

TEST(DocChecks, MessagesMayJoinRunsWhereValuesGo) {
    const Literals literals(literalRuns("log(\"newDefaultLibrary: {}\", why); why = \"no default library: \" + path;\n"
                                        "e = \"cannot open \" + path + \": \" + reason + \" (rebuild it)\";"));
    EXPECT_TRUE(literals.give("no default library"));
    EXPECT_TRUE(literals.give("newDefaultLibrary: no default library: "));
    EXPECT_TRUE(literals.give("cannot open :  (rebuild it)")) << "across a whole run";
    EXPECT_FALSE(literals.give("newDefaultLibrary: default library")) << "not the start of a run";
    EXPECT_FALSE(literals.give("cannot open the file")) << "words where a value goes";
    EXPECT_FALSE(literals.give("a message nobody wrote"));
}

TEST(DocChecks, MessagePartsLeaveOutWhatVaries) {
    EXPECT_EQ(messageParts("[metalcpu] warning: Invalid library file <path> (it is a macOS metallib (Apple's format))"),
              (std::vector<std::string>{"Invalid library file", "it is a macOS metallib (Apple's format"}));
    EXPECT_EQ(messageParts("program_source:<line>:<column>: error: goto is not supported"),
              (std::vector<std::string>{"program_source", "goto is not supported"}));
    EXPECT_TRUE(messageParts("<a> (<b>)").empty());
}

} // namespace
} // namespace metalcpu::docs
