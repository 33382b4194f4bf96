// Preprocessed MSL text to tokens.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/source.h"
#include "compiler/token.h"

#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// The preprocessor entered `file` through an #include on the line `includedFrom`, or (with
/// `lineDirective`) a #line directive there renamed the current file to `file`.
struct IncludeEvent {
    std::uint32_t file = 0;
    Location includedFrom;
    bool lineDirective = false;
};

/// Converts preprocessed source into tokens. Linemarkers (`# 12 "f.metal" 2`) and #line
/// directives are consumed and set the locations of the tokens that follow; `#pragma` lines
/// become single Pragma tokens; comments are skipped (the preprocessor has usually removed
/// them already). Only a `#` at the very start of a line begins a directive, as the
/// preprocessor writes them; any other `#` or `##` (`%:`, `%:%:`) is an error. Digraphs are
/// spelt as the tokens they stand for (`<%` is `{`). Locations are those of the input text: the preprocessor keeps every line
/// and the column of the first token of each line, but not the spacing inside a line.
class Lexer {
public:
    /// @param rawSource lex unpreprocessed text instead: directive lines are skipped whole
    ///        (used to read the original files when restoring columns).
    Lexer(std::string_view source, FileTable& files, Diagnostics& diagnostics, bool rawSource = false);

    /// Lexes the whole input. The last token is always TokenKind::End.
    TokenList lex();

    /// Stops lexing, with an error at the token, once the input has more than `limit` tokens
    /// (0: no limit).
    void limitTokens(std::size_t limit) { tokenLimit_ = limit; }

    /// The files entered through #include or named by #line, in order (valid after lex()).
    const std::vector<IncludeEvent>& includes() const { return includes_; }

private:
    char peek(std::size_t ahead = 0) const;
    Location here() const;
    void newLine();
    void skipWhitespaceAndComments();
    void directive();
    void identifierOrPrefixedLiteral();
    void number();
    void quoted(char quote, std::size_t prefixLength);
    void rawString(std::size_t prefixLength);
    void punctuator();
    void refuseHash(std::string_view written);
    void push(TokenKind kind, std::size_t begin, Location where);

    std::string_view src_;
    FileTable& files_;
    Diagnostics& diagnostics_;
    std::size_t pos_ = 0;
    std::size_t lineStart_ = 0;
    std::uint32_t line_ = 1;
    std::uint32_t file_ = 0;
    bool rawSource_ = false;
    std::size_t tokenLimit_ = 0;
    bool atLineStart_ = true;
    bool sawSpace_ = false;
    TokenList tokens_;
    std::vector<IncludeEvent> includes_;
};

} // namespace metalcpu::msl
