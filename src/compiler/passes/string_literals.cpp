#include "compiler/passes/string_literals.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/unit.h"

#include <map>
#include <set>
#include <string_view>

namespace metalcpu::msl {

namespace {

bool opens(const Token& t) { return t.isPunct("(") || t.isPunct("[") || t.isPunct("{"); }
bool closes(const Token& t) { return t.isPunct(")") || t.isPunct("]") || t.isPunct("}"); }

/// The innermost `(`, `[` or `{` left open before token `i`, or kNoToken at file scope.
std::size_t enclosingOpener(const Unit& u, std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
        if (closes(u[k])) k = u.partner()[k];
        else if (opens(u[k])) return k;
    }
    return kNoToken;
}

/// The first token of the declaration or statement holding token `i` at its depth: after the
/// `;`, `{` or `}` before it.
std::size_t statementStart(const Unit& u, std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
        if (u[k].isPunct(";") || u[k].isPunct("{") || u[k].isPunct("}")) return k + 1;
        if (u[k].isPunct(")") || u[k].isPunct("]")) k = u.partner()[k];
        else if (opens(u[k])) return k + 1;
    }
    return 0;
}

/// Whether [from, to) writes a `*` outside brackets: the declaration declares pointers, so
/// the literals of its initialiser decay (`constant const char* constant names[] = {...}`).
bool declaresPointers(const Unit& u, std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
        if (opens(u[k])) k = u.partner()[k];
        else if (u[k].isPunct("*")) return true;
    }
    return false;
}

/// A `(` after one of these holds no expression whose literal may be an object's name.
constexpr std::string_view kLiteralOnlyOperands[] = {
    "static_assert", "asm", "__asm__", "__asm", "__attribute__", "__attribute", "decltype", "__typeof__",
    "__typeof", "typeof", "_Pragma", "__declspec", "alignas", "__has_include", "__has_attribute",
};

bool keepsLiteral(const Token& before) {
    for (std::string_view name : kLiteralOnlyOperands)
        if (before.isIdentifier(name)) return true;
    return false;
}

/// Whether the `{` at `open` starts an initialiser list rather than a body (of a function,
/// a compound statement, a class or a namespace) or a lambda's.
bool startsInitialiserList(const Unit& u, const std::set<std::size_t>& bodies, std::size_t open) {
    if (open == 0 || bodies.contains(open) || u.startsStatement(open)) return false;
    const Token& before = u[open - 1];
    if (before.isPunct(")")) return false;
    if (before.isPunct("]")) {
        // `char s[]{"x"}` declares an array; `[&] {` opens a lambda.
        const std::size_t bracket = u.partner()[open - 1];
        return bracket > 0 && (u[bracket - 1].isIdentifier() || u[bracket - 1].isPunct("]"));
    }
    if (before.isIdentifier("return")) return true;
    for (std::string_view word : {"else", "do", "try", "const", "noexcept", "override", "final", "mutable", "volatile"})
        if (before.isIdentifier(word)) return false;
    if (before.isIdentifier() || before.isPunct(">")) {
        for (std::size_t k = statementStart(u, open); k < open; ++k)
            for (std::string_view word : {"struct", "class", "union", "enum", "namespace", "extern"})
                if (u[k].isIdentifier(word)) return false;
    }
    return true;
}

/// Whether the data member at position `index` of the class `name` defined in the file, or the
/// one called `member` when that is not empty, is declared a pointer (`constant const char*
/// name;`): the literal that initialises it decays. False when it is not, or when the class
/// cannot be read that simply: not defined exactly once, a template, with a base class, or a
/// member declaration holding a template argument list, a nested class or an array of them.
bool memberIsPointer(const Unit& u, const std::string& name, std::size_t index, const std::string& member) {
    std::size_t open = kNoToken;
    for (std::size_t k = 1; k + 1 < u.size(); ++k) {
        if (!u[k].isIdentifier(name) || !(u[k - 1].isIdentifier("struct") || u[k - 1].isIdentifier("class")) ||
            !u[k + 1].isPunct("{"))
            continue;
        if (open != kNoToken || (k >= 2 && u[k - 2].isPunct(">"))) return false; // twice, or a template
        open = k + 1;
    }
    if (open == kNoToken || u.partner()[open] == kNoToken) return false;
    const std::size_t close = u.partner()[open];
    std::size_t position = 0;
    for (std::size_t k = open + 1; k < close;) {
        if ((u[k].isIdentifier("public") || u[k].isIdentifier("private") || u[k].isIdentifier("protected")) &&
            u[k + 1].isPunct(":")) {
            k += 2;
            continue;
        }
        // One member declaration [k, e): up to its `;`, or a member function's body.
        std::size_t e = k;
        bool function = false;
        for (; e < close && !u[e].isPunct(";"); ++e) {
            const Token& t = u[e];
            if (t.isPunct("<") || t.isIdentifier("struct") || t.isIdentifier("class") || t.isIdentifier("union") ||
                t.isIdentifier("enum"))
                return false;
            function = function || t.isPunct("(");
            if (t.isPunct("{") && function) {
                e = u.partner()[e];
                break;
            }
            if (opens(t)) e = u.partner()[e];
        }
        const bool data = !function && e > k && !u[k].isIdentifier("static") && !u[k].isIdentifier("using") &&
                          !u[k].isIdentifier("typedef") && !u[k].isIdentifier("friend");
        // Its declarators, between top-level commas: `float a, *p;` declares a float and a pointer.
        for (std::size_t d = k; data && d < e;) {
            bool pointer = false, array = false, initialiser = false;
            std::size_t declared = kNoToken, next = d;
            for (; next < e && !u[next].isPunct(","); ++next) {
                initialiser = initialiser || u[next].isPunct("=") || u[next].isPunct("{");
                if (!initialiser) {
                    pointer = pointer || u[next].isPunct("*");
                    array = array || u[next].isPunct("[");
                    if (u[next].isIdentifier() && !array) declared = next;
                }
                if (opens(u[next])) next = u.partner()[next];
            }
            const bool found = member.empty() ? position == index : declared != kNoToken && u[declared].is(member);
            if (found) return pointer && !array;
            ++position;
            d = next + 1;
        }
        k = e + 1;
    }
    return false;
}

/// Whether the literal at `first`, in the initialiser list opened at `list` inside the
/// outermost list `outer` of a declaration whose type and declarator are written before it
/// (`constant Entry table[] = {{"a", 1}}`, `Entry e{"a", 1}`), initialises a member the class
/// declares a pointer: the list is one element's (as deep as the declarator's array bounds),
/// and the literal is a whole element of it, or designated (`.name = "a"`).
bool initialisesPointerMember(const Unit& u, std::size_t first, std::size_t end, std::size_t list, std::size_t outer,
                              std::size_t declarationStart) {
    // The declarator: the last name before `outer`, past its array bounds and `=`.
    std::size_t k = outer;
    if (k > 0 && u[k - 1].isPunct("=")) --k;
    std::size_t bounds = 0;
    while (k > 0 && u[k - 1].isPunct("]") && u.partner()[k - 1] != kNoToken) {
        k = u.partner()[k - 1];
        ++bounds;
    }
    if (k < 2 || !u[k - 1].isIdentifier() || !u[k - 2].isIdentifier() || k - 2 < declarationStart) return false;
    const std::string& type = u[k - 2].spelling;
    std::size_t depth = 0;
    for (std::size_t o = list; o != outer; o = enclosingOpener(u, o)) {
        if (o == kNoToken || !u[o].isPunct("{")) return false;
        ++depth;
    }
    if (depth != bounds) return false;
    // A whole element: after the list's `{` or a `,`, before a `,` or its `}`.
    const Token& after = u[end];
    if (!after.isPunct(",") && !after.isPunct("}")) return false;
    if (first >= 3 && u[first - 1].isPunct("=") && u[first - 2].isIdentifier() && u[first - 3].isPunct("."))
        return memberIsPointer(u, type, 0, u[first - 2].spelling);
    if (!u[first - 1].isPunct(",") && !u[first - 1].isPunct("{")) return false;
    std::size_t index = 0;
    for (std::size_t t = list + 1; t < first; ++t) {
        if (opens(u[t])) t = u.partner()[t];
        else if (u[t].isPunct(",")) ++index;
    }
    return memberIsPointer(u, type, index, {});
}

/// Whether the literal starting at token `first` may be replaced by an object's name.
bool decays(const Unit& u, const std::set<std::size_t>& bodies, std::size_t first, std::size_t end) {
    if (first > 0 && (u[first - 1].isIdentifier("extern") || u[first - 1].isIdentifier("operator"))) return false;
    std::size_t opener = enclosingOpener(u, first);
    // Inside an attribute or an operand that must be a literal, at any depth up to a brace.
    for (std::size_t o = opener; o != kNoToken && !u[o].isPunct("{"); o = enclosingOpener(u, o)) {
        if (o > 0 && u[o].isPunct("(") && keepsLiteral(u[o - 1])) return false;
        if (u[o].isPunct("[") && ((o > 0 && u[o - 1].isPunct("[")) || u[o + 1].isPunct("["))) return false;
        if (o > 0 && u[o].isPunct("(") && u[o - 1].isPunct("]")) return false; // `char s[]("x")`
    }
    if (opener != kNoToken && u[opener].isPunct("{") && startsInitialiserList(u, bodies, opener)) {
        // The outermost of nested initialiser lists says what is initialised.
        const std::size_t list = opener;
        for (std::size_t outer = enclosingOpener(u, opener);
             outer != kNoToken && u[outer].isPunct("{") && startsInitialiserList(u, bodies, outer);
             outer = enclosingOpener(u, outer))
            opener = outer;
        const Token& before = u[opener - 1];
        if (before.isIdentifier("return") ||
            !(before.isPunct("=") || before.isIdentifier() || before.isPunct("]") || before.isPunct(">")))
            return false; // an initialiser list whose type is not written here
        const std::size_t start = statementStart(u, before.isPunct("=") ? opener - 1 : opener);
        // A pointer declared, or a member of the class declared that the class declares a pointer.
        return declaresPointers(u, start, before.isPunct("=") ? opener - 1 : opener) ||
               initialisesPointerMember(u, first, end, list, opener, start);
    }
    // `char s[] = "abc";` initialises an array; `const char* s = "abc";` points.
    if (first >= 2 && u[first - 1].isPunct("=") && u[first - 2].isPunct("]"))
        return declaresPointers(u, statementStart(u, first - 1), first - 1);
    return true;
}

/// How a report names the literal: its characters as written, the first 32 of them.
std::string label(const std::string& spelling) {
    std::string text;
    bool inside = false;
    for (char c : spelling) {
        if (c == '"' && (text.empty() || text.back() != '\\')) inside = !inside;
        else if (inside) text += c;
    }
    constexpr std::size_t kShown = 32;
    if (text.size() > kShown) {
        text.resize(kShown);
        while (!text.empty() && text.back() == '\\') text.pop_back(); // no escape cut in half
        text += "...";
    }
    return "\"" + text + "\"";
}

/// The name `__func__` holds in the function whose body holds token `i`, as a literal, or ""
/// where that is not simply the function's name as written: outside a body, in a lambda's
/// (or in a brace this cannot tell from one), in an operator, constructor or destructor.
std::string functionNameLiteral(const Unit& u, std::size_t i) {
    const std::size_t f = u.functionAt(i);
    if (f == kNoToken) return {};
    const FunctionDecl& function = u.module().functions[f];
    if (function.nameToken == kNoToken || !function.enclosingClass.empty()) return {};
    const Token& name = u[function.nameToken];
    if (!name.isIdentifier() || name.is("operator") ||
        (function.nameToken > 0 && (u[function.nameToken - 1].isIdentifier("operator") || u[function.nameToken - 1].isPunct("~"))))
        return {};
    for (std::size_t o = enclosingOpener(u, i); o != function.bodyOpen; o = enclosingOpener(u, o))
        if (o == kNoToken || (u[o].isPunct("{") && !u.startsStatement(o))) return {};
    return "\"" + name.spelling + "\"";
}

} // namespace

void rewriteStringLiterals(PassContext& c) {
    const Unit& u = c.unit;
    std::set<std::size_t> bodies;
    for (const FunctionDecl& f : u.module().functions)
        if (f.bodyOpen != kNoToken) bodies.insert(f.bodyOpen);
    std::map<std::string, std::string> named; // spelling -> object
    const auto name = [&](const std::string& spelling) -> const std::string& {
        auto [it, added] = named.try_emplace(spelling, "__mc_string_" + std::to_string(named.size()));
        if (added) {
            c.findings.stringLiterals.push_back({spelling, it->second});
            c.findings.programConstants.push_back({"::" + it->second + ".text", label(spelling)});
        }
        return it->second;
    };
    for (std::size_t i = 0; i < u.size(); ++i) {
        if ((u[i].isIdentifier("__func__") || u[i].isIdentifier("__FUNCTION__")) && !c.edits.isRewritten(i)) {
            // A function-local array of the function's name (c10/metal/error.h copies it).
            const std::string literal = functionNameLiteral(u, i);
            if (!literal.empty()) c.edits.replace(i, "::" + name(literal) + ".text");
            continue;
        }
        if (u[i].kind != TokenKind::String) continue;
        std::size_t end = i + 1;
        while (end < u.size() && u[end].kind == TokenKind::String) ++end;
        const std::size_t first = i;
        i = end - 1;
        bool plain = true;
        std::string spelling;
        for (std::size_t k = first; k < end; ++k) {
            plain = plain && u[k].spelling.starts_with('"') && !c.edits.isRewritten(k);
            spelling += (k == first ? "" : " ") + u[k].spelling;
        }
        if (!plain || !decays(u, bodies, first, end)) continue;
        c.edits.replace(TokenRange{first, end}, "::" + name(spelling) + ".text");
    }
}

std::string stringLiteralDefinitions(const std::vector<StringLiteral>& literals) {
    // The bytes around the characters belong to the object but to no region: one past the
    // literal's end (`end`) an access is reported against the literal, and one past the end of
    // a program-scope constant placed just before the object (`before`) against that constant,
    // which would otherwise read the literal's first byte unreported.
    std::string out;
    for (const StringLiteral& s : literals)
        out += "constexpr struct { char before; char text[sizeof(" + s.spelling + ")]; char end; } " + s.name +
               " = {0, " + s.spelling + ", 0};\n";
    return out;
}

} // namespace metalcpu::msl
