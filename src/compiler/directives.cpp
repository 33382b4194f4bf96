#include "compiler/directives.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

bool isIdentifierStart(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || u >= 0x80;
}

bool isIdentifierChar(char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Blanks inside a line. GCC also takes NUL for a blank (with a warning), so a NUL before a
// `#` must not hide a directive.
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0'; }

/// The text after phase 2 (line splices removed), with the physical offset of every character
/// so that locations and raw string literals can refer to the file as written.
class SplicedText {
public:
    explicit SplicedText(std::string_view physical) : physical_(physical) {
        std::size_t i = 0;
        if (physical.substr(0, 3) == "\xEF\xBB\xBF") i = 3; // GCC skips a byte order mark
        while (i < physical.size()) {
            if (physical[i] == '\\') {
                // A splice: a backslash, blanks (GCC warns but accepts them), a newline.
                std::size_t k = i + 1;
                while (k < physical.size() && (physical[k] == ' ' || physical[k] == '\t')) ++k;
                if (k + 1 < physical.size() && physical[k] == '\r' && physical[k + 1] == '\n') ++k;
                if (k < physical.size() && physical[k] == '\n') {
                    i = k + 1;
                    continue;
                }
            }
            text_ += physical[i];
            origin_.push_back(i);
            ++i;
        }
        origin_.push_back(physical.size());
        lineStarts_.push_back(0);
        for (std::size_t k = 0; k < physical.size(); ++k)
            if (physical[k] == '\n') lineStarts_.push_back(k + 1);
    }

    const std::string& text() const { return text_; }
    std::string_view physical() const { return physical_; }
    std::size_t physicalOffset(std::size_t logical) const { return origin_[std::min(logical, text_.size())]; }

    /// The first logical index at or after physical offset `p`.
    std::size_t logicalAt(std::size_t p) const {
        return static_cast<std::size_t>(std::lower_bound(origin_.begin(), origin_.end(), p) - origin_.begin());
    }

    /// 1-based line and column (in bytes) of logical index `logical`.
    void locate(std::size_t logical, std::uint32_t& line, std::uint32_t& column) const {
        std::size_t p = physicalOffset(logical);
        auto next = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), p);
        line = static_cast<std::uint32_t>(next - lineStarts_.begin());
        column = static_cast<std::uint32_t>(p - *(next - 1) + 1);
    }

private:
    std::string_view physical_;
    std::string text_;
    std::vector<std::size_t> origin_;
    std::vector<std::size_t> lineStarts_;
};

class ReferenceScanner {
public:
    explicit ReferenceScanner(std::string_view physical) : source_(physical), s_(source_.text()) {}

    std::vector<FileReference> run() {
        while (i_ < s_.size()) step();
        return std::move(found_);
    }

private:
    char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\n'; }
    bool isNewline(char c) const { return c == '\n' || c == '\r'; }

    // Skips blanks and comments inside the current line; returns the next position.
    std::size_t skipBlanks(std::size_t k) const {
        while (k < s_.size()) {
            if (isBlank(s_[k])) {
                ++k;
            } else if (s_[k] == '/' && at(k + 1) == '*') {
                std::size_t close = s_.find("*/", k + 2);
                k = close == std::string::npos ? s_.size() : close + 2;
            } else if (s_[k] == '/' && at(k + 1) == '/') {
                while (k < s_.size() && !isNewline(s_[k])) ++k;
            } else {
                break;
            }
        }
        return k;
    }

    std::size_t endOfLine(std::size_t k) const {
        while (k < s_.size() && !isNewline(s_[k])) ++k;
        return k;
    }

    FileReference reference(FileReference::Kind kind, std::string directive, std::size_t where) const {
        FileReference r;
        r.kind = kind;
        r.directive = std::move(directive);
        source_.locate(where, r.line, r.column);
        return r;
    }

    // A header name at `k`: "name" or <name>, on this line. Sets `computed` when there is
    // none. Returns the position after it.
    std::size_t headerName(std::size_t k, FileReference& r) const {
        k = skipBlanks(k);
        char open = at(k);
        char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        if (close != '\0') {
            std::size_t end = k + 1;
            while (end < s_.size() && s_[end] != close && !isNewline(s_[end])) ++end;
            if (at(end) == close) {
                r.name = s_.substr(k + 1, end - k - 1);
                r.angled = open == '<';
                return end + 1;
            }
        }
        r.computed = true;
        return k;
    }

    void step() {
        char c = s_[i_];
        if (isNewline(c)) {
            atLineStart_ = true;
            ++i_;
        } else if (isBlank(c)) {
            ++i_;
        } else if (c == '/' && at(i_ + 1) == '/') {
            i_ = endOfLine(i_);
        } else if (c == '/' && at(i_ + 1) == '*') {
            std::size_t close = s_.find("*/", i_ + 2);
            std::size_t end = close == std::string::npos ? s_.size() : close + 2;
            // A directive right after a comment that spans lines is taken as one: finding too
            // much is safe, missing one is not.
            if (s_.find_first_of("\r\n", i_) < end) atLineStart_ = true;
            i_ = end;
        } else if (atLineStart_ && (c == '#' || (c == '%' && at(i_ + 1) == ':'))) {
            directive();
        } else {
            atLineStart_ = false;
            if (isIdentifierStart(c)) {
                identifier();
            } else if (isDigit(c) || (c == '.' && isDigit(at(i_ + 1)))) {
                number();
            } else if (c == '"' || c == '\'') {
                i_ = quoted(i_);
            } else {
                ++i_;
            }
        }
    }

    // A string or character literal starting at its quote; ends at the closing quote or, as
    // GCC's does when it is unterminated, at the end of the line.
    std::size_t quoted(std::size_t k) const {
        char quote = s_[k++];
        while (k < s_.size() && !isNewline(s_[k])) {
            if (s_[k] == '\\' && k + 1 < s_.size() && !isNewline(s_[k + 1])) {
                k += 2;
                continue;
            }
            if (s_[k++] == quote) break;
        }
        return k;
    }

    void number() {
        ++i_;
        while (i_ < s_.size()) {
            char c = s_[i_], p = s_[i_ - 1];
            if ((c == '+' || c == '-') && (p == 'e' || p == 'E' || p == 'p' || p == 'P'))
                ++i_;
            else if (isIdentifierChar(c) || c == '.')
                ++i_;
            else if (c == '\'' && isIdentifierChar(at(i_ + 1)))
                i_ += 2; // a digit separator, not a character literal
            else
                break;
        }
    }

    void identifier() {
        const std::size_t begin = i_;
        while (i_ < s_.size() && isIdentifierChar(s_[i_])) ++i_;
        const std::string word = s_.substr(begin, i_ - begin);
        const char next = at(i_);
        if (next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
            rawString();
        } else if ((next == '"' || next == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L")) {
            i_ = quoted(i_);
        } else if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed") {
            probe(word, begin);
        } else if (word == "_Pragma") {
            pragmaOperator(begin);
        }
    }

    // R"delimiter( ... )delimiter": the body is the file as written (GCC undoes line splices
    // inside), so the end is looked for in the physical text. The body is scanned as code too,
    // in case this reading of the literal differs from the compiler's.
    void rawString() {
        std::size_t open = i_ + 1;
        std::size_t paren = open;
        while (paren < s_.size() && paren - open <= 16 && s_[paren] != '(' && !isNewline(s_[paren]) &&
               !isBlank(s_[paren]) && s_[paren] != '\\' && s_[paren] != ')')
            ++paren;
        if (at(paren) != '(') { // not a raw string after all: an ordinary literal
            i_ = quoted(i_);
            return;
        }
        const std::string terminator = ")" + s_.substr(open, paren - open) + "\"";
        const std::size_t bodyBegin = source_.physicalOffset(paren) + 1;
        std::size_t close = source_.physical().find(terminator, bodyBegin);
        std::size_t bodyEnd = close == std::string_view::npos ? source_.physical().size() : close;
        std::uint32_t line = 0, column = 0;
        source_.locate(paren, line, column);
        for (FileReference r : findFileReferences(source_.physical().substr(bodyBegin, bodyEnd - bodyBegin))) {
            if (r.line == 1) r.column += column;
            r.line += line - 1;
            found_.push_back(std::move(r));
        }
        i_ = source_.logicalAt(close == std::string_view::npos ? bodyEnd : close + terminator.size());
    }

    // __has_include("name") and its relatives.
    void probe(const std::string& word, std::size_t where) {
        FileReference r = reference(FileReference::Kind::Probe, word, where);
        std::size_t k = skipBlanks(i_);
        if (at(k) == '(') {
            k = headerName(k + 1, r);
            k = skipBlanks(k);
            if (!r.computed && at(k) != ')') r.computed = true;
        } else {
            r.computed = true;
        }
        found_.push_back(std::move(r));
    }

    // _Pragma("GCC dependency \"file\""): the only operator-made pragma that opens a file.
    // A computed argument (_Pragma(STR(x))) is left to the preprocessor, see docs/compiler.md.
    void pragmaOperator(std::size_t where) {
        std::size_t k = skipBlanks(i_);
        if (at(k) != '(') return;
        k = skipBlanks(k + 1);
        if (at(k) == 'L') ++k;
        if (at(k) != '"') return;
        std::size_t end = quoted(k);
        std::string body;
        for (std::size_t p = k + 1; p + 1 < end; ++p) {
            if (s_[p] == '\\' && (s_[p + 1] == '"' || s_[p + 1] == '\\')) ++p;
            body += s_[p];
        }
        if (isDependencyPragma(body, 0)) {
            found_.push_back(reference(FileReference::Kind::Dependency, "_Pragma(\"GCC dependency\")", where));
            found_.back().computed = true; // refused whatever it names
        }
        i_ = end;
    }

    // Whether the pragma text from `k` on is `GCC dependency ...`.
    static bool isDependencyPragma(std::string_view text, std::size_t k) {
        auto word = [&](std::string_view expected) {
            while (k < text.size() && isBlank(text[k])) ++k;
            std::size_t begin = k;
            while (k < text.size() && isIdentifierChar(text[k])) ++k;
            return text.substr(begin, k - begin) == expected;
        };
        return word("GCC") && word("dependency");
    }

    void directive() {
        const std::size_t hash = i_;
        std::size_t k = skipBlanks(i_ + (s_[i_] == '#' ? 1 : 2));
        atLineStart_ = false;
        if (isDigit(at(k))) { // a linemarker: # 12 "file" flags
            lineFile(k, hash, "#");
            i_ = endOfLine(k);
            return;
        }
        std::size_t nameEnd = k;
        while (nameEnd < s_.size() && isIdentifierChar(s_[nameEnd])) ++nameEnd;
        const std::string name = s_.substr(k, nameEnd - k);
        if (name == "include" || name == "import" || name == "include_next" || name == "embed") {
            FileReference r = reference(name == "include_next" ? FileReference::Kind::IncludeNext
                                        : name == "embed"      ? FileReference::Kind::Embed
                                                               : FileReference::Kind::Include,
                                        "#" + name, hash);
            headerName(nameEnd, r);
            found_.push_back(std::move(r));
        } else if (name == "line") {
            lineFile(skipBlanks(nameEnd), hash, "#line");
        } else if (name == "pragma") {
            if (isDependencyPragma(s_.substr(nameEnd, endOfLine(nameEnd) - nameEnd), 0)) {
                FileReference r = reference(FileReference::Kind::Dependency, "#pragma GCC dependency", hash);
                r.computed = true; // refused whatever it names
                found_.push_back(std::move(r));
            }
        } else {
            // #if, #elif, #define ...: the rest of the line is scanned as code, for probes.
            i_ = nameEnd;
            return;
        }
        i_ = endOfLine(nameEnd);
    }

    // `#line N` with an optional "file" (`k` is at N). The name is a string literal, whose
    // escapes name characters (`"C:\\proj\\k.slang"`, as generators on Windows write it);
    // only a name that is no string literal counts as computed.
    void lineFile(std::size_t k, std::size_t hash, const char* directive) {
        FileReference r = reference(FileReference::Kind::LineFile, directive, hash);
        if (!isDigit(at(k))) {
            r.computed = true;
            found_.push_back(std::move(r));
            return;
        }
        while (isDigit(at(k))) ++k;
        k = skipBlanks(k);
        if (isNewline(at(k)) || isDigit(at(k))) return; // no file name
        if (at(k) != '"') {
            r.computed = true;
        } else {
            std::size_t end = quoted(k);
            bool terminated = end - k >= 2 && s_[end - 1] == '"';
            if (terminated) r.name = unescaped(s_.substr(k + 1, end - k - 2));
            if (!terminated) r.computed = true;
        }
        found_.push_back(std::move(r));
    }

    // The characters a string literal's simple escapes stand for (`\\`, `\"`, `\'`, `\?`);
    // any other escape stays as written, which is all a display name needs.
    static std::string unescaped(std::string_view literal) {
        std::string out;
        for (std::size_t k = 0; k < literal.size(); ++k) {
            const char next = k + 1 < literal.size() ? literal[k + 1] : '\0';
            if (literal[k] == '\\' && (next == '\\' || next == '"' || next == '\'' || next == '?')) ++k;
            out += literal[k];
        }
        return out;
    }

    SplicedText source_;
    const std::string& s_;
    std::size_t i_ = 0;
    bool atLineStart_ = true;
    std::vector<FileReference> found_;
};

} // namespace

std::vector<FileReference> findFileReferences(std::string_view text) { return ReferenceScanner(text).run(); }

} // namespace metalcpu::msl
