// Tokens of preprocessed MSL, and the edits the passes make to them.
#pragma once

#include "compiler/source.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

enum class TokenKind : std::uint8_t {
    Identifier, ///< identifiers and keywords (MSL's keywords are contextual for us)
    Number,     ///< a pp-number: 1, 0x1fu, 1.5e-3f, 2.0h
    String,     ///< "..." with any prefix, and raw strings
    Character,  ///< '...' with any prefix
    Punctuator, ///< operators and punctuation; `>>` is always two `>` tokens, `[[` two `[`
    Pragma,     ///< a whole `#pragma ...` line
    End,        ///< the end of the input; always the last token
};

/// Sentinel index: "no token".
inline constexpr std::size_t kNoToken = static_cast<std::size_t>(-1);

/// One token. `spelling` never changes after lexing; passes rewrite the output through `text`,
/// `erased`, `prefix` and `suffix`, so analyses always see the source as written.
struct Token {
    TokenKind kind = TokenKind::End;
    std::string spelling;     ///< as written in the (preprocessed) input
    Location location;        ///< of the first character
    bool spaceBefore = false; ///< whitespace or a comment separates it from the previous token
    bool startOfLine = false; ///< first token on its line
    /// A name that never names a template in this unit (a non-type template parameter's): a
    /// `<` after it is a comparison, as in `enable_if_t<N < 8, bool>` (markNonTemplateNames()).
    bool neverTemplate = false;

    // Output edits (see emitter/code_writer.h for how they print).
    std::string text;    ///< what is printed for the token; starts as `spelling`
    bool erased = false; ///< print nothing for the token itself (prefix and suffix still print)
    std::string prefix;  ///< printed just before the token
    std::string suffix;  ///< printed just after the token

    bool is(std::string_view s) const { return spelling == s; }
    bool isIdentifier() const { return kind == TokenKind::Identifier; }
    bool isIdentifier(std::string_view s) const { return kind == TokenKind::Identifier && spelling == s; }
    bool isPunct(std::string_view s) const { return kind == TokenKind::Punctuator && spelling == s; }
};

using TokenList = std::vector<Token>;

/// A half-open range of token indices.
struct TokenRange {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool empty() const { return begin >= end; }
    std::size_t size() const { return end > begin ? end - begin : 0; }
};

const char* tokenKindName(TokenKind kind);

} // namespace metalcpu::msl
