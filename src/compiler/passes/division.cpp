#include "compiler/passes/division.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

void rewriteDivisions(TokenList& tokens, const std::vector<std::size_t>& partner) {
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        Token& t = tokens[i];
        // Attribute arguments are constants the attributes pass reads or erases.
        if (std::size_t end = attributeEnd(tokens, partner, i); end != kNoToken) {
            i = end;
            continue;
        }
        const bool binary = t.isPunct("/") || t.isPunct("%");
        const bool compound = t.isPunct("/=") || t.isPunct("%=");
        if (!(binary || compound) || (i > 0 && tokens[i - 1].isIdentifier("operator"))) continue;
        // In `text`, not a suffix: a token another pass erases (a threadgroup declaration it
        // rewrites from outputText()) must not print it.
        t.text = t.spelling + (binary ? "__mc_div->*" : "__mc_div=");
    }
}

} // namespace metalcpu::msl
