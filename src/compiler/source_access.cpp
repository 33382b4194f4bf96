#include "compiler/source_access.h"

#include "compiler/directives.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace metalcpu::msl {

namespace {

// GCC's own limit on nested includes.
constexpr int kMaxIncludeDepth = 200;

const char kUnconfined[] = "the compilers cannot be confined to those directories here (docs/architecture.md, "
                           "\"Confined compilers\")";

const char kOutsideRoots[] = "it is outside the source's directory, the include directories and the standard library";

// The directory part of a file name as the preprocessor uses it for "quoted" includes: up to
// and including the last '/', empty for a name without one (the working directory).
std::string directoryOf(const std::string& file) {
    std::size_t slash = file.rfind('/');
    return slash == std::string::npos ? std::string() : file.substr(0, slash + 1);
}

// Where the preprocessor looks for `r`, in its order: the includer's directory for a "quoted"
// name, then the -I directories; an absolute name only where it says.
std::vector<std::string> candidates(const FileReference& r, const std::string& includer,
                                    const std::vector<std::string>& searchPath) {
    if (!r.name.empty() && r.name[0] == '/') return {r.name};
    std::vector<std::string> out;
    if (!r.angled) out.push_back(directoryOf(includer) + r.name);
    for (std::string dir : searchPath) {
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        out.push_back(dir + "/" + r.name);
    }
    return out;
}

std::string refusal(const FileReference& r) {
    switch (r.kind) {
    case FileReference::Kind::Include:
    case FileReference::Kind::IncludeNext:
        return "kernel code cannot include '" + r.name + "': " + kOutsideRoots;
    case FileReference::Kind::Embed:
        return "kernel code cannot embed '" + r.name + "': " + kOutsideRoots;
    case FileReference::Kind::Probe:
        return "kernel code cannot probe for '" + r.name + "' with '" + r.directive + "': " + kOutsideRoots;
    case FileReference::Kind::LineFile: // refused in visit()
    case FileReference::Kind::Dependency:
        break;
    }
    return "'#pragma GCC dependency' is not allowed in kernel code";
}

bool isUnder(const fs::path& path, const fs::path& root) {
    auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    return r == root.end();
}

} // namespace

struct SourceAccess::Visit {
    std::set<std::pair<fs::path, fs::path>> seen; ///< canonical file and the directory it was found in
    std::vector<Diagnostic> diagnostics;
};

SourceAccess::SourceAccess(std::string mainFile, const std::string& workingDirectory,
                           std::vector<std::string> searchPath, const std::vector<std::string>& forcedIncludes)
    : mainFile_(std::move(mainFile)), searchPath_(std::move(searchPath)) {
    std::error_code error;
    base_ = workingDirectory.empty() ? fs::current_path(error) : fs::absolute(workingDirectory, error);
    std::vector<std::string> rootNames = {directoryOf(mainFile_).empty() ? "." : directoryOf(mainFile_)};
    for (const std::string& name : forcedIncludes) {
        // `-include f` is `#include "f"` whose first place is the working directory.
        FileReference reference;
        reference.name = name;
        for (const std::string& candidate : candidates(reference, "", searchPath_)) {
            if (!fs::is_regular_file(resolve(candidate), error)) continue;
            forcedIncludes_.push_back(candidate);
            rootNames.push_back(directoryOf(candidate).empty() ? "." : directoryOf(candidate));
            break;
        }
    }
    rootNames.insert(rootNames.end(), searchPath_.begin(), searchPath_.end());
    for (const std::string& name : rootNames) {
        fs::path root = resolve(name);
        if (!root.empty() && fs::is_directory(root, error)) roots_.push_back(root);
    }
}

fs::path SourceAccess::resolve(const std::string& file) const {
    fs::path path(file);
    if (path.is_relative()) path = base_ / path;
    std::error_code error;
    fs::path resolved = fs::weakly_canonical(path, error);
    return error ? fs::path() : resolved;
}

bool SourceAccess::allows(const std::string& file) const {
    fs::path resolved = resolve(file);
    if (resolved.empty()) return false;
    if (resolved == resolve(mainFile_)) return true; // the file the program asked to compile
    return std::any_of(roots_.begin(), roots_.end(), [&](const fs::path& root) { return isUnder(resolved, root); });
}

bool SourceAccess::allowsLineName(const std::string& file) const {
    std::error_code error;
    return compilersConfined_ || allows(file) || !fs::exists(resolve(file), error);
}

std::optional<std::string> SourceAccess::read(const std::string& file) const {
    std::error_code error;
    if (!allows(file) || !fs::is_regular_file(resolve(file), error)) return std::nullopt;
    std::ifstream in(resolve(file), std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

std::vector<Diagnostic> SourceAccess::check() const {
    Visit state;
    for (const std::string& file : forcedIncludes_) visit(file, 0, state);
    visit(mainFile_, 0, state);
    return std::move(state.diagnostics);
}

void SourceAccess::visit(const std::string& file, int depth, Visit& state) const {
    if (depth > kMaxIncludeDepth) return; // the preprocessor stops here too
    fs::path directory = resolve(directoryOf(file).empty() ? "." : directoryOf(file));
    if (!state.seen.insert({resolve(file), directory}).second) return;
    std::optional<std::string> text = read(file);
    if (!text) return; // the preprocessor will say it cannot read it
    for (const FileReference& r : findFileReferences(*text)) {
        auto refuse = [&](std::string message) {
            Diagnostic d;
            d.file = file;
            d.line = static_cast<int>(r.line);
            d.column = static_cast<int>(r.column);
            d.message = std::move(message);
            state.diagnostics.push_back(std::move(d));
        };
        if (r.kind == FileReference::Kind::Dependency) {
            refuse(refusal(r));
        } else if (r.kind == FileReference::Kind::LineFile) {
            // A display name, which the preprocessor never opens; only a compiler's message
            // could, to quote a line of it, and a confined compiler cannot (setCompilersConfined()).
            if (compilersConfined_) continue;
            if (r.computed)
                refuse("the file name of '#line' must be written out as a string literal on this machine: a name "
                       "made by macros cannot be checked before preprocessing, and " + std::string(kUnconfined));
            else if (!allowsLineName(r.name))
                refuse("'#line' cannot name '" + r.name + "' on this machine: it is a file outside the source's "
                       "directory, the include directories and the standard library, whose lines the compiler's "
                       "messages would quote, and " + std::string(kUnconfined));
        } else if (r.computed) {
            refuse("the file name of '" + r.directive +
                   "' must be written out (\"file\" or <file>): a name made by macros cannot be checked "
                   "before preprocessing");
        } else {
            // The preprocessor tries each place in turn and reads the first file that exists;
            // #include_next goes on to later ones, so all of them must be allowed.
            for (const std::string& candidate : candidates(r, file, searchPath_)) {
                if (!allows(candidate)) {
                    refuse(refusal(r));
                    break;
                }
                std::error_code error;
                fs::path resolved = resolve(candidate);
                if (!fs::exists(resolved, error)) continue;
                bool reads = r.kind == FileReference::Kind::Include || r.kind == FileReference::Kind::IncludeNext;
                if (reads && !fs::is_regular_file(resolved, error)) {
                    refuse("kernel code cannot include '" + r.name + "': it is not a regular file");
                    break;
                }
                if (reads) visit(candidate, depth + 1, state);
                if (r.kind != FileReference::Kind::IncludeNext) break;
            }
        }
    }
}

} // namespace metalcpu::msl
