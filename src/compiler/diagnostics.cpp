#include "compiler/diagnostics.h"

namespace metalcpu::msl {

std::string Diagnostic::format() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0) out += ':' + std::to_string(column);
        }
        out += ": ";
    }
    switch (severity) {
    case Severity::Error: out += "error: "; break;
    case Severity::Warning: out += "warning: "; break;
    case Severity::Note: out += "note: "; break;
    }
    out += message;
    return out;
}

std::string formatDiagnostics(const std::vector<Diagnostic>& diagnostics, std::size_t limit) {
    std::string out;
    std::size_t shown = 0;
    for (; shown < diagnostics.size() && out.size() < limit; ++shown) out += diagnostics[shown].format() + "\n";
    if (shown < diagnostics.size()) out += "[" + std::to_string(diagnostics.size() - shown) + " more messages cut]\n";
    return out;
}

void Diagnostics::add(Diagnostic::Severity severity, Location where, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.file = files_.reportedName(where.file);
    d.line = static_cast<int>(where.line);
    d.column = static_cast<int>(where.column);
    d.message = std::move(message);
    list_.push_back(std::move(d));
}

void Diagnostics::error(Location where, std::string message) {
    ++errors_;
    add(Diagnostic::Severity::Error, where, std::move(message));
}

void Diagnostics::warning(Location where, std::string message) {
    add(Diagnostic::Severity::Warning, where, std::move(message));
}

void Diagnostics::note(Location where, std::string message) {
    add(Diagnostic::Severity::Note, where, std::move(message));
}

} // namespace metalcpu::msl
