#include "compiler/passes/attributes.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteAttributes(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!startsAttributeSpec(tokens, i) || partner[i] == kNoToken || partner[i + 1] == kNoToken) continue;
        AttributeSpec spec = parseAttributeSpec(tokens, partner, i);
        // A specifier an earlier pass rewrote (kernel-signatures erases a kernel's, with the
        // attributes it read from it) is that pass's: nothing is left to erase.
        if (!c.edits.isRewritten(i)) {
            bool standard = true;
            for (const Attribute& a : spec.attributes)
                if (!isStandardAttribute(a.name)) standard = false;
            if (!standard) c.edits.erase(TokenRange{spec.open, spec.close + 1});
        }
        i = spec.close;
    }
}

} // namespace metalcpu::msl
