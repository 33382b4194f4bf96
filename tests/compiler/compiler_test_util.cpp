#include "compiler/compiler_test_util.h"

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
    p->module = scanModule(p->tokens, p->partner, p->diagnostics);
    return p;
}

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
