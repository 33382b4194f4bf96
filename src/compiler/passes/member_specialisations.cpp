#include "compiler/passes/member_specialisations.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

void rewriteMemberSpecialisations(TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module) {
    for (const FunctionDecl& f : module.functions) {
        if (f.classBody == kNoToken || f.headerBegin >= f.declarationBegin) continue;
        const std::size_t t = f.headerBegin;
        // Only `template <>` directly before the declaration: a member template of its own
        // (`template <typename T>`) and a specialisation of a member of a specialised class
        // template at namespace scope (classBody is not set there) stay.
        if (!tokens[t].isIdentifier("template") || !tokens[t + 1].isPunct("<") || !tokens[t + 2].isPunct(">") ||
            t + 3 != f.declarationBegin)
            continue;
        for (std::size_t k = t; k < t + 3; ++k) tokens[k].erased = true;
        const std::size_t open = f.nameToken + 1;
        if (open < f.parametersOpen && tokens[open].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, open, f.parametersOpen);
            if (close != kNoToken)
                for (std::size_t k = open; k <= close; ++k) tokens[k].erased = true;
        }
    }
}

} // namespace metalcpu::msl
