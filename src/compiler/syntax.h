// Small syntactic helpers shared by the scanner, the signature parser and the passes:
// bracket matching, template angle brackets, attribute specifiers, token text.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/token.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// C++ keywords (and GCC's spellings of a few), which are never names of things.
bool isCppKeyword(std::string_view word);

/// Keywords that name or qualify a type (int, const, unsigned, ...).
bool isTypeKeyword(std::string_view word);

/// Words that only qualify a type, never name one: cv-qualifiers and MSL's address spaces
/// (`const`, `volatile`, `thread`, `device`, `constant`, `threadgroup`, ...).
bool isTypeQualifier(std::string_view word);

/// How deeply `(`, `[` and `{` may nest, together: Clang's (so Metal's) default bracket depth.
/// It bounds the recursion of every stage that follows brackets, in the host process.
inline constexpr std::size_t kMaxBracketDepth = 256;

/// For every `(`, `[`, `{` the index of its closing partner and vice versa; kNoToken for other
/// tokens. Reports the first unbalanced bracket, or the first past kMaxBracketDepth, and
/// returns nothing.
std::optional<std::vector<std::size_t>> matchBrackets(const TokenList& tokens, Diagnostics& diagnostics);

/// Whether the `<` at `i` opens a template argument list rather than compares. C++ decides by
/// name lookup; without it, `<` opens a list only after a name (or `template`, or a named
/// cast) not marked Token::neverTemplate (markNonTemplateNames()): after `)`, `]`, a literal, a
/// keyword or such a name (`sizeof(T) < 8`, `N[0] < 4`, `1 < 2`, `N < 8`) it is a comparison.
bool opensTemplateArguments(const TokenList& tokens, std::size_t i);

/// The `>` closing the template angle bracket at `open` (a `<`), looking no further than
/// `limit`; brackets are skipped whole. kNoToken when there is none before a `;` or `{`.
std::size_t closingAngle(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t open,
                         std::size_t limit);

/// The `<` opening the template angle bracket closed at `close` (a `>`), looking no further
/// back than `lowerLimit`. kNoToken when there is none.
std::size_t openingAngle(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t close,
                         std::size_t lowerLimit);

/// Whether tokens [begin, end), the specifiers of a variable declaration, hold `constant`,
/// `const` or `constexpr` of their own (not inside template arguments or brackets).
bool hasConstantSpecifier(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                          std::size_t end);

/// One attribute inside `[[ ... ]]`.
struct Attribute {
    std::string name;          ///< with its namespace: "buffer", "gnu::always_inline"
    std::size_t nameToken = 0; ///< the first token of the name
    bool hasArguments = false;
    TokenRange arguments; ///< inside the parentheses
};

/// One attribute specifier `[[ ... ]]`: tokens [open, close] inclusive.
struct AttributeSpec {
    std::size_t open = 0;
    std::size_t close = 0;
    std::vector<Attribute> attributes;

    const Attribute* find(std::string_view name) const;
};

/// Whether an attribute specifier `[[` starts at `i`.
bool startsAttributeSpec(const TokenList& tokens, std::size_t i);

/// Whether a GNU attribute `__attribute__((...))` (or `__attribute((...))`) starts at `i`.
bool startsGnuAttribute(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i);

/// The last token of the attribute that starts at `i`, a `[[...]]` specifier or a GNU
/// `__attribute__((...))`, or kNoToken when none does: what a pass skips whole (attribute
/// arguments are constants and names, not code).
std::size_t attributeEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i);

/// Parses the attribute specifier starting at `i` (see startsAttributeSpec()).
AttributeSpec parseAttributeSpec(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                 std::size_t i);

/// Whether `name` is an attribute that standard C++ or GCC understands and that may stay in
/// the output ("maybe_unused", "likely", "gnu::always_inline", ...).
bool isStandardAttribute(std::string_view name);

/// The spellings of tokens [begin, end) as one string, with whitespace normalised for types
/// and names: "device const float*", "vec<float, 4>", "::ns::f<float, 4>".
std::string typeText(const TokenList& tokens, std::size_t begin, std::size_t end);

/// typeText() of the tokens at `indices` (in order), as if they were adjacent.
std::string typeText(const TokenList& tokens, const std::vector<std::size_t>& indices);

/// The spellings of tokens [begin, end) with one space wherever the source had whitespace.
std::string sourceText(const TokenList& tokens, std::size_t begin, std::size_t end);

/// The output of tokens [begin, end) after the passes' edits (text, prefix, suffix; erased
/// tokens omitted), with one space wherever the source had whitespace.
std::string outputText(const TokenList& tokens, std::size_t begin, std::size_t end);

/// The value of a string literal token (or of adjacent ones, concatenated): tokens
/// [begin, end) must all be plain string literals. Nothing when they are not.
std::optional<std::string> stringLiteralValue(const TokenList& tokens, std::size_t begin, std::size_t end);

/// Evaluates an integer constant expression made of literals, + - * / % << >> & | ^ ~ and
/// parentheses (the tokens [begin, end)). Nothing when it is anything else.
std::optional<long long> evaluateInteger(const TokenList& tokens, std::size_t begin, std::size_t end);

} // namespace metalcpu::msl
