// The passes' only way to change the output: typed edits on tokens, recorded per pass and
// checked so that no two rewrites of the same token meet silently.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/token.h"

#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// Edits of the output, applied to the tokens as they are made (Token::text, erased, prefix,
/// suffix; CodeWriter prints them), so a later pass reads the output of earlier ones through
/// outputText(). Each token is *rewritten* (replaced or erased) by at most one pass: a second
/// rewrite is an overlap, reported as an internal error naming both passes, unless it is a
/// takeOver(), which says that its text was built from the earlier output. An edit of a token
/// past the end is an internal error too. Insertions never
/// overlap: they compose, each pass's around (insertBefore/insertAfter) or inside
/// (attachBefore) what earlier passes inserted.
class EditList {
public:
    EditList(TokenList& tokens, Diagnostics& diagnostics);

    /// Names the pass whose edits follow (for overlap reports and rewrittenBy()).
    void beginPass(std::string_view name);

    /// Token `i` prints as `text` instead of its spelling.
    void replace(std::size_t i, std::string text);
    /// Tokens [range) print as `text`: the first one's text, the others erased. Nothing
    /// changes (and an internal error is reported) when any of them is already rewritten.
    void replace(TokenRange range, std::string text);
    /// Token `i` (or every token of `range`) prints nothing of its own; what passes inserted
    /// around it still prints.
    void erase(std::size_t i);
    void erase(TokenRange range);
    /// Tokens [range) print as `text`, and everything earlier passes did to them (rewrites and
    /// insertions) is dropped: `text` was built from outputText() of the range and carries it.
    /// The one edit allowed over earlier rewrites.
    void takeOver(TokenRange range, std::string text);

    /// `text` printed before token `i`, outside what earlier passes inserted there (a wrapper's
    /// opening part: `load(` around an access).
    void insertBefore(std::size_t i, std::string text);
    /// `text` printed after token `i`, outside what earlier passes inserted there.
    void insertAfter(std::size_t i, std::string text);
    /// `text` printed just before token `i`'s own text, inside what earlier passes inserted
    /// (a specifier that belongs to the token: `constinit static`).
    void attachBefore(std::size_t i, std::string text);

    /// Whether token `i` is replaced or erased (by any pass so far, this one included).
    bool isRewritten(std::size_t i) const { return i < owner_.size() && owner_[i] != kUnowned; }
    /// The pass that rewrote token `i`, or "" when none has.
    std::string_view rewrittenBy(std::size_t i) const;

    const TokenList& tokens() const { return tokens_; }

private:
    static constexpr std::uint16_t kUnowned = 0xffff;
    /// Whether the current pass may rewrite token `i`; false (and one report) when another
    /// rewrite has it or `i` is past the end.
    bool claimable(std::size_t i);
    /// Marks token `i` rewritten by the current pass when claimable().
    bool claim(std::size_t i);
    /// Reports a pass's bug at token `i` (the last token when past the end), once.
    void reportInternal(std::size_t i, const std::string& what);

    TokenList& tokens_;
    Diagnostics& diagnostics_;
    std::vector<std::string> passes_;   ///< every pass so far; owner_ indexes it
    std::vector<std::uint16_t> owner_; ///< per token: which pass rewrote it
    std::string pass_;
    bool reported_ = false; ///< one internal-error report per translation is enough to find the bug
};

} // namespace metalcpu::msl
