#include "doc_checks.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

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
    const std::regex comment(R"(^<!--\s*(quote|output):\s*(.*?)\s*-->\s*$)");
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

bool matchesOutputLine(const std::string& output, const std::string& line, std::size_t* from) {
    // The line as a regular expression: its text literally, each <...> as any text.
    std::string pattern;
    for (std::size_t at = 0; at < line.size();) {
        const std::size_t open = line.find('<', at);
        const std::size_t close = open == std::string::npos ? std::string::npos : line.find('>', open);
        const std::size_t literalEnd = close == std::string::npos ? line.size() : open;
        for (char c : line.substr(at, literalEnd - at)) {
            if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) pattern += '\\';
            pattern += c;
        }
        if (close == std::string::npos) break;
        pattern += ".*";
        at = close + 1;
    }
    const std::regex whole(pattern);
    const std::vector<std::string> lines = linesOf(output);
    for (std::size_t i = *from; i < lines.size(); ++i) {
        if (std::regex_match(lines[i], whole)) {
            *from = i + 1;
            return true;
        }
    }
    return false;
}

} // namespace metalcpu::docs
