#include "compiler/passes/checked_value_casts.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteCheckedValueCasts(PassContext& context) {
    const TokenList& tokens = context.unit.tokens();
    const std::vector<std::size_t>& partner = context.unit.partner();
    EditList& edits = context.edits;
    for (std::size_t k = 0; k + 2 < tokens.size(); ++k) {
        if (!tokens[k].isIdentifier("reinterpret_cast") || tokens[k].erased || edits.isRewritten(k) ||
            !tokens[k + 1].isPunct("<"))
            continue;
        const std::size_t close = closingAngle(tokens, partner, k + 1, tokens.size());
        if (close == kNoToken || close + 1 >= tokens.size() || !tokens[close + 1].isPunct("(")) continue;
        // A pointer or reference target keeps its cast: a checked pointer's is pointer_cast
        // already, a thread pointer's or reference's operand is never a checked pointer.
        // Template arguments are skipped (`vec<T*, 2>` is no pointer); parentheses are entered
        // (`(&)[4]`, `(*)` declare the target itself).
        bool pointerOrReference = false;
        for (std::size_t t = k + 2; t < close && !pointerOrReference; ++t) {
            if (tokens[t].isPunct("<")) {
                const std::size_t end = closingAngle(tokens, partner, t, close);
                if (end != kNoToken) t = end;
                continue;
            }
            pointerOrReference = tokens[t].isPunct("*") || tokens[t].isPunct("&") || tokens[t].isPunct("&&");
        }
        if (pointerOrReference) continue;
        edits.replace(k, "::metalcpu_kernel::reinterpret_value");
    }
}

} // namespace metalcpu::msl
