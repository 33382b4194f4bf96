#include "compiler/call_arguments.h"

#include "compiler/signature.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <array>
#include <string_view>

namespace metalcpu::msl {

namespace {

// The library functions that store a result through a reference parameter, and which one.
// Everything else in <metal_stdlib> takes values, pointers or const references.
struct LibraryOutParameter {
    std::string_view function;
    std::size_t index;
};
constexpr std::array<LibraryOutParameter, 8> kLibraryOutParameters{{
    {"move", 0},    // what it returns may bind to an rvalue reference that is written
    {"forward", 0},
    {"modf", 1},
    {"frexp", 1},
    {"sincos", 1},
    {"simdgroup_load", 0},
    {"simdgroup_multiply", 0},
    {"simdgroup_multiply_accumulate", 0},
}};

bool isLibraryNamespace(const Token& t) { return t.isIdentifier("metal") || t.isIdentifier("fast") || t.isIdentifier("precise"); }

/// The first token of the declaration that declares the name at `declarator`: just after the
/// `;`, `{`, `}` or open bracket before it, nested brackets skipped.
std::size_t declarationStart(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t declarator) {
    for (std::size_t k = declarator; k-- > 0;) {
        const Token& t = tokens[k];
        if ((t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) && partner[k] != kNoToken && partner[k] < k)
            k = partner[k];
        else if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(") || t.isPunct("[") ||
                 t.kind == TokenKind::Pragma)
            return k + 1;
    }
    return 0;
}

bool holdsPack(const TokenList& tokens, TokenRange p) {
    for (std::size_t k = p.begin; k < p.end; ++k)
        if (tokens[k].isPunct("...")) return true;
    return false;
}

} // namespace

bool isWritableReference(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange p) {
    const std::size_t end = parameterDefault(tokens, partner, p);
    for (std::size_t k = p.begin; k < end; ++k) {
        if (tokens[k].isPunct("<") && opensTemplateArguments(tokens, k)) {
            const std::size_t close = closingAngle(tokens, partner, k, end);
            if (close == kNoToken) return true;
            k = close;
            continue;
        }
        if (tokens[k].isPunct("&&")) return true;
        if (!tokens[k].isPunct("&")) continue;
        // What the reference refers to is const when `const` qualifies it before any `*`.
        for (std::size_t b = k; b > p.begin; --b) {
            const Token& t = tokens[b - 1];
            if (t.isIdentifier("const")) return false;
            if (t.isPunct("*")) return true;
            if (t.isPunct(">")) {
                const std::size_t open = openingAngle(tokens, partner, b - 1, p.begin);
                if (open == kNoToken) return true;
                b = open + 1;
            }
        }
        return true;
    }
    return false;
}

CallArgument callArgumentAt(const Unit& unit, std::size_t i) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    CallArgument out;
    // The innermost bracket open around `i`.
    std::size_t open = kNoToken;
    for (std::size_t k = i; k-- > 0;) {
        const Token& t = tokens[k];
        if ((t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) && partner[k] != kNoToken && partner[k] < k) {
            k = partner[k];
        } else if (t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) {
            open = k;
            break;
        } else if (t.isPunct(";")) {
            break;
        }
    }
    if (open == kNoToken || unit.role(open) != TokenRole::CallOpen || partner[open] == kNoToken) return out;
    // `T v(x)`: the `(` of a direct initialiser is a call's, the name before it a declarator.
    const bool initialiser = open > 0 && unit.role(open - 1) == TokenRole::Declarator;
    out.open = open;
    const std::vector<TokenRange> arguments = splitParameters(tokens, partner, open, partner[open]);
    for (std::size_t a = 0; a < arguments.size(); ++a)
        if (i >= arguments[a].begin && i < arguments[a].end) out.index = a;
    if (initialiser) {
        out.declarator = open - 1;
        // The type after the specifiers that are no part of it (`static`, `constexpr`, attributes).
        std::size_t start = declarationStart(tokens, partner, out.declarator);
        while (start < out.declarator &&
               (unit.role(start) == TokenRole::Attribute ||
                (tokens[start].isIdentifier() && isCppKeyword(tokens[start].spelling) &&
                 !isTypeKeyword(tokens[start].spelling) && !tokens[start].is("typename"))))
            ++start;
        const std::size_t end = unit.typeEnd(start);
        if (end > start) out.callee = end - 1;
    } else {
        out.callee = open - 1;
    }
    if (out.callee != kNoToken && tokens[out.callee].isPunct(">")) {
        const std::size_t angle = openingAngle(tokens, partner, out.callee, 0);
        out.callee = angle == kNoToken || angle == 0 ? kNoToken : angle - 1;
    }
    if (out.callee != kNoToken && !tokens[out.callee].isIdentifier()) out.callee = kNoToken;
    return out;
}

std::set<std::string> declaredTypeNames(const TokenList& tokens, std::size_t begin, std::size_t end) {
    std::set<std::string> out;
    for (std::size_t i = begin; i < end; ++i) {
        const Token& t = tokens[i];
        if ((t.isIdentifier("struct") || t.isIdentifier("class") || t.isIdentifier("union") ||
             t.isIdentifier("enum") || t.isIdentifier("using")) &&
            i + 1 < end && tokens[i + 1].isIdentifier()) {
            out.insert(tokens[i + 1].spelling);
        } else if (t.isIdentifier("typedef")) {
            std::size_t k = i;
            while (k < end && !tokens[k].isPunct(";")) ++k;
            if (k > i + 1 && tokens[k - 1].isIdentifier()) out.insert(tokens[k - 1].spelling);
        }
    }
    return out;
}

bool mayBindWritableReference(const Unit& unit, const CallArgument& call, const std::set<std::string>& fileTypes) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    if (call.open == kNoToken || call.callee == kNoToken || unit.role(call.callee) == TokenRole::Member) return true;
    // Explicit template arguments may make a parameter a reference: `f<thread uint&>(x)`. After
    // a direct initialiser's type the declarators follow, and a `&` there binds a reference to
    // the argument (`T& r(x)`, `float a, &r(x)`, as `T& r = x` does).
    for (std::size_t k = call.callee + 1; k < call.open; ++k)
        if (tokens[k].isPunct("&") || tokens[k].isPunct("&&")) return true;
    const std::string& name = tokens[call.callee].spelling;
    bool libraryOnly = false;
    if (unit.role(call.callee) == TokenRole::QualifiedPart) {
        // `metal::modf(...)`, `metal::precise::sin(...)`: the library; `ns::f(...)`: the file's.
        libraryOnly = call.callee >= 2 && tokens[call.callee - 1].isPunct("::") && isLibraryNamespace(tokens[call.callee - 2]);
    }
    if (!libraryOnly) {
        bool declared = false;
        for (const FunctionDecl& f : unit.module().functions) {
            if (f.name != name || f.parametersOpen == kNoToken || f.parametersClose == kNoToken) continue;
            declared = true;
            const std::vector<TokenRange> parameters = splitParameters(tokens, partner, f.parametersOpen, f.parametersClose);
            for (const TokenRange& p : parameters)
                if (holdsPack(tokens, p)) return true;
            if (call.index < parameters.size() && isWritableReference(tokens, partner, parameters[call.index]))
                return true;
        }
        if (declared) return false;
        // A callable object, or a type of the file built from the argument (an aggregate may
        // hold a reference).
        if (fileTypes.count(name)) return true;
        for (const VariableDecl& v : unit.module().variables)
            if (v.nameToken != kNoToken && tokens[v.nameToken].spelling == name) return true;
        if (unit.role(call.callee) == TokenRole::QualifiedPart) return true;
    }
    for (const LibraryOutParameter& out : kLibraryOutParameters)
        if (out.function == name && out.index == call.index) return true;
    return false;
}

} // namespace metalcpu::msl
