#include "compiler/passes/address_spaces.h"

#include "compiler/address_space.h"
#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/scanner.h"
#include "compiler/unit.h"

#include <optional>
#include <unordered_set>

namespace metalcpu::msl {

namespace {

// Tokens that end the decl-specifier sequence around a `constant`.
bool endsSpecifiers(const Token& t) {
    if (t.kind == TokenKind::Pragma || t.kind == TokenKind::End) return true;
    if (t.kind != TokenKind::Punctuator) return false;
    return !t.isPunct("::");
}

// Whether `const` qualifies the same type as the `constant` at `i`: it appears in the same
// decl-specifier sequence, i.e. before the next `*`/`&` and after the previous delimiter.
bool alreadyConst(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
        const Token& t = tokens[k];
        if (t.isPunct(">")) break;
        if (endsSpecifiers(t)) break;
        if (t.isIdentifier("const")) return true;
    }
    for (std::size_t k = i + 1; k < tokens.size(); ++k) {
        const Token& t = tokens[k];
        if (t.isPunct("<")) {
            // Skip template arguments: a const inside them qualifies something else.
            int depth = 0;
            for (; k < tokens.size(); ++k) {
                if (tokens[k].isPunct("(") && partner[k] != kNoToken)
                    k = partner[k];
                else if (tokens[k].isPunct("<"))
                    ++depth;
                else if (tokens[k].isPunct(">") && --depth == 0)
                    break;
                else if (tokens[k].isPunct(";") || tokens[k].isPunct("{"))
                    return false;
            }
            continue;
        }
        if (endsSpecifiers(t)) break;
        if (t.isIdentifier("const")) return true;
    }
    return false;
}

/// The address-space qualifiers after the parameters of constructors and destructors: C++ lets
/// neither be cv-qualified, so a `constant` there (MLX's logging.h before Metal 3.2:
/// `constexpr os_log(...) constant {}`, the constructor of program-scope `constant` objects)
/// is erased like the others instead of becoming `const`.
std::unordered_set<std::size_t> constructorQualifiers(const Module& module) {
    std::unordered_set<std::size_t> out;
    for (const FunctionDecl& f : module.functions) {
        if (f.enclosingClass.empty() || (f.name != f.enclosingClass && f.name != "~" + f.enclosingClass)) continue;
        out.insert(f.trailingQualifiers.begin(), f.trailingQualifiers.end());
    }
    return out;
}

} // namespace

void rewriteAddressSpaces(PassContext& context) {
    const Unit& unit = context.unit;
    const std::unordered_set<std::size_t> unqualifiable = constructorQualifiers(unit.module());
    for (std::size_t i = 0; i < unit.size(); ++i) {
        const Token& t = unit[i];
        const std::optional<Space> space = addressSpaceOf(t);
        if (!space || !unit.isUnqualifiedName(i)) continue;
        // Rewritten already: the checked pointer types of the validation flavour (which run
        // first so that each qualifier has one rewrite) or a declaration an earlier pass erased.
        if (context.edits.isRewritten(i)) continue;
        const SpaceInfo& info = infoOf(*space);
        if (!info.supported)
            context.diagnostics.error(t.location, "the " + t.spelling + " address space is not supported");
        else if (info.readOnly && !unqualifiable.count(i) && !alreadyConst(unit.tokens(), unit.partner(), i))
            context.edits.replace(i, "const");
        else
            context.edits.erase(i);
    }
}

} // namespace metalcpu::msl
