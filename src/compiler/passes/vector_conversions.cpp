#include "compiler/passes/vector_conversions.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteVectorConversions(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier("__builtin_convertvector") || c.edits.isRewritten(i)) continue;
        const std::size_t open = i + 1;
        if (!tokens[open].isPunct("(") || partner[open] == kNoToken) {
            c.diagnostics.error(tokens[i].location, "expected '(' after '__builtin_convertvector'");
            continue;
        }
        const std::size_t close = partner[open];
        // The comma between the value and the type: the last at the top level, since a type's
        // template arguments (`vec<float, 4>`) have theirs inside angle brackets.
        std::size_t comma = kNoToken;
        for (std::size_t k = open + 1; k < close; ++k) {
            if (partner[k] != kNoToken && partner[k] > k) {
                k = partner[k];
            } else if (tokens[k].isPunct("<") && tokens[k - 1].isIdentifier()) {
                if (const std::size_t angle = closingAngle(tokens, partner, k, close); angle != kNoToken) k = angle;
            } else if (tokens[k].isPunct(",")) {
                comma = k;
            }
        }
        if (comma == kNoToken || comma == open + 1 || comma + 1 == close) {
            c.diagnostics.error(tokens[i].location,
                                "'__builtin_convertvector' takes a vector and a vector type: "
                                "__builtin_convertvector(value, float4)");
            continue;
        }
        c.edits.replace(i, "::metalcpu_kernel::convert_vector");
        c.edits.insertBefore(comma + 1, "::metalcpu_kernel::vector_type<");
        c.edits.insertBefore(close, ">{}");
    }
}

} // namespace metalcpu::msl
