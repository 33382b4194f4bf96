#include "tools/response_files.h"

#include "support/files.h"

namespace metalcpu::tools {

namespace {

constexpr int kMaxDepth = 32;

/// White space as GCC's response files know it (libiberty's ISSPACE).
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/// The arguments of a response file's text, split as GCC's driver splits them (libiberty's
/// buildargv; response_files.h has the rules). Clang's GNU rules differ only for a backslash
/// that ends the file, which Clang keeps.
std::vector<std::string> splitArguments(const std::string& text) {
    std::vector<std::string> arguments;
    std::string current;
    bool inArgument = false;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') {
            // Inside quotes too: 'a\'b' is a'b, and a Windows path a\b is ab.
            if (i + 1 < text.size()) current += text[++i];
            inArgument = true;
        } else if (quote) {
            if (c == quote) quote = 0;
            else current += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            inArgument = true;
        } else if (isSpace(c)) {
            if (inArgument) arguments.push_back(current);
            current.clear();
            inArgument = false;
        } else {
            current += c;
            inArgument = true;
        }
    }
    if (inArgument) arguments.push_back(current);
    return arguments;
}

void expand(const std::vector<std::string>& arguments, int depth, std::vector<std::string>& out, std::string* error) {
    for (const std::string& argument : arguments) {
        if (!error->empty()) return;
        if (argument.size() < 2 || argument[0] != '@') {
            out.push_back(argument);
            continue;
        }
        if (depth >= kMaxDepth) {
            *error = "response files nest deeper than " + std::to_string(kMaxDepth) + " at " + argument;
            return;
        }
        std::optional<std::string> text = support::readFile(argument.substr(1));
        if (!text) {
            *error = "cannot read the response file " + argument.substr(1);
            return;
        }
        expand(splitArguments(*text), depth + 1, out, error);
    }
}

} // namespace

std::vector<std::string> expandResponseFiles(const std::vector<std::string>& arguments, std::string* error) {
    std::vector<std::string> out;
    error->clear();
    expand(arguments, 0, out, error);
    return out;
}

} // namespace metalcpu::tools
