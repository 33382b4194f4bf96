#include "compiler/emitter/code_writer.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

// Lines of padding that are cheaper than a #line directive.
constexpr std::uint32_t kMaxBlankLines = 8;

bool isWordCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// Whether text ending in `left` followed directly by text starting with `right` could lex as
// other tokens than the two (`-` `-b` as `--b`, `/` `/` as a comment, `a` `b` as `ab`,
// `1e` `+` as one number): GCC's cpp_avoid_paste, on characters, erring towards a blank.
bool wouldPaste(char left, char right) {
    constexpr std::string_view kJoining = "+-*/%<>=!&|^:.#";
    if (isWordCharacter(left) || left == '.')
        return isWordCharacter(right) || right == '"' || right == '\'' || right == '.' ||
               ((left == 'e' || left == 'E' || left == 'p' || left == 'P') && (right == '+' || right == '-'));
    return kJoining.find(left) != std::string_view::npos && kJoining.find(right) != std::string_view::npos;
}

// Whether inserted text holds statements or blocks, as the barrier passes insert around the
// user's statements (closing one work-item loop, opening the next), rather than a piece of an
// expression or a declaration (a cast, a parameter).
bool holdsStatements(std::string_view text) { return text.find_first_of(";{}") != std::string_view::npos; }

} // namespace

void CodeWriter::writeRaw(std::string_view text) {
    out_ += text;
    positioned_ = false;
    column_ = 1;
}

void CodeWriter::append(std::string_view text) {
    out_ += text;
    std::size_t newline = text.rfind('\n');
    if (newline == std::string_view::npos) {
        column_ += static_cast<std::uint32_t>(text.size());
        return;
    }
    for (char c : text)
        if (c == '\n') ++line_;
    column_ = static_cast<std::uint32_t>(text.size() - newline);
}

void CodeWriter::insert(std::string_view text, const Location& token) {
    bool lineStart = false; // right after a preprocessor line
    while (!text.empty()) {
        std::size_t directive = lineStart && text.front() == '#' ? 0 : text.find("\n#");
        const std::string_view code = text.substr(0, directive);
        if (!code.empty()) {
            if (!positioned_) moveTo(token);
            const std::uint32_t line = line_, from = column_;
            append(code);
            // Text spanning lines (a work-item loop's) has no one place on the line it starts on.
            if (line_ == line) noteColumns(from, token.column);
            statementsInserted_ = statementsInserted_ || holdsStatements(code);
        }
        if (directive == std::string_view::npos) return;
        // A preprocessor line a pass inserted (kernel selection's `#if` and `#endif`):
        // a line of its own, after which the next text goes back to its place with #line.
        if (text[directive] == '\n') ++directive;
        const std::size_t end = text.find('\n', directive);
        if (column_ != 1) out_ += '\n';
        out_ += text.substr(directive, end == std::string_view::npos ? end : end - directive);
        out_ += '\n';
        positioned_ = false;
        column_ = 1;
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        lineStart = true;
    }
}

bool CodeWriter::afterStatement() const {
    const std::size_t last = out_.find_last_not_of(' ');
    return statementsInserted_ || (last != std::string::npos && holdsStatements(std::string_view(&out_[last], 1)));
}

void CodeWriter::returnTo(const Location& where) {
    lineDirective(where.file, where.line);
    out_.append(where.column - 1, ' ');
    column_ = where.column;
    keepColumnsFrom(where.column);
}

void CodeWriter::keepColumnsFrom(std::uint32_t column) {
    // Messages name the source line, not the output line: the spans an earlier output line of
    // this source line noted must not move what this one writes at its own columns.
    auto found = shifts_.find({file_, line_});
    if (found == shifts_.end()) return;
    std::vector<Span>& spans = found->second;
    for (Span& s : spans)
        if (s.to > column) s.to = std::max(s.from, column);
    std::erase_if(spans, [](const Span& s) { return s.to <= s.from; });
}

void CodeWriter::lineDirective(std::uint32_t file, std::uint32_t line) {
    if (column_ != 1) out_ += '\n';
    out_ += "#line " + std::to_string(line) + " " + quoteString(files_.reportedName(file)) + "\n";
    positioned_ = true;
    file_ = file;
    line_ = line;
    column_ = 1;
}

void CodeWriter::moveTo(const Location& where) {
    bool directive = false;
    if (!positioned_ || where.file != file_ || where.line < line_ || where.line > line_ + kMaxBlankLines) {
        lineDirective(where.file, where.line);
        directive = true;
    }
    while (line_ < where.line) {
        out_ += '\n';
        ++line_;
        column_ = 1;
    }
    if (column_ < where.column) {
        out_.append(where.column - column_, ' ');
        column_ = where.column;
    }
    if (directive) keepColumnsFrom(where.column);
}

void CodeWriter::writeTokens(const TokenList& tokens) {
    for (const Token& t : tokens) {
        if (t.kind == TokenKind::End) break;
        std::string_view body = t.erased ? std::string_view() : std::string_view(t.text);
        if (t.prefix.empty() && body.empty() && t.suffix.empty()) continue;

        if (t.kind == TokenKind::Pragma && !t.erased) {
            // A pragma needs a line of its own: start a new line, with a #line directive
            // unless the pragma is a few lines further down in the same file.
            const Location& at = t.location;
            bool near =
                positioned_ && at.file == file_ && at.line > line_ && at.line <= line_ + kMaxBlankLines;
            if (near) {
                while (line_ < at.line) {
                    out_ += '\n';
                    ++line_;
                }
            } else if (!(positioned_ && at.file == file_ && at.line == line_ && column_ == 1)) {
                lineDirective(at.file, at.line);
            }
            column_ = 1;
            if (!t.prefix.empty()) { // generated code meant to come before the pragma
                out_ += t.prefix;
                out_ += '\n';
                positioned_ = false;
                lineDirective(t.location.file, t.location.line);
            }
            out_ += body;
            out_ += '\n';
            ++line_;
            column_ = 1;
            if (!t.suffix.empty()) {
                out_ += t.suffix;
                out_ += '\n';
                positioned_ = false;
            }
            continue;
        }

        bool sameLine = positioned_ && t.location.file == file_ && t.location.line == line_;
        if (t.prefix.starts_with("\n#")) {
            // A preprocessor line comes first: insert() writes it, then moves to the token.
            statementsInserted_ = false;
        } else if (sameLine && column_ > t.location.column) {
            // Inserted or longer text pushed us past the token's column: a token that starts
            // a statement goes back to its column on a line of its own, so that a warning
            // about the user's statement shows its column; within an expression it follows.
            if (afterStatement()) returnTo(t.location);
            else if (t.spaceBefore && out_.back() != ' ') append(" ");
        } else {
            moveTo(t.location);
            statementsInserted_ = false; // what was inserted is on lines before
        }
        // Tokens of a macro expansion share the macro's column, so one can land right after
        // the one before it; the blank the preprocessor kept between them stays if they
        // would join (`#define M -` makes `b M-b` `b - -b`, not `b --b`).
        const std::string_view first = !t.prefix.empty() ? t.prefix : !body.empty() ? body : t.suffix;
        if (t.spaceBefore && column_ > 1 && wouldPaste(out_.back(), first.front())) append(" ");
        insert(t.prefix, t.location);
        if (!body.empty()) {
            if (!positioned_) moveTo(t.location);
            if (column_ > t.location.column && afterStatement()) returnTo(t.location);
            const std::uint32_t line = line_, from = column_;
            append(body);
            if (line_ == line && from != t.location.column) noteColumns(from, t.location.column);
            statementsInserted_ = false;
        }
        insert(t.suffix, t.location);
    }
    if (column_ != 1) append("\n");
}

void CodeWriter::noteColumns(std::uint32_t from, std::uint32_t column) {
    if (!positioned_ || column_ <= from) return;
    std::vector<Span>& spans = shifts_[{file_, line_}];
    // Adjacent text standing for the same column is one span.
    if (!spans.empty() && spans.back().to == from && spans.back().column == column) {
        spans.back().to = column_;
        return;
    }
    spans.push_back({from, column_, column});
}

std::string CodeWriter::columnMap() const {
    std::string out;
    for (const auto& [where, spans] : shifts_) {
        if (spans.empty()) continue;
        out += std::string(kColumnMapPrefix) + quoteString(files_.reportedName(where.first)) + " " +
               std::to_string(where.second);
        for (const Span& s : spans)
            out += " " + std::to_string(s.from) + "-" + std::to_string(s.to) + "=" + std::to_string(s.column);
        out += '\n';
    }
    return out;
}

void CodeWriter::writeGenerated(std::string_view name, std::string_view text) {
    if (column_ != 1) out_ += '\n';
    out_ += "#line 1 " + quoteString(name) + "\n";
    out_ += text;
    if (!text.empty() && text.back() != '\n') out_ += '\n';
    positioned_ = false;
    column_ = 1;
}

} // namespace metalcpu::msl
