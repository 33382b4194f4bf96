#pragma once

// What keeps the user docs true: the blocks a doc quotes from source files and the output it
// shows from programs (docs_test.cpp uses these).

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::docs {

/// A fenced code block of a Markdown doc that the HTML comment before it describes:
/// `<!-- quote: path [region] -->`, `<!-- output: [NAME=VALUE...] program [arguments] -->`,
/// or none (a ```message block).
struct Block {
    std::string kind;               ///< "quote", "output", or the fence's language
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

} // namespace metalcpu::docs
