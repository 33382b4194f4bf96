#include "doc_checks.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>
#include <utility>

namespace metalcpu::docs {
namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::vector<std::string> wordsOf(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// `line` stripped of spaces at both ends.
std::string trimmed(const std::string& line) {
    const std::size_t begin = line.find_first_not_of(" \t");
    if (begin == std::string::npos) return {};
    return line.substr(begin, line.find_last_not_of(" \t") - begin + 1);
}

/// The line holds the marker `[<doc>:<name>]` and nothing but comment punctuation.
bool isMarker(const std::string& line, const std::string& doc, const std::string& name) {
    const std::string marker = "[" + doc + ":" + name + "]";
    const std::string text = trimmed(line);
    return text == "// " + marker || text == "# " + marker;
}

} // namespace

std::vector<Block> blocksOf(const std::string& markdown) {
    const std::vector<std::string> lines = linesOf(markdown);
    const std::regex comment(R"(^<!--\s*(quote|output|excerpt):\s*(.*?)\s*-->\s*$)");
    std::vector<Block> blocks;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!startsWith(lines[i], "```")) continue;
        Block block;
        block.kind = trimmed(lines[i].substr(3));
        block.line = static_cast<int>(i) + 1;
        std::smatch described;
        if (i > 0 && std::regex_match(lines[i - 1], described, comment)) {
            block.kind = described[1];
            block.words = wordsOf(described[2]);
        }
        for (++i; i < lines.size() && !startsWith(lines[i], "```"); ++i) block.text += lines[i] + "\n";
        blocks.push_back(block);
    }
    return blocks;
}

std::optional<std::string> regionOf(const std::string& file, const std::string& doc, const std::string& region) {
    const std::vector<std::string> lines = linesOf(file);
    const auto begin = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return isMarker(l, doc, region); });
    if (begin == lines.end()) return std::nullopt;
    const auto end = std::find_if(begin + 1, lines.end(), [&](const std::string& l) { return isMarker(l, doc, "end"); });
    if (end == lines.end()) return std::nullopt;
    std::size_t indent = std::string::npos;
    for (auto line = begin + 1; line != end; ++line)
        if (!trimmed(*line).empty()) indent = std::min(indent, line->find_first_not_of(' '));
    std::string text;
    for (auto line = begin + 1; line != end; ++line) text += (line->size() > indent ? line->substr(indent) : "") + "\n";
    return text;
}

std::vector<std::string> regionNames(const std::string& file, const std::string& doc) {
    const std::regex marker("^\\s*(//|#) \\[" + doc + ":([a-z0-9-]+)\\]\\s*$");
    std::vector<std::string> names;
    for (const std::string& line : linesOf(file)) {
        std::smatch found;
        if (std::regex_match(line, found, marker) && found[2] != "end") names.push_back(found[2]);
    }
    return names;
}

namespace {

/// `text` as a regular expression that matches it literally.
std::string literalPattern(const std::string& text) {
    std::string pattern;
    for (char c : text) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) pattern += '\\';
        pattern += c;
    }
    return pattern;
}

/// Whether a line of `text` at or after the line `*from` matches `pattern` whole; `*from`
/// moves past the first that does.
bool findLine(const std::string& text, const std::string& pattern, std::size_t* from) {
    const std::regex whole(pattern);
    const std::vector<std::string> lines = linesOf(text);
    for (std::size_t i = *from; i < lines.size(); ++i) {
        if (std::regex_match(lines[i], whole)) {
            *from = i + 1;
            return true;
        }
    }
    return false;
}

} // namespace

bool matchesOutputLine(const std::string& output, const std::string& line, std::size_t* from) {
    // The line as a regular expression: its text literally, each <...> as any text.
    std::string pattern;
    for (std::size_t at = 0; at < line.size();) {
        const std::size_t open = line.find('<', at);
        const std::size_t close = open == std::string::npos ? std::string::npos : line.find('>', open);
        const std::size_t literalEnd = close == std::string::npos ? line.size() : open;
        pattern += literalPattern(line.substr(at, literalEnd - at));
        if (close == std::string::npos) break;
        pattern += ".*";
        at = close + 1;
    }
    return findLine(output, pattern, from);
}

bool matchesExcerptLine(const std::string& file, const std::string& line, std::size_t* from) {
    if (trimmed(line) == "...") return true; // a gap, which any line may be anyway
    // `...` rather than <...>: the excerpts are C++, whose template arguments are in <>.
    std::string pattern;
    for (std::size_t at = 0; at <= line.size();) {
        const std::size_t gap = line.find("...", at);
        pattern += literalPattern(line.substr(at, gap == std::string::npos ? std::string::npos : gap - at));
        if (gap == std::string::npos) break;
        pattern += ".*";
        at = gap + 3;
    }
    return findLine(file, pattern, from);
}

std::string literalRuns(const std::string& code) {
    std::string runs;
    bool inRun = false;
    auto endRun = [&] {
        if (inRun) runs += '\n';
        inRun = false;
    };
    for (std::size_t i = 0; i < code.size();) {
        const char c = code[i];
        const char next = i + 1 < code.size() ? code[i + 1] : '\0';
        if (c == '/' && next == '/') {
            i = std::min(code.find('\n', i), code.size());
        } else if (c == '/' && next == '*') {
            i = std::min(code.find("*/", i + 2), code.size() - 2) + 2;
        } else if (c == '\'') {
            // A character literal, or a digit separator (1'000).
            if (i > 0 && std::isalnum(static_cast<unsigned char>(code[i - 1]))) {
                ++i;
                continue;
            }
            endRun();
            i += next == '\\' ? 3 : 2;
            while (i < code.size() && code[i] != '\'') ++i;
            ++i;
        } else if (c == 'R' && next == '"' && (i == 0 || !std::isalnum(static_cast<unsigned char>(code[i - 1])))) {
            const std::size_t open = code.find('(', i);
            const std::string close = ")" + code.substr(i + 2, open - i - 2) + "\"";
            const std::size_t end = std::min(code.find(close, open), code.size());
            runs += code.substr(open + 1, end - open - 1);
            inRun = true;
            i = end + close.size();
        } else if (c == '"') {
            for (++i; i < code.size() && code[i] != '"'; ++i) {
                if (code[i] != '\\' || i + 1 == code.size()) {
                    runs += code[i];
                    continue;
                }
                const char escaped = code[++i];
                runs += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped;
            }
            ++i;
            inRun = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else {
            endRun();
            ++i;
        }
    }
    // A format argument is a variable part, as one between literals is.
    return std::regex_replace(runs, std::regex(R"(\{[^{} ]*\})"), "\n");
}

namespace {

/// Whether some string of `sorted` begins with `prefix`.
bool somethingStartsWith(const std::vector<std::string>& sorted, const std::string& prefix) {
    const auto at = std::lower_bound(sorted.begin(), sorted.end(), prefix);
    return at != sorted.end() && startsWith(*at, prefix);
}

} // namespace

Literals::Literals(std::string runs) : runs_(std::move(runs)) {
    sorted_ = linesOf(runs_);
    for (std::string run : sorted_) {
        whole_.insert(run);
        std::reverse(run.begin(), run.end());
        reversed_.push_back(run);
    }
    std::sort(sorted_.begin(), sorted_.end());
    std::sort(reversed_.begin(), reversed_.end());
}

bool Literals::endsARun(const std::string& text) const {
    return somethingStartsWith(reversed_, std::string(text.rbegin(), text.rend()));
}

bool Literals::startsARun(const std::string& text) const { return somethingStartsWith(sorted_, text); }

bool Literals::give(const std::string& part) const {
    if (runs_.find(part) != std::string::npos) return true;
    // joined[i]: part[0, i) is the end of a run followed by whole runs.
    std::vector<bool> joined(part.size() + 1, false);
    for (std::size_t i = 1; i < part.size(); ++i) {
        joined[i] = endsARun(part.substr(0, i));
        for (std::size_t j = 1; j < i && !joined[i]; ++j) joined[i] = joined[j] && whole_.count(part.substr(j, i - j));
        if (joined[i] && startsARun(part.substr(i))) return true;
    }
    return false;
}

std::vector<std::string> messageParts(const std::string& line) {
    static const std::regex logPrefix(R"(^\[metalcpu\] (trace|debug|info|warning|error|critical): )");
    static const std::regex placeholder("<[^>]*>");
    const std::string message = std::regex_replace(line, logPrefix, "");
    std::vector<std::string> parts;
    for (std::sregex_token_iterator part(message.begin(), message.end(), placeholder, -1), end; part != end; ++part) {
        std::string text = *part;
        const std::string edges = " \t()[]:;,.'`\"";
        const std::size_t begin = text.find_first_not_of(edges);
        text = begin == std::string::npos ? "" : text.substr(begin, text.find_last_not_of(edges) - begin + 1);
        for (const char* prefix : {"error: ", "warning: "})
            if (startsWith(text, prefix)) text = text.substr(std::string(prefix).size());
        if (text.size() >= 8) parts.push_back(text);
    }
    return parts;
}

} // namespace metalcpu::docs
