#include "jit/flavour_failure.h"

#include <string_view>
#include <vector>

namespace metalcpu::jit {

namespace {

/// One line of a compiler's output that starts with a place: `file:line:column: rest`.
struct Placed {
    std::string_view file, place, rest; ///< place: `file:line:column`
};

bool digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

/// `line` split at its place, or an empty file when it starts with none.
Placed placed(std::string_view line) {
    // The file may hold ':' only in odd names; the place is the last `:N:N: ` before the text.
    for (std::size_t colon = line.find(": "); colon != std::string_view::npos; colon = line.find(": ", colon + 1)) {
        const std::string_view head = line.substr(0, colon);
        const std::size_t c2 = head.rfind(':');
        if (c2 == std::string_view::npos || !digits(head.substr(c2 + 1))) continue;
        const std::size_t c1 = head.rfind(':', c2 - 1);
        if (c1 == std::string_view::npos || c1 == 0 || !digits(head.substr(c1 + 1, c2 - c1 - 1))) continue;
        return {head.substr(0, c1), head, line.substr(colon + 2)};
    }
    return {};
}

/// Whether `file` is the user's: not metalcpu's standard library or translated glue (the
/// instrumented text's own lines, `validation0.cpp`), nor the host's headers.
bool usersFile(std::string_view file) {
    if (file.empty() || file.starts_with("/usr/") || file.find("/metalcpu/") != std::string_view::npos ||
        file.find("stdlib-") != std::string_view::npos || file.find("<metalcpu") != std::string_view::npos)
        return false;
    const std::size_t slash = file.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
    return !(base.starts_with("validation") && base.ends_with(".cpp") && base.size() > 14 &&
             digits(base.substr(10, base.size() - 14)));
}

bool isError(std::string_view rest) { return rest.starts_with("error: ") || rest.starts_with("fatal error: "); }

} // namespace

std::string firstInstrumentationError(const std::string& diagnostics) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < diagnostics.size();) {
        std::size_t end = diagnostics.find('\n', at);
        if (end == std::string::npos) end = diagnostics.size();
        lines.push_back(std::string_view(diagnostics).substr(at, end - at));
        at = end + 1;
    }
    for (std::size_t e = 0; e < lines.size(); ++e) {
        const Placed error = placed(lines[e]);
        if (error.file.empty() || !isError(error.rest)) continue;
        if (usersFile(error.file)) return std::string(lines[e]);
        // Where the user's code instantiated what failed: the last such place before it.
        for (std::size_t b = e; b-- > 0;) {
            const Placed here = placed(lines[b]);
            if (!here.file.empty() && isError(here.rest)) break; // the previous error's
            if (!here.file.empty() && usersFile(here.file))
                return std::string(here.place) + ": " + std::string(error.rest);
        }
        return std::string(lines[e]);
    }
    return {};
}

std::string flavourCompileFailure(const std::string& kernel, const std::string& path, const std::string& diagnostics) {
    const std::string first = firstInstrumentationError(diagnostics);
    return "shader validation cannot instrument kernel '" + kernel + "'" +
           (first.empty() ? std::string() : ": its code at " + first) +
           " (metalcpu's instrumented rewrite of that construct does not compile; docs/validation.md, \"Known "
           "limits\"). Without validation the kernel runs as written. The host compiler's output for the "
           "instrumented flavour of " + path + ":\n" + diagnostics;
}

} // namespace metalcpu::jit
