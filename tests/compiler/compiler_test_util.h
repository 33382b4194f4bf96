// Helpers for the compiler's unit tests: lex and scan a snippet, print tokens after edits.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/lexer.h"
#include "compiler/passes/pass.h"
#include "compiler/scanner.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"

#include <initializer_list>
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

/// Whether a test expects analyse() to fail on its snippet (a pass that must leave code the
/// analyses refuse alone) or not.
enum class Analysis { MustSucceed, MayFail };

/// Runs one pass on a parsed snippet (after analyse()) and returns render() of the result.
/// Analysis warnings are dropped (snippets need not be whole kernels); an analysis error fails
/// the test and returns "", unless `analysis` is MayFail (then it is dropped too: passes run on
/// partial findings). The pass's diagnostics land in `p.diagnostics`.
std::string runPass(Parsed& p, PassFunction pass, bool validation = false, Analysis analysis = Analysis::MustSucceed);
/// The same for several passes, in the order given, with one edit list.
std::string runPasses(Parsed& p, std::initializer_list<PassFunction> passes, bool validation = false,
                      Analysis analysis = Analysis::MustSucceed);

/// Runs analyse() and the pipeline's passes up to and including the one named `last`
/// (compiler/pipeline.h) and returns render() of the result. A `last` that names no pass of
/// this flavour fails the test.
std::string runPassesUntil(Parsed& p, std::string_view last, bool validation = false);
/// The same with these options (their fileKey set to 1).
std::string runPassesUntil(Parsed& p, std::string_view last, TranslateOptions options);

/// Runs the restricted dialect's checks (compiler/pipeline.h's list) on a parsed snippet, with
/// its includes and file table, and returns every diagnostic formatted (those of parsing
/// first; a snippet that failed to parse is not checked).
std::vector<std::string> runChecks(Parsed& p, const TranslateOptions& options);
/// The same for one check alone, with default options.
std::vector<std::string> runCheck(Parsed& p, CheckFunction check);

/// The tokens after the passes' edits: prefix, text (unless erased) and suffix of each token,
/// a line break where the source line changes and one space where the source had whitespace
/// (none when the output already ends in one, as CodeWriter does).
std::string render(const TokenList& tokens);

/// The formatted diagnostics of a translation.
std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics);

} // namespace metalcpu::msl::testing
