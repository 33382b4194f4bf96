#include "jit/compiler_messages.h"

#include "compiler/emitter/code_writer.h"
#include "compiler/emitter/entry_points.h"

#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <sstream>

namespace metalcpu::jit {

namespace {

constexpr const char* kSeverities[] = {"fatal error", "error", "warning", "note"};

/// A message's first line taken apart: `where` is "file:line:col", "file:line" or a program
/// name ("cc1plus").
struct Head {
    std::string severity;
    std::string where;
    std::size_t messageStart = 0;
};

bool parseHead(const std::string& line, Head* head) {
    if (line.empty() || line[0] == ' ' || line[0] == '\t') return false;
    std::size_t best = std::string::npos;
    for (const char* severity : kSeverities) {
        const std::string marker = std::string(": ") + severity + ": ";
        const std::size_t at = line.find(marker);
        if (at != std::string::npos && at < best) {
            best = at;
            head->severity = severity;
            head->messageStart = at + marker.size();
        }
    }
    if (best == std::string::npos || best == 0) return false;
    head->where = line.substr(0, best);
    return true;
}

/// The file of a location "file:line:col" or "file:line"; empty for a program name.
std::string fileOf(const std::string& where) {
    std::string file = where;
    int numbers = 0;
    for (; numbers < 2; ++numbers) {
        const std::size_t colon = file.rfind(':');
        if (colon == std::string::npos || colon + 1 == file.size()) break;
        bool digits = true;
        for (std::size_t i = colon + 1; i < file.size(); ++i)
            digits = digits && std::isdigit(static_cast<unsigned char>(file[i]));
        if (!digits) break;
        file.resize(colon);
    }
    return numbers ? file : std::string();
}

/// "In file included from ...", "f.metal: In function 'k':", "f.metal:3:5:   required from here".
bool isContext(const std::string& line) {
    if (line.rfind("In file included from", 0) == 0) return true;
    if (line.empty() || line[0] == ' ') return false;
    return line.back() == ':' || line.find(":   ") != std::string::npos;
}

/// The function a signature GCC quotes names, with its template arguments
/// ("void k(float*, const mc_group*)" is "k"; "T ns::f(T) [with T = float]" is
/// "ns::f [with T = float]"): the parameters are the generated code's, not the user's
/// (address spaces gone, metalcpu's own added), so they are left out.
std::string functionName(const std::string& signature) {
    int depth = 0;
    std::size_t nameStart = 0, open = std::string::npos;
    for (std::size_t i = 0; i < signature.size() && open == std::string::npos; ++i) {
        const char c = signature[i];
        if (c == '<' || c == '[') ++depth;
        else if ((c == '>' || c == ']') && depth > 0) --depth;
        else if (c == ' ' && depth == 0) nameStart = i + 1;
        else if (c == '(' && depth == 0 && i > nameStart) open = i;
    }
    if (open == std::string::npos) return signature;
    std::string name = signature.substr(nameStart, open - nameStart);
    if (const std::size_t with = signature.find(" [with ", open); with != std::string::npos)
        name += signature.substr(with);
    return name;
}

/// A context line that quotes a function's signature ("k.metal: In function 'void k(float*,
/// const mc_group*)':") with only the function's name quoted.
std::string userContext(const std::string& line) {
    static constexpr const char* kQuoting[] = {": In function '", ": In member function '",
                                               ": In static member function '", ": In instantiation of '"};
    for (const char* quoting : kQuoting) {
        const std::size_t at = line.find(quoting);
        if (at == std::string::npos) continue;
        const std::size_t begin = at + std::char_traits<char>::length(quoting);
        const std::size_t end = line.rfind("':");
        if (end == std::string::npos || end < begin) return line;
        return line.substr(0, begin) + functionName(line.substr(begin, end - begin)) + line.substr(end);
    }
    return line;
}

struct Group {
    std::size_t context = 0; ///< its context block (1-based; 0: none)
    Head head;
    bool hasHead = false;
    std::string lines;
};

bool aboutUserCode(const Group& group, const std::vector<std::string>& hiddenPaths) {
    const std::string file = fileOf(group.head.where);
    if (file.empty() || file == msl::kGeneratedFileName) return false;
    for (const std::string& hidden : hiddenPaths)
        if (!hidden.empty() && file.rfind(hidden, 0) == 0) return false;
    const std::string message = group.lines.substr(0, group.lines.find('\n'));
    return message.find("__mc_") == std::string::npos && message.find("metalcpu_kernel::") == std::string::npos;
}

/// GCC quotes its own lowering of the expression a const object is written through
/// ("assignment of read-only location '*(in + ((sizetype)(((long unsigned int)i) * 4)))'");
/// the quoted source line after it shows the expression as written, so say what it means.
std::string readableMessage(const std::string& line, const Head& head) {
    if (head.severity != "error") return line;
    const std::string text = line.substr(head.messageStart);
    for (const char* action : {"assignment", "increment", "decrement"}) {
        const std::string quoted = std::string(action) + " of read-only location '";
        if (text.rfind(quoted, 0) == 0)
            return line.substr(0, head.messageStart) + action +
                   " of read-only location: what it writes is const (through a `device const` or `constant` "
                   "pointer or reference, or a const variable)";
    }
    return line;
}

} // namespace

namespace {

struct ColumnSpan {
    unsigned long from, to, column;
};

/// The column map at the end of a translated file, by "file:line": only its last lines, since
/// the texts embedded earlier in the file (the shader-validation flavour, the source to
/// specialise) carry maps of their own, for other columns.
std::map<std::string, std::vector<ColumnSpan>> columnMapOf(const std::string& translated) {
    std::map<std::string, std::vector<ColumnSpan>> spans;
    const std::string prefix = "\n" + std::string(msl::kColumnMapPrefix);
    // `first`: where the trailing run of map lines starts.
    std::size_t first = translated.size();
    while (first >= 2 && translated[first - 1] == '\n') {
        const std::size_t before = translated.rfind('\n', first - 2);
        if (before == std::string::npos || translated.compare(before, prefix.size(), prefix) != 0) break;
        first = before + 1;
    }
    if (first == translated.size()) return spans;
    for (std::size_t at = first - 1; at != std::string::npos; at = translated.find(prefix, at + 1)) {
        std::size_t i = at + prefix.size();
        if (i >= translated.size() || translated[i] != '"') continue;
        std::string file;
        for (++i; i < translated.size() && translated[i] != '"' && translated[i] != '\n'; ++i) {
            if (translated[i] == '\\' && i + 1 < translated.size()) ++i;
            file += translated[i];
        }
        const std::size_t end = translated.find('\n', i);
        std::istringstream fields(translated.substr(i + 1, end == std::string::npos ? end : end - i - 1));
        unsigned long line = 0;
        if (!(fields >> line)) continue;
        std::vector<ColumnSpan>& list = spans[file + ":" + std::to_string(line)];
        ColumnSpan span{};
        char dash = 0, equals = 0;
        while (fields >> span.from >> dash >> span.to >> equals >> span.column)
            if (dash == '-' && equals == '=') list.push_back(span);
    }
    return spans;
}

} // namespace

std::string sourceColumns(const std::string& output, const std::string& translated) {
    const std::map<std::string, std::vector<ColumnSpan>> spans = columnMapOf(translated);
    if (spans.empty()) return output;
    std::string out;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        // "file:line:column:" at the start of the line.
        const std::size_t third = line.find(": ");
        const std::size_t columnColon = third == std::string::npos ? std::string::npos : third;
        const std::size_t lineColon = columnColon == std::string::npos ? columnColon : line.rfind(':', columnColon - 1);
        bool moved = false;
        if (lineColon != std::string::npos && lineColon > 0 && lineColon + 1 < columnColon) {
            const std::string where = line.substr(0, lineColon);
            const std::string columnText = line.substr(lineColon + 1, columnColon - lineColon - 1);
            const bool digits = columnText.find_first_not_of("0123456789") == std::string::npos;
            const auto found = digits ? spans.find(where) : spans.end();
            if (found != spans.end()) {
                const unsigned long column = std::stoul(columnText);
                for (const ColumnSpan& span : found->second)
                    if (column >= span.from && column < span.to) {
                        out += where + ":" + std::to_string(span.column) + line.substr(columnColon) + "\n";
                        moved = true;
                        break;
                    }
            }
        }
        if (!moved) out += line + "\n";
    }
    if (!output.empty() && output.back() != '\n' && !out.empty()) out.pop_back();
    return out;
}

bool isMessageLine(const std::string& line, const std::string& severity, std::size_t* messageStart) {
    Head head;
    if (!parseHead(line, &head) || head.severity != severity) return false;
    if (messageStart) *messageStart = head.messageStart;
    return true;
}

namespace {

/// A message's text with the names the front end gives what it copies spelled as the user
/// wrote them, for comparing two messages, never for showing one: a helper's locals copied into
/// the kernel it is inlined into ("x_i1", "f_result_i3": passes/inlining_block.cpp,
/// passes/collective_hoisting.cpp) lose their "_iN", and a work-item loop's slot type
/// ("'__mc_t1' {aka 'float'}": passes/work_item_rewrite.cpp) becomes the type it stands for.
/// Showing it so could rename a user's own `x_i1`; comparing it so costs nothing.
std::string asWritten(const std::string& text) {
    std::string out;
    auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t i = 0; i < text.size();) {
        // '__mc_tN' {aka 'T'}  ->  'T'
        if (text.compare(i, 7, "'__mc_t") == 0) {
            std::size_t j = i + 7;
            while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
            static constexpr std::string_view kAka = "' {aka '";
            if (j > i + 7 && text.compare(j, kAka.size(), kAka) == 0) {
                const std::size_t typeStart = j + kAka.size();
                const std::size_t typeEnd = text.find("'}", typeStart);
                if (typeEnd != std::string::npos) {
                    out += "'" + text.substr(typeStart, typeEnd - typeStart) + "'";
                    i = typeEnd + 2;
                    continue;
                }
            }
        }
        if (!isWordChar(text[i]) || (i > 0 && isWordChar(text[i - 1]))) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isWordChar(text[end])) ++end;
        std::string word = text.substr(i, end - i);
        // name_iN  ->  name
        const std::size_t suffix = word.rfind("_i");
        if (suffix != std::string::npos && suffix > 0 && suffix + 2 < word.size() &&
            word.find_first_not_of("0123456789", suffix + 2) == std::string::npos)
            word.resize(suffix);
        out += word;
        i = end;
    }
    return out;
}

} // namespace

std::string userMessages(const std::string& output, const std::vector<std::string>& hiddenPaths) {
    std::vector<std::string> contexts; // each block of context lines, in order
    std::vector<Group> groups;
    bool inContext = false;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        Head head;
        const bool isHead = parseHead(line, &head);
        if (isHead && head.severity == "note" && !groups.empty() && !inContext && !fileOf(head.where).empty()) {
            groups.back().lines += line + "\n"; // a note belongs to the message before it
        } else if (isHead) {
            Group group;
            group.context = contexts.size();
            group.head = head;
            group.hasHead = true;
            group.lines = readableMessage(line, head) + "\n";
            groups.push_back(std::move(group));
            inContext = false;
        } else if (isContext(line)) {
            if (!inContext) contexts.emplace_back();
            contexts.back() += userContext(line) + "\n";
            inContext = true;
        } else if (inContext) {
            contexts.back() += line + "\n"; // "                 from h.h:2,"
        } else if (!groups.empty()) {
            groups.back().lines += line + "\n"; // quoted source, "compilation terminated."
        } else {
            Group group;
            group.lines = line + "\n";
            groups.push_back(std::move(group));
        }
    }
    // A mistake in a helper that the front end inlines into a kernel is compiled twice: in the
    // helper as written and in its copy in the kernel's work-item loops, at the same place with
    // the same message but for the copy's names. The copy's is left out when the helper's says
    // the same. (The same message in two instantiations of a template is two mistakes, each
    // with its own "required from": both stay.)
    struct Reading {
        std::string key; ///< place and message as written; empty for a message without a place
        bool copy = false;
    };
    std::vector<Reading> readings(groups.size());
    std::set<std::string> saidAsWritten;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group& group = groups[g];
        if (!group.hasHead || fileOf(group.head.where).empty()) continue;
        const std::size_t end = group.lines.find('\n');
        const std::string text = group.lines.substr(group.head.messageStart, end - group.head.messageStart);
        const std::string written = asWritten(text);
        const bool inLambda = group.context > 0 &&
                              contexts[group.context - 1].find(": In lambda function:") != std::string::npos;
        readings[g] = {group.head.where + "\n" + written, written != text || inLambda};
        if (!readings[g].copy) saidAsWritten.insert(readings[g].key);
    }
    std::string kept;
    std::size_t contextShown = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group& group = groups[g];
        bool keep = true;
        if (group.hasHead && group.head.severity == "warning") keep = aboutUserCode(group, hiddenPaths);
        else if (group.hasHead && group.head.severity == "note") keep = false; // about the command line
        if (readings[g].copy && saidAsWritten.count(readings[g].key)) keep = false;
        if (!keep) continue;
        if (group.context > contextShown) {
            kept += contexts[group.context - 1];
            contextShown = group.context;
        }
        kept += group.lines;
    }
    return kept;
}

} // namespace metalcpu::jit
