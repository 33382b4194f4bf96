#pragma once

// What keeps the user docs true: the blocks a doc quotes from source files, the output it
// shows from programs, and the library's messages it quotes (docs_test.cpp uses these).

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::docs {

/// A fenced code block of a Markdown doc that the HTML comment before it describes:
/// `<!-- quote: path [region] -->`, `<!-- output: [NAME=VALUE...] program [arguments] -->`,
/// `<!-- excerpt: path -->`, or none (a ```message block).
struct Block {
    std::string kind;               ///< "quote", "output", "excerpt", or the fence's language
    std::vector<std::string> words; ///< the comment's words after "quote:" / "output:"
    std::string text;               ///< the block's lines, each ending in '\n'
    int line = 0;                   ///< the fence's line in the doc, from 1
};

/// Every fenced block of `markdown`, with the comment right before it when there is one.
std::vector<Block> blocksOf(const std::string& markdown);

/// The lines of `file` between the markers `[<doc>:<region>]` and `[<doc>:end]` (each on a
/// line of its own, in a comment), less their common indentation; nullopt when `file` has
/// no such region.
std::optional<std::string> regionOf(const std::string& file, const std::string& doc, const std::string& region);

/// The names of the regions `file` marks for `doc`.
std::vector<std::string> regionNames(const std::string& file, const std::string& doc);

/// Whether `line` of a doc's output block, where `<...>` stands for any text, is a whole line
/// of `output`, at or after the line `*from`; `*from` moves past it.
bool matchesOutputLine(const std::string& output, const std::string& line, std::size_t* from);

/// Whether `line` of an excerpt, where `...` stands for any text (and a line of only `...`
/// for lines left out), is a whole line of `file` at or after the line `*from`; `*from` moves
/// past it. An excerpt block (`<!-- excerpt: path -->`) shows lines of a file in their order,
/// not necessarily next to each other: the docs show generated code this way, from the
/// translator's golden files.
bool matchesExcerptLine(const std::string& file, const std::string& line, std::size_t* from);

/// The text of the string literals of C++ source `code`, one run a line: adjacent literals
/// are joined, as the compiler joins them, and anything else between literals (a variable,
/// a format argument "{}") ends a run.
std::string literalRuns(const std::string& code);

/// The string literals of the library's sources (literalRuns()), to look quoted messages up in.
class Literals {
public:
    explicit Literals(std::string runs);

    /// Whether the sources give `part`: within one run, or across runs joined where the
    /// source puts something variable between them (the end of one run, then whole runs,
    /// then the start of another), as a message built from literals and values reads.
    bool give(const std::string& part) const;

private:
    bool endsARun(const std::string& text) const;
    bool startsARun(const std::string& text) const;

    std::string runs_;
    std::vector<std::string> sorted_;   ///< the runs, sorted
    std::vector<std::string> reversed_; ///< each run reversed, sorted
    std::set<std::string> whole_;
};

/// The parts of a quoted message line that the library's sources must contain: the line
/// less the log's "[metalcpu] level: " prefix, split at `<...>` placeholders, trimmed of
/// spaces, brackets and punctuation and of a leading "error: "/"warning: "; parts shorter
/// than 8 characters are left out.
std::vector<std::string> messageParts(const std::string& line);

} // namespace metalcpu::docs
