#include "compiler/passes/pragmas.h"

#include "compiler/edits.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

namespace {

bool isUnsignedLiteral(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return s.size() <= 5;
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
        if (!count.empty()) c.edits.replace(i, "#pragma GCC unroll " + count);
    }
}

} // namespace metalcpu::msl
