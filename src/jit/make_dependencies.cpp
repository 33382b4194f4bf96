#include "jit/make_dependencies.h"

#include <algorithm>

namespace metalcpu::jit {

namespace {

/// The words of a depfile with its escapes undone; a word that ends a target (its ':') is
/// returned with the colon, so that the caller can tell targets from prerequisites.
std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    bool inWord = false;
    auto finish = [&] {
        if (inWord) out.push_back(word);
        word.clear();
        inWord = false;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (c == '\\' && (next == '\n' || (next == '\r' && i + 2 < text.size() && text[i + 2] == '\n'))) {
            finish();
            i += next == '\r' ? 2 : 1;
        } else if (c == '\\' && (next == ' ' || next == '#' || next == '\\')) {
            word += next;
            inWord = true;
            ++i;
        } else if (c == '$' && next == '$') {
            word += '$';
            inWord = true;
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            finish();
        } else if (c == '\n') {
            finish();
            out.emplace_back("\n");
        } else {
            word += c;
            inWord = true;
        }
    }
    finish();
    return out;
}

} // namespace

std::vector<std::string> readMakePrerequisites(std::string_view depfile) {
    std::vector<std::string> prerequisites;
    bool afterColon = false;
    for (std::string& word : words(depfile)) {
        if (word == "\n") {
            afterColon = false;
        } else if (!afterColon) {
            // Targets up to the one that ends in ':' (or a lone ':'); what follows it on the
            // same line is a prerequisite.
            if (word.back() == ':') afterColon = true;
        } else if (std::find(prerequisites.begin(), prerequisites.end(), word) == prerequisites.end()) {
            prerequisites.push_back(std::move(word));
        }
    }
    return prerequisites;
}

std::string quoteForMake(std::string_view name) {
    std::string quoted;
    for (char c : name) {
        if (c == ' ' || c == '\t' || c == '#') quoted += '\\';
        if (c == '$') quoted += '$';
        quoted += c;
    }
    return quoted;
}

std::string formatMakeRule(const std::vector<std::string>& targets, const std::vector<std::string>& prerequisites,
                           const std::vector<std::string>& phonyTargets) {
    std::string text;
    for (std::size_t i = 0; i < targets.size(); ++i) text += (i ? " " : "") + targets[i];
    text += ":";
    for (const std::string& prerequisite : prerequisites) text += " \\\n  " + quoteForMake(prerequisite);
    text += "\n";
    for (const std::string& phony : phonyTargets) text += "\n" + quoteForMake(phony) + ":\n";
    return text;
}

} // namespace metalcpu::jit
