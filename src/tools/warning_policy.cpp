#include "tools/warning_policy.h"

#include "jit/compiler_messages.h"
#include "jit/kernel_compiler.h"

#include <algorithm>
#include <sstream>

namespace metalcpu::tools {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

PolicyResult applyWarningPolicy(const std::string& messages, const WarningOptions& options) {
    PolicyResult result;
    std::istringstream in(messages);
    bool dropping = false; // in a warning left out by -w: its quoted lines and notes go too
    for (std::string line; std::getline(in, line);) {
        std::size_t messageStart = 0;
        const bool isWarning = jit::isMessageLine(line, "warning", &messageStart);
        if (isWarning) dropping = options.suppressed;
        else if (!line.empty() && line[0] != ' ' && !jit::isMessageLine(line, "note")) dropping = false;
        if (dropping) continue;
        if (isWarning && line.compare(messageStart, jit::kValidationUnavailable.size(), jit::kValidationUnavailable) != 0) {
            // "... [-Wunused-variable]" names the warning.
            std::string name;
            const std::size_t tag = line.rfind(" [-W");
            if (tag != std::string::npos && line.back() == ']') name = line.substr(tag + 4, line.size() - tag - 5);
            // GCC names warnings that take a level with their `=` ("[-Wimplicit-fallthrough=]");
            // -Werror=implicit-fallthrough names them without.
            if (!name.empty() && name.back() == '=') name.pop_back();
            const bool error = (options.allAreErrors || (!name.empty() && contains(options.errors, name))) &&
                               !(!name.empty() && contains(options.notErrors, name));
            if (error) {
                const std::size_t severity = messageStart - std::string("warning: ").size();
                line.replace(severity, std::string("warning").size(), "error");
                if (name.empty()) line += " [-Werror]";
                else line.insert(line.rfind(" [-W") + 3, "Werror,-");
                ++result.errors;
            }
        }
        result.text += line + "\n";
    }
    return result;
}

} // namespace metalcpu::tools
