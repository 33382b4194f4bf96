#include "compiler/passes/pragmas.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

namespace {

bool isUnsignedLiteral(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return s.size() <= 5;
}

/// The top-level `;` of the header tokens [begin, end), or `end`.
std::size_t headerSemicolon(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                            std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        if (tokens[i].isPunct(";")) return i;
        if (partner[i] != kNoToken && partner[i] > i) i = partner[i];
    }
    return end;
}

/// Whether GCC would drop the unroll annotation of a loop whose condition is [begin, end): it
/// holds a division, which the divisions pass routes through `__mc_div` (a checked_divisor
/// temporary for an integer divisor). In a template instantiation GCC 12 wraps a condition
/// that makes a temporary of class type in a cleanup point and keeps the annotation inside it,
/// away from the loop's branch, and warns `ignoring loop annotation` (ggml's
/// `FOR_UNROLL (short ik = 0; ik < NK/8; ik++)`).
bool conditionLosesAnnotation(const Unit& unit, std::size_t begin, std::size_t end) {
    bool divides = false;
    for (std::size_t i = begin; i < end; ++i) {
        // A condition that declares a variable cannot move into an `if (!(...))`.
        if (unit.role(i) == TokenRole::Declarator) return false;
        if (unit[i].isPunct("/") || unit[i].isPunct("%")) divides = true;
    }
    return divides;
}

/// Rewrites the loop after an unroll pragma at `pragma` so that GCC keeps the annotation:
/// - `for (init; ; inc)`: GCC rejects an unroll pragma on a loop without a condition, so it
///   gets `true`;
/// - a condition that would lose the annotation (conditionLosesAnnotation()) leaves the header
///   for the top of the body, and the header's condition becomes `true`:
///   `for (init; cond; inc) body` becomes `for (init; true; inc) if (!(cond)) break; else body`
///   and `while (cond) body` becomes `while (true) if (!(cond)) break; else body`. The loop
///   runs the same (a `continue` still runs `inc` and then the check), and `else` keeps a body
///   that is not a block inside the loop. The condition's tokens stay where they are (later
///   passes edit them: work-item loops read a per-thread variable there); a for's increment,
///   which no later pass edits, is copied in front of them.
void keepAnnotation(PassContext& c, std::size_t pragma) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    std::size_t keyword = pragma + 1;
    while (keyword < tokens.size() && tokens[keyword].kind == TokenKind::Pragma) ++keyword;
    if (keyword + 1 >= tokens.size() || !tokens[keyword + 1].isPunct("(") || partner[keyword + 1] == kNoToken)
        return;
    const std::size_t open = keyword + 1;
    const std::size_t close = partner[open];
    if (tokens[keyword].isIdentifier("while")) {
        if (open + 1 == close || !conditionLosesAnnotation(c.unit, open + 1, close)) return;
        c.edits.insertBefore(open + 1, "true) if (!(");
        c.edits.insertAfter(close, ") break; else");
        return;
    }
    if (!tokens[keyword].isIdentifier("for")) return;
    const std::size_t first = headerSemicolon(tokens, partner, open + 1, close);
    const std::size_t second = first < close ? headerSemicolon(tokens, partner, first + 1, close) : close;
    if (second >= close) return; // a range-based for has no `;`
    if (second == first + 1) {
        c.edits.insertAfter(first, " true");
        return;
    }
    if (!conditionLosesAnnotation(c.unit, first + 1, second)) return;
    c.edits.insertBefore(first + 1, "true; " + outputText(tokens, second + 1, close) + ") if (!(");
    // `; inc )` goes, with whatever earlier passes did to the increment (carried by the copy).
    c.edits.takeOver(TokenRange{second, close + 1}, ")) break; else");
}

} // namespace

std::vector<std::string> pragmaWords(const std::string& line) {
    std::vector<std::string> words;
    std::string current;
    auto flush = [&] {
        if (!current.empty()) words.push_back(current);
        current.clear();
    };
    for (char c : line) {
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '(' || c == ')' || c == ',')
            flush();
        else
            current += c;
    }
    flush();
    // Drop `#` and `pragma` (they may be written `# pragma`).
    std::size_t skip = 0;
    if (skip < words.size() && words[skip] == "#") ++skip;
    if (skip < words.size() && (words[skip] == "pragma" || words[skip] == "#pragma")) ++skip;
    return std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(skip), words.end());
}

void rewritePragmas(PassContext& c) {
    for (std::size_t i = 0; i < c.unit.size(); ++i) {
        const Token& t = c.unit[i];
        if (t.kind != TokenKind::Pragma) continue;
        // A pragma an earlier pass rewrote went with what that pass erased (a collapsed overload).
        if (c.edits.isRewritten(i)) continue;
        std::vector<std::string> w = pragmaWords(t.spelling);
        if (w.empty()) continue;
        std::string count;
        if (w[0] == "unroll") {
            count = w.size() >= 2 && isUnsignedLiteral(w[1]) ? w[1] : "16";
        } else if (w[0] == "nounroll") {
            count = "1";
        } else if (w.size() >= 3 && w[0] == "clang" && w[1] == "loop") {
            if (w[2] == "unroll" && w.size() >= 4)
                count = w[3] == "disable" ? "1" : "16";
            else if (w[2] == "unroll_count" && w.size() >= 4)
                count = isUnsignedLiteral(w[3]) ? w[3] : "16";
        }
        if (count.empty()) continue;
        c.edits.replace(i, "#pragma GCC unroll " + count);
        keepAnnotation(c, i);
    }
}

} // namespace metalcpu::msl
