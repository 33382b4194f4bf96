#include "compiler/passes/aggregate_constructors.h"

#include "compiler/edits.h"
#include "compiler/unit.h"

#include <map>
#include <set>

namespace metalcpu::msl {
namespace {

/// The class's own name: the last component of "Outer::Inner", without template arguments.
std::string_view className(std::string_view enclosing) {
    if (const std::size_t colons = enclosing.rfind("::"); colons != std::string_view::npos)
        enclosing.remove_prefix(colons + 2);
    return enclosing.substr(0, enclosing.find('<'));
}

/// `X() [qualifiers] = default;`, not explicit, not a template, with no parameters.
bool isDefaultedDefaultConstructor(const TokenList& tokens, const FunctionDecl& f) {
    if (f.isTemplate || !f.isDefaulted || f.parametersOpen == kNoToken) return false;
    const bool noParameters = f.parametersOpen + 1 == f.parametersClose ||
                              (f.parametersOpen + 2 == f.parametersClose && tokens[f.parametersOpen + 1].isIdentifier("void"));
    if (!noParameters || f.declarationEnd < 2 || !tokens[f.declarationEnd - 2].isIdentifier("default")) return false;
    for (std::size_t k = f.declarationBegin; k < f.nameToken; ++k)
        if (tokens[k].isIdentifier("explicit")) return false;
    return true;
}

bool accessSpecifiedBefore(const TokenList& tokens, std::size_t classBody, std::size_t at) {
    for (std::size_t k = classBody + 1; k < at; ++k)
        if ((tokens[k].isIdentifier("private") || tokens[k].isIdentifier("protected")) && tokens[k + 1].isPunct(":"))
            return true;
    return false;
}

} // namespace

void eraseAggregateConstructors(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<FunctionDecl>& functions = c.unit.module().functions;
    std::map<std::size_t, std::vector<std::size_t>> constructors; // by class body
    std::set<std::size_t> keep;                                    // classes with another constructor
    for (std::size_t i = 0; i < functions.size(); ++i) {
        const FunctionDecl& f = functions[i];
        if (f.classBody == kNoToken || f.enclosingClass.empty() || f.name != className(f.enclosingClass)) continue;
        if (isDefaultedDefaultConstructor(tokens, f) && !accessSpecifiedBefore(tokens, f.classBody, f.headerBegin))
            constructors[f.classBody].push_back(i);
        else
            keep.insert(f.classBody);
    }
    for (const auto& [body, list] : constructors) {
        if (keep.count(body)) continue;
        for (std::size_t i : list) {
            const FunctionDecl& f = functions[i];
            bool erased = false; // by address-space-overloads, as a copy for another space
            for (std::size_t k = f.headerBegin; k < f.declarationEnd; ++k) erased = erased || c.edits.isRewritten(k);
            if (!erased) c.edits.erase(TokenRange{f.headerBegin, f.declarationEnd});
        }
    }
}

} // namespace metalcpu::msl
