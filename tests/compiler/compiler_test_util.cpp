#include "compiler/compiler_test_util.h"

#include "compiler/edits.h"
#include "compiler/pipeline.h"
#include "compiler/qualifier_order.h"
#include "compiler/template_names.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl::testing {

std::size_t Parsed::find(std::string_view spelling, int n) const {
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i].spelling == spelling && n-- == 0) return i;
    return kNoToken;
}

std::vector<std::string> Parsed::messages() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics.list()) out.push_back(d.format());
    return out;
}

std::unique_ptr<Parsed> parse(std::string_view source) {
    auto p = std::make_unique<Parsed>();
    Lexer lexer(source, p->files, p->diagnostics);
    p->tokens = lexer.lex();
    p->includes = lexer.includes();
    if (p->diagnostics.hasErrors()) return p;
    auto partner = matchBrackets(p->tokens, p->diagnostics);
    if (!partner) return p;
    p->partner = std::move(*partner);
    markNonTemplateNames(p->tokens, p->partner);
    placeAddressSpacesFirst(p->tokens, p->partner);
    p->module = scanModule(p->tokens, p->partner, p->diagnostics);
    return p;
}

std::string runPass(Parsed& p, PassFunction pass, bool validation, Analysis analysis) {
    return runPasses(p, {pass}, validation, analysis);
}

std::string runPasses(Parsed& p, std::initializer_list<PassFunction> passes, bool validation, Analysis expected) {
    if (p.diagnostics.hasErrors()) return {};
    TranslateOptions options;
    options.validation = validation;
    options.fileKey = 1;
    const Unit unit(p.tokens, p.partner, p.module);
    Diagnostics analysis(p.files);
    Findings found = analyse(unit, p.module, options, analysis);
    // analyse() stops part-way on an error, and passes given partial findings can leave a
    // half-rewritten snippet that still matches a weak expectation: fail the test instead.
    if (analysis.hasErrors() && expected == Analysis::MustSucceed) {
        for (const Diagnostic& d : analysis.list()) ADD_FAILURE() << "analysis: " << d.format();
        return {};
    }
    EditList edits(p.tokens, p.diagnostics);
    PassContext context{unit, edits, p.diagnostics, options, found};
    int n = 0;
    for (PassFunction pass : passes) {
        edits.beginPass("test-" + std::to_string(n++));
        pass(context);
    }
    return render(p.tokens);
}

std::string runPassesUntil(Parsed& p, std::string_view last, bool validation) {
    TranslateOptions options;
    options.validation = validation;
    return runPassesUntil(p, last, options);
}

std::string runPassesUntil(Parsed& p, std::string_view last, TranslateOptions options) {
    if (p.diagnostics.hasErrors()) return {};
    options.fileKey = 1;
    const Unit unit(p.tokens, p.partner, p.module);
    Findings found = analyse(unit, p.module, options, p.diagnostics);
    EditList edits(p.tokens, p.diagnostics);
    PassContext context{unit, edits, p.diagnostics, options, found};
    if (!runPasses(context, last)) ADD_FAILURE() << "no pass named '" << last << "' runs in this flavour";
    return render(p.tokens);
}

namespace {

std::vector<std::string> check(Parsed& p, const TranslateOptions& options, CheckFunction only) {
    if (p.diagnostics.hasErrors()) return p.messages();
    const Unit unit(p.tokens, p.partner, p.module);
    const CheckContext context{unit, p.includes, p.files, options, p.diagnostics};
    if (only) only(context);
    else msl::runChecks(context);
    return p.messages();
}

} // namespace

std::vector<std::string> runChecks(Parsed& p, const TranslateOptions& options) { return check(p, options, nullptr); }

std::vector<std::string> runCheck(Parsed& p, CheckFunction only) { return check(p, TranslateOptions{}, only); }

std::string render(const TokenList& tokens) {
    std::string out;
    bool first = true;
    bool atLineStart = true;
    bool pendingSpace = false;
    Location previous;
    for (const Token& t : tokens) {
        if (t.kind == TokenKind::End) break;
        if (!first && (t.location.file != previous.file || t.location.line != previous.line)) {
            out += '\n';
            atLineStart = true;
            pendingSpace = false;
        }
        first = false;
        previous = t.location;
        if (t.spaceBefore) pendingSpace = true;
        std::string piece = t.prefix + (t.erased ? std::string() : t.text) + t.suffix;
        if (piece.empty()) continue;
        if (pendingSpace && !atLineStart && out.back() != ' ') out += ' ';
        out += piece;
        atLineStart = false;
        pendingSpace = false;
    }
    return out;
}

std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) out.push_back(d.format());
    return out;
}

} // namespace metalcpu::msl::testing
