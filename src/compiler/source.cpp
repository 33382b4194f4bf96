#include "compiler/source.h"

#include <cctype>
#include <cstdio>

namespace metalcpu::msl {

FileTable::FileTable(std::string mainFileName) {
    files_.push_back({std::string(), std::move(mainFileName)});
}

std::uint32_t FileTable::intern(const std::string& spelling) {
    if (!mainNamed_) {
        mainNamed_ = true;
        files_[0].spelling = spelling;
        if (files_[0].reported.empty()) files_[0].reported = spelling;
        return 0;
    }
    for (std::size_t i = 0; i < files_.size(); ++i) {
        if (files_[i].spelling == spelling) return static_cast<std::uint32_t>(i);
    }
    files_.push_back({spelling, spelling});
    return static_cast<std::uint32_t>(files_.size() - 1);
}

const std::string& FileTable::reportedName(std::uint32_t file) const {
    return files_[file < files_.size() ? file : 0].reported;
}

const std::string& FileTable::spelling(std::uint32_t file) const {
    return files_[file < files_.size() ? file : 0].spelling;
}

bool FileTable::isPseudoFile(std::string_view spelling) {
    return spelling.size() >= 2 && spelling.front() == '<' && spelling.back() == '>';
}

namespace {

void skipBlanks(std::string_view text, std::size_t& i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
}

// Reads a C string literal starting at text[i] (which must be '"') and unescapes it.
std::optional<std::string> readStringLiteral(std::string_view text, std::size_t& i) {
    if (i >= text.size() || text[i] != '"') return std::nullopt;
    std::string value;
    for (++i; i < text.size(); ++i) {
        char c = text[i];
        if (c == '"') {
            ++i;
            return value;
        }
        if (c != '\\') {
            value += c;
            continue;
        }
        if (++i >= text.size()) return std::nullopt;
        char e = text[i];
        if (e >= '0' && e <= '7') { // GCC writes non-printable bytes as octal escapes
            int code = 0;
            for (int n = 0; n < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++n, ++i)
                code = code * 8 + (text[i] - '0');
            --i;
            value += static_cast<char>(code);
        } else if (e == 'n') {
            value += '\n';
        } else if (e == 't') {
            value += '\t';
        } else {
            value += e;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<LineMarker> parseLineMarker(std::string_view directive) {
    std::size_t i = 0;
    skipBlanks(directive, i);
    if (directive.substr(i, 4) == "line" &&
        (i + 4 == directive.size() || directive[i + 4] == ' ' || directive[i + 4] == '\t')) {
        i += 4;
        skipBlanks(directive, i);
    }
    if (i >= directive.size() || !std::isdigit(static_cast<unsigned char>(directive[i]))) return std::nullopt;
    LineMarker marker;
    std::uint64_t line = 0;
    while (i < directive.size() && std::isdigit(static_cast<unsigned char>(directive[i]))) {
        line = line * 10 + static_cast<std::uint64_t>(directive[i] - '0');
        if (line > 0xffffffffu) return std::nullopt;
        ++i;
    }
    marker.line = static_cast<std::uint32_t>(line);
    skipBlanks(directive, i);
    if (i == directive.size()) return marker;
    auto file = readStringLiteral(directive, i);
    if (!file) return std::nullopt;
    marker.file = std::move(*file);
    for (;;) {
        skipBlanks(directive, i);
        if (i >= directive.size()) break;
        if (!std::isdigit(static_cast<unsigned char>(directive[i]))) return std::nullopt;
        int flag = 0;
        while (i < directive.size() && std::isdigit(static_cast<unsigned char>(directive[i])))
            flag = flag * 10 + (directive[i++] - '0');
        if (flag == 1) marker.entersFile = true;
        if (flag == 2) marker.returnsToFile = true;
        if (flag == 3) marker.systemHeader = true;
    }
    return marker;
}

std::string quoteString(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (u < 0x20 || u == 0x7f) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\%03o", u);
            out += buffer;
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

} // namespace metalcpu::msl
