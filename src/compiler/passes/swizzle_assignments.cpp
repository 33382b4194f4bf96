#include "compiler/passes/swizzle_assignments.h"

#include "compiler/edits.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

bool isSwizzleName(std::string_view name) {
    if (name.size() < 2 || name.size() > 4) return false;
    const auto within = [&](std::string_view set) { return name.find_first_not_of(set) == std::string_view::npos; };
    return within("xyzw") || within("rgba");
}

void rewriteSwizzleAssignments(PassContext& c) {
    const Unit& unit = c.unit;
    for (std::size_t i = 1; i < unit.size(); ++i) {
        if (!unit.isAccessedMember(i) || !isSwizzleName(unit[i].spelling)) continue;
        // The whole left side: `a[i].xy` from `a`, so that what stands around it (`(a[i].xy) = e`,
        // `++a[i].xy`) is judged for the whole expression, not for the member alone. None for a
        // designator (`{.xy = w}`), which names a member without accessing one.
        const std::size_t first = unit.postfixStart(i, TemplateArguments::Follow);
        if (first == kNoToken) continue;
        const ExpressionUse use = unit.useOf(first, i, ObjectParts::None);
        if (use.kind != UseKind::Assigned || !unit[use.operatorToken].isPunct("=")) continue;
        // An assignment an earlier pass rewrote went with what that pass erased.
        if (c.edits.isRewritten(use.operatorToken)) continue;
        // In the token's text, not inserted before it: a token a later pass takes over (a piece
        // of a kernel rebuilt from outputText()) must not print it twice.
        c.edits.replace(use.operatorToken, "->*__mc_swz=");
    }
}

} // namespace metalcpu::msl
