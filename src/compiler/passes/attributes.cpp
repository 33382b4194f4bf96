#include "compiler/passes/attributes.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

void rewriteAttributes(TokenList& tokens, const std::vector<std::size_t>& partner) {
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!startsAttributeSpec(tokens, i) || partner[i] == kNoToken || partner[i + 1] == kNoToken) continue;
        AttributeSpec spec = parseAttributeSpec(tokens, partner, i);
        if (!tokens[i].erased) {
            bool standard = true;
            for (const Attribute& a : spec.attributes)
                if (!isStandardAttribute(a.name)) standard = false;
            if (!standard)
                for (std::size_t k = spec.open; k <= spec.close; ++k) tokens[k].erased = true;
        }
        i = spec.close;
    }
}

} // namespace metalcpu::msl
