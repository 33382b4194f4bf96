#include "compiler/passes/division.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteDivisions(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        const Token& t = tokens[i];
        // Attribute arguments are constants the attributes pass reads or erases.
        if (std::size_t end = attributeEnd(tokens, partner, i); end != kNoToken) {
            i = end;
            continue;
        }
        const bool binary = t.isPunct("/") || t.isPunct("%");
        const bool compound = t.isPunct("/=") || t.isPunct("%=");
        if (!(binary || compound) || (i > 0 && tokens[i - 1].isIdentifier("operator"))) continue;
        // An operator an earlier pass rewrote went with what that pass erased (a collapsed
        // overload): it no longer divides anything.
        if (c.edits.isRewritten(i)) continue;
        // In the token's text, not inserted after it: a token a later pass takes over (a
        // threadgroup declaration rebuilt from outputText()) must not print it twice.
        c.edits.replace(i, t.spelling + (binary ? "__mc_div->*" : "__mc_div="));
    }
}

} // namespace metalcpu::msl
