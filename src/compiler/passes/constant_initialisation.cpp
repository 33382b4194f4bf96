#include "compiler/passes/constant_initialisation.h"

#include "compiler/edits.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

namespace {

// The first token of a declaration after the attribute specifiers (and alignas) it starts with:
// `constinit` has to follow them.
std::size_t afterLeadingAttributes(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                   std::size_t begin, std::size_t end) {
    std::size_t k = begin;
    while (k < end) {
        if (startsAttributeSpec(tokens, k) && partner[k] != kNoToken) {
            k = partner[k] + 1;
        } else if (tokens[k].isIdentifier("alignas") && tokens[k + 1].isPunct("(") && partner[k + 1] != kNoToken) {
            k = partner[k + 1] + 1;
        } else {
            break;
        }
    }
    return k;
}

// Writes `specifier` before token `at`. When the declaration starts its line, it goes at the
// end of the line before instead, so that the tokens of the declaration keep their columns
// (and messages about them point where the .metal file has them).
void insertSpecifier(EditList& edits, std::size_t at, const std::string& specifier) {
    const TokenList& tokens = edits.tokens();
    if (at > 0 && tokens[at].startOfLine && tokens[at - 1].location.file == tokens[at].location.file &&
        tokens[at - 1].location.line < tokens[at].location.line && tokens[at - 1].kind != TokenKind::Pragma)
        edits.insertAfter(at - 1, " " + specifier);
    else
        edits.attachBefore(at, specifier + " ");
}

bool hasWord(const TokenList& tokens, std::size_t begin, std::size_t end, std::string_view word) {
    for (std::size_t k = begin; k < end; ++k)
        if (tokens[k].isIdentifier(word)) return true;
    return false;
}

// The variable as an expression where its declaration ends: its name, with the qualification
// written before it (`T::x` in `const S T::x = ...`).
std::string variableExpression(const TokenList& tokens, std::size_t name, std::size_t begin) {
    std::size_t first = name;
    while (first >= begin + 2 && tokens[first - 1].isPunct("::") && tokens[first - 2].isIdentifier()) first -= 2;
    return sourceText(tokens, first, name + 1);
}

// `static_assert(...)` after the `;` at `semicolon`: the variable must not have a destructor.
// `__typeof__`, not `decltype`: for a reference it names the referent, which is a temporary
// the reference keeps alive (and destroys at exit) in `constant Dtor& r = Dtor();`.
void requireTrivialDestructor(EditList& edits, std::size_t semicolon, const std::string& what,
                              const std::string& expression) {
    edits.insertAfter(semicolon, " static_assert(__has_trivial_destructor(__typeof__(" + expression + ")), \"" + what +
                                     " '" + expression +
                                     "' must be trivially destructible (no kernel code may run when a library unloads)\");");
}

// Whether `v` is an MSL `constant` variable at namespace scope with an initialiser: such a
// variable is a constant expression in Metal, so it becomes `constexpr` rather than
// `constinit` (which would leave a class-type or floating-point one unusable in another
// constant's initialiser: SPIRV-Cross writes `constant uint _27 = gl_WorkGroupSize.x;`).
bool initialisedConstant(const TokenList& tokens, const VariableDecl& v, std::size_t specifiersEnd) {
    if (v.nameToken == kNoToken || !v.enclosingClass.empty() || tokens[v.nameToken - 1].isPunct("::")) return false;
    if (!hasWord(tokens, v.tokens.begin, specifiersEnd, "constant")) return false;
    for (std::size_t k = v.nameToken + 1; k < v.tokens.end; ++k)
        if (tokens[k].isPunct("=") || tokens[k].isPunct("{")) return true;
    return false;
}

// Whether `t` names one of MSL's vector types (`uint3`, `packed_float4`, ...).
bool isVectorTypeName(const Token& t) {
    if (!t.isIdentifier()) return false;
    std::string_view name = t.spelling;
    if (name.starts_with("packed_")) name.remove_prefix(7);
    if (name.size() < 2 || name.back() < '2' || name.back() > '4') return false;
    name.remove_suffix(1);
    for (const char* scalar : {"bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half",
                               "bfloat", "float"})
        if (name == scalar) return true;
    return false;
}

// The component a one-letter vector member names (`x`, `g`, ...), or -1.
int componentIndex(const Token& t) {
    if (!t.isIdentifier() || t.spelling.size() != 1) return -1;
    switch (t.spelling[0]) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

// In the initialiser of a constexpr constant, `v.x` of another program-scope vector constant
// becomes `v[0]`: a vector's component names are members of a union whose active member is the
// element array, which a constant expression may not read through another member.
void subscriptVectorComponents(EditList& edits, const TokenList& tokens, const VariableDecl& v,
                               const std::vector<std::string_view>& vectorConstants) {
    for (std::size_t k = v.nameToken + 1; k + 2 < v.tokens.end; ++k) {
        if (!tokens[k].isIdentifier() || !tokens[k + 1].isPunct(".") || tokens[k - 1].isPunct(".") ||
            tokens[k - 1].isPunct("->") || tokens[k - 1].isPunct("::"))
            continue;
        const int component = componentIndex(tokens[k + 2]);
        if (component < 0 || tokens[k + 3].isPunct("(")) continue;
        bool vector = false;
        for (std::string_view name : vectorConstants) vector = vector || tokens[k].spelling == name;
        if (!vector) continue;
        edits.replace(k + 1, "[" + std::to_string(component) + "]");
        edits.erase(k + 2);
    }
}

} // namespace

void rewriteConstantInitialisation(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    std::vector<std::string_view> vectorConstants;
    for (const VariableDecl& v : c.unit.module().variables)
        if (v.nameToken != kNoToken && v.enclosingClass.empty() && !v.isTemplate)
            for (std::size_t k = v.tokens.begin; k < v.nameToken; ++k)
                if (isVectorTypeName(tokens[k])) vectorConstants.push_back(tokens[v.nameToken].spelling);
    for (const VariableDecl& v : c.unit.module().variables) {
        // A declaration an earlier pass erased (a static data member of a class specialisation
        // address-space-overloads collapsed away) is gone; what is inserted around erased
        // tokens would still print.
        if (v.nameToken != kNoToken && c.edits.isRewritten(v.nameToken)) continue;
        const std::size_t specifiersEnd = v.nameToken == kNoToken ? v.tokens.end : v.nameToken;
        if (declaresExternOrThreadgroup(tokens, v)) continue; // refused by the restricted dialect's checks
        // A variable template has no one type to check, so it becomes constexpr, whose type
        // must be literal: a destructor that is not constexpr is an error at each
        // instantiation. (A member of a class template defined outside it is checked in
        // the class, where it is declared.)
        const bool variableTemplate = v.isTemplate && v.enclosingClass.empty() && v.nameToken != kNoToken &&
                                      !tokens[v.nameToken - 1].isPunct("::");
        const bool initialised = initialisedConstant(tokens, v, specifiersEnd);
        if (!hasWord(tokens, v.tokens.begin, specifiersEnd, "constexpr"))
            insertSpecifier(c.edits, afterLeadingAttributes(tokens, partner, v.tokens.begin, specifiersEnd),
                            variableTemplate || initialised ? "constexpr" : "constinit");
        if (initialised) subscriptVectorComponents(c.edits, tokens, v, vectorConstants);
        if (!v.isTemplate && v.nameToken != kNoToken)
            requireTrivialDestructor(c.edits, v.tokens.end, "program-scope variable",
                                     variableExpression(tokens, v.nameToken, v.tokens.begin));
    }
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (!f.hasBody) continue;
        for (const StaticLocal& local : findStaticLocals(tokens, partner, {f.bodyOpen, f.bodyClose + 1})) {
            // Gone with its function when address-space-overloads erased that (see above).
            if (c.edits.isRewritten(local.tokens.begin)) continue;
            // Not moved to the line before: work-item loops may open a piece right before it.
            if (!local.isConstexpr) c.edits.attachBefore(local.tokens.begin, "constinit ");
            if (local.nameToken != kNoToken)
                requireTrivialDestructor(c.edits, local.tokens.end, "static local variable",
                                         tokens[local.nameToken].spelling);
        }
    }
}

} // namespace metalcpu::msl
