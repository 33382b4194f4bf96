#include "compiler/space_aliases.h"

#include "compiler/address_space.h"
#include "compiler/unit.h"

#include <set>

namespace metalcpu::msl {

namespace {

bool namesSpace(const Unit& unit, TokenRange type) {
    for (std::size_t k = type.begin; k < type.end; ++k)
        if (unit.isUnqualifiedName(k) && supportedAddressSpaceOf(unit[k])) return true;
    return false;
}

} // namespace

SpaceAliases findSpaceAliases(const Unit& unit) {
    const TokenList& tokens = unit.tokens();
    SpaceAliases aliases;
    std::set<std::string> ambiguous;
    const auto add = [&](const std::string& name, TokenRange type) {
        if (type.empty() || !namesSpace(unit, type)) return;
        auto [at, fresh] = aliases.emplace(name, type);
        if (fresh) return;
        const TokenRange other = at->second;
        bool same = other.size() == type.size();
        for (std::size_t k = 0; same && k < type.size(); ++k)
            same = tokens[other.begin + k].spelling == tokens[type.begin + k].spelling;
        if (!same) ambiguous.insert(name);
    };
    for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
        if (tokens[i].isIdentifier("typedef")) {
            // `typedef T name;`: the name is the last token before the `;` (no function types).
            std::size_t end = i + 1;
            while (end < tokens.size() && !tokens[end].isPunct(";") && !tokens[end].isPunct("(") &&
                   !tokens[end].isPunct("{") && !tokens[end].isPunct("["))
                ++end;
            if (end < tokens.size() && tokens[end].isPunct(";") && end > i + 2 && tokens[end - 1].isIdentifier())
                add(tokens[end - 1].spelling, TokenRange{i + 1, end - 1});
        } else if (tokens[i].isIdentifier("using") && tokens[i + 1].isIdentifier() && tokens[i + 2].isPunct("=")) {
            std::size_t end = i + 3;
            while (end < tokens.size() && !tokens[end].isPunct(";") && !tokens[end].isPunct("{")) ++end;
            if (end < tokens.size() && tokens[end].isPunct(";")) add(tokens[i + 1].spelling, TokenRange{i + 3, end});
        }
    }
    for (const std::string& name : ambiguous) aliases.erase(name);
    return aliases;
}

const TokenRange* spaceAliasAt(const Unit& unit, const SpaceAliases& aliases, std::size_t i) {
    if (aliases.empty() || !unit[i].isIdentifier() || !unit.isUnqualifiedName(i)) return nullptr;
    auto found = aliases.find(unit[i].spelling);
    return found == aliases.end() ? nullptr : &found->second;
}

} // namespace metalcpu::msl
