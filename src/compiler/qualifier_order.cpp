#include "compiler/qualifier_order.h"

#include "compiler/address_space.h"
#include "compiler/syntax.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

/// Keywords that can be part of a type's decl-specifiers next to its name; any other keyword
/// (`static`, `return`, `template`, `operator`, `typedef`) ends the type.
bool isTypeSpecifierKeyword(std::string_view word) {
    return isTypeKeyword(word) || word == "typename" || word == "struct" || word == "class" || word == "enum" ||
           word == "union";
}

/// What a qualifier at `i` may be followed by when it ends a type's decl-specifiers: the
/// declarator (`*`, `&`, a name) or more qualifiers. Anything else (`;`, `=`, `(`, `]`) means
/// it is not a qualifier there.
bool endsSpecifiersBefore(const Token& next) {
    return next.isPunct("*") || next.isPunct("&") || next.isPunct("&&") || next.isIdentifier("const") ||
           next.isIdentifier("volatile") ||
           (next.isIdentifier() && (!isCppKeyword(next.spelling) || next.spelling == "__restrict" ||
                                    next.spelling == "__restrict__"));
}

/// The first token of the type written before the qualifier at `i` (its name, template
/// arguments, nested-name qualifiers, cv-qualifiers and keywords such as `unsigned`), or
/// kNoToken when no type name is written there (`const device T*`, `f() const device`).
std::size_t typeStartBefore(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    std::size_t start = i;
    bool named = false;
    for (std::size_t k = i; k-- > 0;) {
        const Token& t = tokens[k];
        if (t.isPunct(">")) {
            // `array<float, int(8)>`: the arguments and the template's name.
            const std::size_t open = openingAngle(tokens, partner, k, 0);
            if (open == kNoToken || open == 0) break;
            const Token& name = tokens[open - 1];
            if (!name.isIdentifier() || isCppKeyword(name.spelling)) break; // `template<...>`
            k = open - 1;
            start = k;
            named = true;
        } else if (t.isPunct(")") && partner[k] != kNoToken && partner[k] > 0 &&
                   (tokens[partner[k] - 1].isIdentifier("decltype") || tokens[partner[k] - 1].isIdentifier("__decltype"))) {
            k = partner[k] - 1;
            start = k;
            named = true;
        } else if (t.isPunct("::")) {
            start = k;
        } else if (t.isIdentifier() && !addressSpaceOf(t) &&
                   (!isCppKeyword(t.spelling) || isTypeSpecifierKeyword(t.spelling))) {
            // Two names in a row are the type and the declaration's name before it (`a b`)
            // only across a `,`/`;`, which ended the scan; here they are `unsigned int`,
            // `const T`, `struct S`.
            start = k;
            named = named || !(t.isIdentifier("const") || t.isIdentifier("volatile"));
        } else {
            break;
        }
    }
    return named && start < i ? start : kNoToken;
}

} // namespace

void placeAddressSpacesFirst(TokenList& tokens, std::vector<std::size_t>& partner) {
    for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
        const Token& q = tokens[i];
        if (!addressSpaceOf(q) || !endsSpecifiersBefore(tokens[i + 1])) continue;
        const Token& before = tokens[i - 1];
        if (before.isPunct(".") || before.isPunct("->") || before.isPunct("::")) continue; // a member's name
        const std::size_t start = typeStartBefore(tokens, partner, i);
        if (start == kNoToken) continue;
        // The qualifier takes the type's place at the start of the line, if it was there; the
        // tokens it passes keep their locations and bracket partners, one index further on.
        const bool startOfLine = tokens[start].startOfLine;
        const bool spaceBefore = tokens[start].spaceBefore;
        tokens[start].startOfLine = false;
        tokens[start].spaceBefore = true;
        tokens[i].startOfLine = startOfLine;
        tokens[i].spaceBefore = spaceBefore;
        std::rotate(tokens.begin() + static_cast<std::ptrdiff_t>(start), tokens.begin() + static_cast<std::ptrdiff_t>(i),
                    tokens.begin() + static_cast<std::ptrdiff_t>(i + 1));
        // A bracket of the type is closed within it, so its partner moves with it.
        for (std::size_t k = start; k < i; ++k)
            if (partner[k] != kNoToken) ++partner[k];
        std::rotate(partner.begin() + static_cast<std::ptrdiff_t>(start), partner.begin() + static_cast<std::ptrdiff_t>(i),
                    partner.begin() + static_cast<std::ptrdiff_t>(i + 1));
    }
}

} // namespace metalcpu::msl
