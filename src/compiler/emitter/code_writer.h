// Printing tokens back at their original lines and columns.
#pragma once

#include "compiler/source.h"
#include "compiler/token.h"

#include <string>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

namespace metalcpu::msl {

/// What starts each line of CodeWriter::columnMap().
inline constexpr std::string_view kColumnMapPrefix = "//@columns ";

/// Writes C++ text so that every token lands on its original line and column: it pads with
/// spaces, starts new lines, and writes `#line N "file"` whenever the file changes or the line
/// moves backwards or jumps ahead by more than a few lines. Host-compiler diagnostics and
/// debug information then point into the .metal source.
///
/// A token prints as prefix + text + suffix (text left out when erased). When earlier output
/// on the line already passed a token's column (inserted text is longer than what it
/// replaced), the token follows after one space, or directly when the source had no
/// whitespace before it; but a token that starts a statement (after `;` or a brace, or after
/// inserted text that held statements: the work-item loops the barrier passes wrap around
/// the user's statements, the longer `co_await` of a coroutine's barrier) starts a new line
/// at its own column after `#line`, so that diagnostics about the user's code keep their
/// columns. Two tokens the source separated by whitespace are never written so
/// that they join (`-` `-` as `--`, `/` `/` as a comment): a blank goes between them. Pragma
/// tokens always get a line of their own, and so do preprocessor lines a pass inserted.
class CodeWriter {
public:
    explicit CodeWriter(const FileTable& files) : files_(files) {}

    /// Raw text, e.g. the leading #include; it must end with a newline.
    void writeRaw(std::string_view text);

    /// The user's tokens (after the passes' edits).
    void writeTokens(const TokenList& tokens);

    /// Generated code, after `#line 1 "<name>"`.
    void writeGenerated(std::string_view name, std::string_view text);

    std::string take() { return std::move(out_); }

    /// Where the output's columns are not the source's: text a pass inserted (its columns
    /// stand for the token it was inserted at) and the user's tokens that text pushed along a
    /// line. One comment line per source line (by file number, then line), for the end of the file:
    /// `//@columns "file" line from-to=column ...` (output columns [from, to) are the source's
    /// `column`), which jit/compiler_messages.h reads to point the host compiler's messages about
    /// them at the source's column (kColumnMapPrefix).
    std::string columnMap() const;

private:
    void lineDirective(std::uint32_t file, std::uint32_t line);
    void moveTo(const Location& where);
    void append(std::string_view text);
    /// append() for text a pass inserted (a prefix or a suffix) around the token at `token`,
    /// noting whether it held statements. A preprocessor line in it ("\n#if ...\n") gets a
    /// line of its own; text after it returns to `token`'s place first.
    void insert(std::string_view text, const Location& token);
    /// Whether the next token starts a statement: the last text written ends one or opens or
    /// closes a block, or inserted text since the last token held statements.
    bool afterStatement() const;
    /// A new line at `where`: #line, then blanks up to its column.
    void returnTo(const Location& where);

    /// Output columns [from, column_) of the current line stand for source column `column`.
    void noteColumns(std::uint32_t from, std::uint32_t column);
    /// A new output line for the current source line, whose text from `column` on is where
    /// the source has it: earlier spans of the line end before it.
    void keepColumnsFrom(std::uint32_t column);

    struct Span {
        std::uint32_t from, to, column;
    };

    const FileTable& files_;
    /// The spans of each source line (file, line), in the order they were written.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Span>> shifts_;
    std::string out_;
    bool positioned_ = false; ///< the output line corresponds to (file_, line_)
    std::uint32_t file_ = 0;
    std::uint32_t line_ = 0;
    std::uint32_t column_ = 1; ///< where the next character lands
    bool statementsInserted_ = false; ///< inserted text with statements was written since the last token's text
};

} // namespace metalcpu::msl
