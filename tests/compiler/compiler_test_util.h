// Helpers for the compiler's unit tests: lex and scan a snippet, print tokens after edits.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/lexer.h"
#include "compiler/scanner.h"
#include "compiler/syntax.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl::testing {

/// A snippet after lexing, bracket matching and scanning. Diagnostics report the main file
/// as "test.metal".
struct Parsed {
    FileTable files{"test.metal"};
    Diagnostics diagnostics{files};
    TokenList tokens;
    std::vector<std::size_t> partner;
    std::vector<IncludeEvent> includes;
    Module module;

    /// Index of the n-th (0-based) token spelled `spelling`.
    std::size_t find(std::string_view spelling, int n = 0) const;
    /// The diagnostics, formatted.
    std::vector<std::string> messages() const;
};

/// Lexes, matches brackets and scans `source`. Stops after the first stage that reports an
/// error (the later parts are then empty).
std::unique_ptr<Parsed> parse(std::string_view source);

/// The tokens after the passes' edits: prefix, text (unless erased) and suffix of each token,
/// a line break where the source line changes and one space where the source had whitespace
/// (none when the output already ends in one, as CodeWriter does).
std::string render(const TokenList& tokens);

/// The formatted diagnostics of a translation.
std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics);

} // namespace metalcpu::msl::testing
