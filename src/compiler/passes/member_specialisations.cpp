#include "compiler/passes/member_specialisations.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteMemberSpecialisations(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (f.classBody == kNoToken || f.headerBegin >= f.declarationBegin) continue;
        const std::size_t t = f.headerBegin;
        // Only `template <>` directly before the declaration: a member template of its own
        // (`template <typename T>`) and a specialisation of a member of a specialised class
        // template at namespace scope (classBody is not set there) stay.
        if (!tokens[t].isIdentifier("template") || !tokens[t + 1].isPunct("<") || !tokens[t + 2].isPunct(">") ||
            t + 3 != f.declarationBegin)
            continue;
        // address-space-overloads erases the overloads it collapses whole: nothing of this
        // declaration prints any more.
        if (c.edits.isRewritten(t)) continue;
        c.edits.erase(TokenRange{t, t + 3});
        const std::size_t open = f.nameToken + 1;
        if (open < f.parametersOpen && tokens[open].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, open, f.parametersOpen);
            if (close != kNoToken) c.edits.erase(TokenRange{open, close + 1});
        }
    }
}

} // namespace metalcpu::msl
