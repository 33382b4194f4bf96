#include "compiler/lexer.h"

#include <array>
#include <string>

namespace metalcpu::msl {

namespace {

bool isIdentifierStart(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || u >= 0x80;
}

bool isIdentifierChar(char c) {
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Longest first, so that the first match is the longest. `>>` and `>>=` are deliberately
// missing: `>` is always its own token, which lets the scanner close nested template
// argument lists; the emitter keeps `>>` adjacent because it keeps columns.
constexpr std::array<std::string_view, 25> kPunctuators = {
    "...", "<=>", "<<=", "->*", "::", "->", "++", "--", "<<", "<=", ">=", "==", "!=",
    "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##",
};

constexpr std::string_view kSinglePunctuators = "{}[]()<>;:,.?~!+-*/%^&|=#";

// The alternative tokens C++ spells with two characters, and what they stand for; `%:%:` first.
struct Digraph {
    std::string_view written;
    std::string_view means;
};
constexpr std::array<Digraph, 6> kDigraphs = {{
    {"%:%:", "##"},
    {"%:", "#"},
    {"<%", "{"},
    {"%>", "}"},
    {"<:", "["},
    {":>", "]"},
}};

} // namespace

Lexer::Lexer(std::string_view source, FileTable& files, Diagnostics& diagnostics, bool rawSource)
    : src_(source), files_(files), diagnostics_(diagnostics), rawSource_(rawSource) {}

char Lexer::peek(std::size_t ahead) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
}

Location Lexer::here() const {
    return {file_, line_, static_cast<std::uint32_t>(pos_ - lineStart_ + 1)};
}

void Lexer::newLine() {
    ++pos_;
    ++line_;
    lineStart_ = pos_;
    atLineStart_ = true;
    sawSpace_ = false;
}

void Lexer::push(TokenKind kind, std::size_t begin, Location where) {
    Token token;
    token.kind = kind;
    token.spelling = std::string(src_.substr(begin, pos_ - begin));
    token.text = token.spelling;
    token.location = where;
    token.spaceBefore = sawSpace_ || atLineStart_;
    token.startOfLine = atLineStart_;
    tokens_.push_back(std::move(token));
    atLineStart_ = false;
    sawSpace_ = false;
}

void Lexer::skipWhitespaceAndComments() {
    while (pos_ < src_.size()) {
        char c = peek();
        if (c == '\n') {
            newLine();
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            ++pos_;
            sawSpace_ = true;
        } else if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
            pos_ += peek(1) == '\r' ? 1 : 0; // a line splice: whitespace that ends the line
            ++pos_;
            bool wasAtStart = atLineStart_;
            newLine();
            atLineStart_ = wasAtStart;
            sawSpace_ = true;
        } else if (c == '/' && peek(1) == '/') {
            while (pos_ < src_.size() && peek() != '\n') ++pos_;
            sawSpace_ = true;
        } else if (c == '/' && peek(1) == '*') {
            Location start = here();
            pos_ += 2;
            bool closed = false;
            while (pos_ < src_.size()) {
                if (peek() == '*' && peek(1) == '/') {
                    pos_ += 2;
                    closed = true;
                    break;
                }
                if (peek() == '\n') {
                    bool wasAtStart = atLineStart_;
                    newLine();
                    atLineStart_ = wasAtStart;
                } else {
                    ++pos_;
                }
            }
            if (!closed) diagnostics_.error(start, "unterminated comment");
            sawSpace_ = true;
        } else {
            return;
        }
    }
}

TokenList Lexer::lex() {
    while (true) {
        skipWhitespaceAndComments();
        if (pos_ >= src_.size()) break;
        char c = peek();
        // The preprocessor writes its own directives (linemarkers, pragmas) at the start of a
        // line; a `#` a macro made there follows a blank (GCC and Clang print one), so it is
        // no directive but a stray token. An original file may indent its directives.
        const bool directiveStart = rawSource_ ? atLineStart_ && (c == '#' || (c == '%' && peek(1) == ':'))
                                               : c == '#' && pos_ == lineStart_;
        if (directiveStart) {
            directive();
        } else if (isIdentifierStart(c)) {
            identifierOrPrefixedLiteral();
        } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
            number();
        } else if (c == '"' || c == '\'') {
            quoted(c, 0);
        } else if (kSinglePunctuators.find(c) != std::string_view::npos) {
            punctuator();
        } else {
            Location where = here();
            diagnostics_.error(where, std::string("unexpected character '") + c + "'");
            ++pos_;
        }
        if (tokenLimit_ && tokens_.size() > tokenLimit_) {
            diagnostics_.error(tokens_.back().location,
                               "the preprocessed source has more than " + std::to_string(tokenLimit_) +
                                   " tokens: does a macro expand to a huge initializer? "
                                   "(METALCPU_COMPILE_TOKEN_LIMIT raises the limit; 0 removes it)");
            break;
        }
    }
    Token end;
    end.kind = TokenKind::End;
    end.location = here();
    end.startOfLine = true;
    tokens_.push_back(std::move(end));
    return std::move(tokens_);
}

void Lexer::directive() {
    Location where = here();
    std::size_t begin = pos_;
    // The directive runs to the end of the line; line splices continue it.
    while (pos_ < src_.size() && peek() != '\n') {
        if (peek() == '\\' && peek(1) == '\n') {
            ++pos_;
            newLine();
            continue;
        }
        ++pos_;
    }
    if (rawSource_) return;
    std::string_view line = src_.substr(begin + 1, pos_ - begin - 1);
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t nameEnd = i;
    while (nameEnd < line.size() && isIdentifierChar(line[nameEnd])) ++nameEnd;
    std::string_view name = line.substr(i, nameEnd - i);

    if (name == "pragma") {
        push(TokenKind::Pragma, begin, where);
        // One line: line splices become spaces, trailing blanks go.
        std::string spelling;
        for (std::size_t k = begin; k < pos_; ++k) {
            if (src_[k] == '\\' && k + 1 < pos_ && src_[k + 1] == '\n') {
                spelling += ' ';
                ++k;
            } else {
                spelling += src_[k];
            }
        }
        while (!spelling.empty() && (spelling.back() == ' ' || spelling.back() == '\r')) spelling.pop_back();
        tokens_.back().spelling = spelling;
        tokens_.back().text = std::move(spelling);
        return;
    }
    if (name.empty() && i == line.size()) return; // the null directive
    if (auto marker = parseLineMarker(line)) {
        // GCC writes the marker that enters an include where the #include line was, so the
        // current line is the line of the #include.
        Location includer = {file_, line_, 1};
        const std::uint32_t before = file_;
        if (!marker->file.empty()) file_ = files_.intern(marker->file);
        if (marker->entersFile)
            includes_.push_back({file_, includer});
        else if (file_ != before && !marker->returnsToFile)
            includes_.push_back({file_, includer, true}); // `#line N "other"` in the source

        // The marker line itself is consumed; the next line gets the marker's number (the
        // newline ending this line increments line_, wrapping from 0xffffffff for line 0).
        line_ = marker->line - 1u;
        return;
    }
    if (name == "ident" || name == "sccs") return; // harmless, GCC keeps them
    diagnostics_.error(where, "unexpected preprocessor directive '#" + std::string(name) +
                                  "'; kernel source must be preprocessed first");
}

void Lexer::identifierOrPrefixedLiteral() {
    Location where = here();
    std::size_t begin = pos_;
    while (pos_ < src_.size() && isIdentifierChar(peek())) ++pos_;
    std::string_view word = src_.substr(begin, pos_ - begin);
    char next = peek();
    if (next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        pos_ = begin;
        rawString(word.size());
        return;
    }
    if ((next == '"' || next == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L")) {
        pos_ = begin;
        quoted(next, word.size());
        return;
    }
    push(TokenKind::Identifier, begin, where);
}

void Lexer::number() {
    Location where = here();
    std::size_t begin = pos_;
    ++pos_;
    while (pos_ < src_.size()) {
        char c = peek();
        if ((c == '+' || c == '-') && (src_[pos_ - 1] == 'e' || src_[pos_ - 1] == 'E' ||
                                       src_[pos_ - 1] == 'p' || src_[pos_ - 1] == 'P')) {
            ++pos_;
        } else if (isIdentifierChar(c) || c == '.') {
            ++pos_;
        } else if (c == '\'' && isIdentifierChar(peek(1))) {
            pos_ += 2; // digit separator
        } else {
            break;
        }
    }
    push(TokenKind::Number, begin, where);
}

void Lexer::quoted(char quote, std::size_t prefixLength) {
    Location where = here();
    std::size_t begin = pos_;
    pos_ += prefixLength + 1;
    bool closed = false;
    while (pos_ < src_.size()) {
        char c = peek();
        if (c == '\n') break;
        if (c == '\\' && pos_ + 1 < src_.size() && peek(1) != '\n') {
            pos_ += 2;
            continue;
        }
        ++pos_;
        if (c == quote) {
            closed = true;
            break;
        }
    }
    // A user-defined-literal suffix belongs to the token.
    if (closed)
        while (pos_ < src_.size() && isIdentifierChar(peek())) ++pos_;
    if (!closed) {
        diagnostics_.error(where,
                           quote == '"' ? "unterminated string literal" : "unterminated character literal");
    }
    push(quote == '"' ? TokenKind::String : TokenKind::Character, begin, where);
}

void Lexer::rawString(std::size_t prefixLength) {
    Location where = here();
    std::size_t begin = pos_;
    pos_ += prefixLength + 1; // past the prefix and the quote
    std::size_t delimiterBegin = pos_;
    while (pos_ < src_.size() && peek() != '(' && peek() != '\n' && pos_ - delimiterBegin <= 16) ++pos_;
    if (peek() != '(') {
        diagnostics_.error(where, "invalid raw string delimiter");
        push(TokenKind::String, begin, where);
        return;
    }
    std::string terminator = ")" + std::string(src_.substr(delimiterBegin, pos_ - delimiterBegin)) + "\"";
    std::size_t close = src_.find(terminator, pos_);
    std::size_t stop = close == std::string_view::npos ? src_.size() : close + terminator.size();
    if (close == std::string_view::npos) diagnostics_.error(where, "unterminated raw string literal");
    // Count the lines inside so that later tokens keep their locations.
    std::uint32_t lines = 0;
    std::size_t lastNewline = std::string_view::npos;
    for (std::size_t i = pos_; i < stop; ++i) {
        if (src_[i] == '\n') {
            ++lines;
            lastNewline = i;
        }
    }
    pos_ = stop;
    push(TokenKind::String, begin, where);
    if (lines > 0) {
        line_ += lines;
        lineStart_ = lastNewline + 1;
    }
}

void Lexer::punctuator() {
    Location where = here();
    std::size_t begin = pos_;
    for (const Digraph& d : kDigraphs) {
        if (src_.substr(pos_, d.written.size()) != d.written) continue;
        // `<::` is `<` `::` unless a third `:` or a `>` follows (C++11 [lex.pptoken]).
        if (d.written == "<:" && peek(2) == ':' && peek(3) != ':' && peek(3) != '>') break;
        pos_ += d.written.size();
        push(TokenKind::Punctuator, begin, where);
        tokens_.back().spelling = std::string(d.means);
        tokens_.back().text = tokens_.back().spelling;
        refuseHash(d.written);
        return;
    }
    for (std::string_view p : kPunctuators) {
        if (src_.substr(pos_, p.size()) == p) {
            pos_ += p.size();
            push(TokenKind::Punctuator, begin, where);
            refuseHash(p);
            return;
        }
    }
    ++pos_;
    push(TokenKind::Punctuator, begin, where);
    refuseHash(tokens_.back().spelling);
}

void Lexer::refuseHash(std::string_view written) {
    // Preprocessed C++ has no `#` or `##` outside directives. The translated text is
    // preprocessed again when it is compiled, where one at the start of a line would be a
    // directive of the kernel's making (an #include of any file).
    const Token& t = tokens_.back();
    if (rawSource_ || !(t.spelling == "#" || t.spelling == "##")) return;
    diagnostics_.error(t.location, "stray '" + std::string(written) +
                                       "' in kernel code: a macro cannot make a preprocessor directive");
}

} // namespace metalcpu::msl
