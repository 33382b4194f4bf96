#include "compiler/passes/member_overloads.h"

#include "compiler/syntax.h"

#include <map>
#include <tuple>

namespace metalcpu::msl {

namespace {

enum class Space { None, Thread, Other };

Space addressSpaceOf(const TokenList& tokens, const FunctionDecl& f) {
    for (std::size_t q : f.trailingQualifiers) {
        if (tokens[q].isIdentifier("thread")) return Space::Thread;
        if (!tokens[q].isIdentifier("const") && !tokens[q].isIdentifier("volatile")) return Space::Other;
    }
    return Space::None;
}

bool isConst(const TokenList& tokens, const FunctionDecl& f) {
    for (std::size_t q : f.trailingQualifiers)
        if (tokens[q].isIdentifier("const")) return true;
    return false;
}

} // namespace

void collapseAddressSpaceOverloads(TokenList& tokens, const Module& module) {
    // (class body, template header, name, parameters, const) -> members
    using Key = std::tuple<std::size_t, std::string, std::string, std::string, bool>;
    std::map<Key, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (f.classBody == kNoToken) continue;
        std::string header = f.headerBegin < f.declarationBegin
                                 ? sourceText(tokens, f.headerBegin, f.declarationBegin)
                                 : std::string();
        std::string parameters = sourceText(tokens, f.parametersOpen, f.parametersClose + 1);
        groups[{f.classBody, header, f.name, parameters, isConst(tokens, f)}].push_back(i);
    }
    for (auto& [key, members] : groups) {
        bool qualified = false;
        for (std::size_t m : members)
            if (addressSpaceOf(tokens, module.functions[m]) != Space::None) qualified = true;
        if (members.size() < 2 || !qualified) continue;
        std::size_t keep = members.front();
        for (std::size_t m : members) {
            Space s = addressSpaceOf(tokens, module.functions[m]);
            Space best = addressSpaceOf(tokens, module.functions[keep]);
            if (s == Space::Thread && best != Space::Thread)
                keep = m;
            else if (s == Space::None && best == Space::Other)
                keep = m;
        }
        for (std::size_t m : members) {
            if (m == keep) continue;
            const FunctionDecl& f = module.functions[m];
            for (std::size_t k = f.headerBegin; k < f.declarationEnd; ++k) tokens[k].erased = true;
        }
    }
}

} // namespace metalcpu::msl
