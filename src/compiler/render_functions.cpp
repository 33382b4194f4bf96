#include "compiler/render_functions.h"

#include "compiler/diagnostics.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"

#include <algorithm>

namespace metalcpu::msl {

std::vector<std::string> removeRenderFunctions(TokenList& tokens, std::vector<std::size_t>& partner, Module& module,
                                               const FileTable& files) {
    std::vector<std::string> names;
    std::vector<TokenRange> removed;
    for (const FunctionDecl& f : module.functions) {
        if (f.renderKeyword == kNoToken) continue;
        if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
        removed.push_back({f.headerBegin, f.declarationEnd});
    }
    if (removed.empty()) return names;
    std::sort(removed.begin(), removed.end(), [](TokenRange a, TokenRange b) { return a.begin < b.begin; });
    TokenList kept;
    kept.reserve(tokens.size());
    std::size_t next = 0;
    for (const TokenRange& r : removed) {
        for (; next < r.begin; ++next) kept.push_back(tokens[next]);
        next = std::max(next, r.end);
    }
    for (; next < tokens.size(); ++next) kept.push_back(tokens[next]);
    // Whole declarations go, brackets and all: what is left matches and scans as before.
    Diagnostics scratch(files);
    auto matched = matchBrackets(kept, scratch);
    if (!matched) return names; // cannot be: reported by the scan of the unit as written
    markNonTemplateNames(kept, *matched);
    Module scanned = scanModule(kept, *matched, scratch);
    tokens = std::move(kept);
    partner = std::move(*matched);
    module = std::move(scanned);
    return names;
}

} // namespace metalcpu::msl
