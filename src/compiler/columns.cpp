#include "compiler/columns.h"

#include "compiler/diagnostics.h"
#include "compiler/lexer.h"

#include <algorithm>
#include <map>
#include <vector>

namespace metalcpu::msl {

namespace {

struct OriginalToken {
    std::string spelling;
    std::uint32_t column = 0;
};

// Lines longer than this (tokens before x after) fall back to keeping the preprocessor's
// columns rather than spending quadratic time.
constexpr std::size_t kMaxAlignmentCells = 1u << 22;

// The tokens of an original file, by line (index 0 = line 1).
std::vector<std::vector<OriginalToken>> originalLines(const std::string& text) {
    FileTable scratchFiles("");
    Diagnostics scratch(scratchFiles);
    Lexer lexer(text, scratchFiles, scratch, /*rawSource=*/true);
    TokenList raw = lexer.lex();
    std::vector<std::vector<OriginalToken>> lines;
    for (const Token& t : raw) {
        if (t.kind == TokenKind::End) break;
        if (t.location.line == 0) continue;
        if (lines.size() < t.location.line) lines.resize(t.location.line);
        lines[t.location.line - 1].push_back({t.spelling, t.location.column});
    }
    return lines;
}

// Gives tokens [begin, end) (one preprocessed line) the columns of the original line. The
// two token sequences are aligned by a longest common subsequence of spellings, so that a
// macro expansion cannot pull the tokens after it out of place; a token that matches nothing
// (it came from a macro) takes the column of the first unmatched original token between its
// matched neighbours (the macro's name).
void alignLine(TokenList& tokens, std::size_t begin, std::size_t end, const std::vector<OriginalToken>& original) {
    const std::size_t n = end - begin, m = original.size();
    if (n == 0 || m == 0 || n * m > kMaxAlignmentCells) return;
    // lcs[a * (m + 1) + b]: the longest common subsequence of pp tokens [a, n) and original
    // tokens [b, m). One flat table: a line of one macro has n in the millions and m of 1.
    const std::size_t width = m + 1;
    std::vector<std::uint16_t> lcs((n + 1) * width, 0);
    auto at = [&](std::size_t a, std::size_t b) -> std::uint16_t& { return lcs[a * width + b]; };
    for (std::size_t a = n; a-- > 0;) {
        for (std::size_t b = m; b-- > 0;) {
            if (tokens[begin + a].spelling == original[b].spelling)
                at(a, b) = static_cast<std::uint16_t>(at(a + 1, b + 1) + 1);
            else
                at(a, b) = std::max(at(a + 1, b), at(a, b + 1));
        }
    }
    std::vector<std::size_t> match(n, kNoToken);
    for (std::size_t a = 0, b = 0; a < n && b < m;) {
        if (tokens[begin + a].spelling == original[b].spelling && at(a, b) == at(a + 1, b + 1) + 1) {
            match[a++] = b++;
        } else if (at(a + 1, b) >= at(a, b + 1)) {
            ++a;
        } else {
            ++b;
        }
    }
    std::vector<bool> used(m, false);
    for (std::size_t a = 0; a < n; ++a)
        if (match[a] != kNoToken) used[match[a]] = true;
    // nextMatch[a]: the original index matched by the first matched token after a, else m;
    // one backward pass, where a forward search from every unmatched token was quadratic.
    std::vector<std::size_t> nextMatch(n, m);
    for (std::size_t a = n - 1; a-- > 0;) nextMatch[a] = match[a + 1] != kNoToken ? match[a + 1] : nextMatch[a + 1];
    std::size_t previous = kNoToken; // original index matched by the last matched token
    for (std::size_t a = 0; a < n; ++a) {
        Token& t = tokens[begin + a];
        if (t.kind == TokenKind::Pragma) continue;
        if (match[a] != kNoToken) {
            previous = match[a];
            t.location.column = original[previous].column;
            continue;
        }
        for (std::size_t b = previous == kNoToken ? 0 : previous + 1; b < nextMatch[a]; ++b) {
            if (!used[b]) {
                t.location.column = original[b].column;
                break;
            }
        }
    }
}

} // namespace

void restoreColumns(TokenList& tokens, const FileTable& files, const OriginalSourceReader& read) {
    if (!read) return;
    std::map<std::uint32_t, std::optional<std::vector<std::vector<OriginalToken>>>> cache;
    std::size_t i = 0;
    while (i < tokens.size() && tokens[i].kind != TokenKind::End) {
        // The tokens [i, j) share a file and line.
        const Location at = tokens[i].location;
        std::size_t j = i;
        while (j < tokens.size() && tokens[j].kind != TokenKind::End && tokens[j].location.file == at.file &&
               tokens[j].location.line == at.line)
            ++j;
        auto found = cache.find(at.file);
        if (found == cache.end()) {
            std::optional<std::vector<std::vector<OriginalToken>>> lines;
            const std::string& name = files.spelling(at.file);
            if (!FileTable::isPseudoFile(name)) {
                if (auto text = read(name)) lines = originalLines(*text);
            }
            found = cache.emplace(at.file, std::move(lines)).first;
        }
        const auto& lines = found->second;
        if (lines && at.line >= 1 && at.line <= lines->size())
            alignLine(tokens, i, j, (*lines)[at.line - 1]);
        i = j;
    }
}

} // namespace metalcpu::msl
