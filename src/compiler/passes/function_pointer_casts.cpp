#include "compiler/passes/function_pointer_casts.h"

#include "compiler/syntax.h"

#include <map>
#include <set>
#include <string>

namespace metalcpu::msl {

namespace {

// Keywords whose parenthesised operand is an expression or a type of its own, never a
// parameter list or a declarator.
bool takesOperand(const Token& t) {
    static constexpr std::string_view kOperators[] = {
        "decltype", "__decltype", "typeof", "__typeof__", "__typeof", "sizeof", "alignof", "__alignof__",
        "alignas", "noexcept", "typeid", "__attribute__", "__attribute", "requires", "static_assert",
        "__underlying_type"};
    for (std::string_view k : kOperators)
        if (t.isIdentifier(k)) return true;
    return false;
}

bool isTypeofKeyword(const Token& t) {
    return t.isIdentifier("decltype") || t.isIdentifier("__decltype") || t.isIdentifier("typeof") ||
           t.isIdentifier("__typeof__") || t.isIdentifier("__typeof");
}

// Type-ids of the file, read well enough to tell whether they involve a function type.
class FunctionTypes {
public:
    FunctionTypes(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module)
        : t_(tokens), partner_(partner) {
        for (const FunctionDecl& f : module.functions) functions_.insert(f.name);
        collectAliases();
    }

    /// Whether tokens [begin, end), the target of a cast, name a pointer or reference to a
    /// function: an abstract declarator `(*)`, `(&)`, `(S::*)` followed by a parameter list, an
    /// alias of a function type, or decltype of a function of the file.
    bool isFunctionPointer(std::size_t begin, std::size_t end) const {
        bool found = false;
        walk(begin, end, [&](std::size_t k) {
            const Token& t = t_[k];
            if (t.isIdentifier() && aliases_.count(t.spelling)) found = true;
            if (isTypeofKeyword(t) && decltypeNamesFunction(k)) found = true;
            if (t.isPunct("(") && isAbstractDeclarator(k) && partner_[k] + 1 < end && t_[partner_[k] + 1].isPunct("("))
                found = true;
        });
        return found;
    }

    bool isAlias(const Token& t) const { return t.isIdentifier() && aliases_.count(t.spelling) != 0; }

    /// The end of the typedef or alias declaration that starts at `i`, or `i` when none does.
    std::size_t skipDeclaration(std::size_t i) const {
        auto found = declarationEnds_.find(i);
        return found == declarationEnds_.end() ? i : found->second;
    }

private:
    // Calls `visit` for each token of [begin, end) at the top level of a type: template
    // arguments and the operands of decltype/sizeof/... are skipped (S<void(*)()> is not a
    // function type); parenthesised groups are entered (declarators nest in them).
    template <class Visit>
    void walk(std::size_t begin, std::size_t end, Visit&& visit) const {
        for (std::size_t k = begin; k < end; ++k) {
            const Token& t = t_[k];
            visit(k);
            if (t.isPunct("<") && k > begin && t_[k - 1].isIdentifier()) {
                std::size_t close = closingAngle(t_, partner_, k, end);
                if (close != kNoToken) k = close;
            } else if (takesOperand(t) && k + 1 < end && t_[k + 1].isPunct("(") && partner_[k + 1] != kNoToken) {
                k = partner_[k + 1];
            } else if ((t.isPunct("[") || t.isPunct("{")) && partner_[k] != kNoToken) {
                k = partner_[k];
            }
        }
    }

    // `decltype(f)`, `decltype(&f)`, `decltype(ns::f<A>)` with f a function of the file.
    bool decltypeNamesFunction(std::size_t keyword) const {
        std::size_t open = keyword + 1;
        if (!t_[open].isPunct("(") || partner_[open] == kNoToken) return false;
        const std::size_t close = partner_[open];
        std::size_t k = open + 1;
        if (t_[k].isPunct("&")) ++k;
        if (t_[k].isPunct("::")) ++k;
        std::size_t name = kNoToken;
        while (k < close && t_[k].isIdentifier()) {
            name = k++;
            if (t_[k].isPunct("::")) ++k;
            else break;
        }
        if (name == kNoToken) return false;
        if (t_[k].isPunct("<")) {
            std::size_t angle = closingAngle(t_, partner_, k, close);
            if (angle == kNoToken) return false;
            k = angle + 1;
        }
        return k == close && functions_.count(t_[name].spelling) != 0;
    }

    // `(*)`, `(&)`, `(&&)`, `(* const)`, `(S::*)`, `(*[4])`, `(*(*)(int))`: a declarator
    // without a name, as a cast's type has.
    bool isAbstractDeclarator(std::size_t open) const {
        const std::size_t close = partner_[open];
        if (close == kNoToken || close == open + 1) return false;
        const Token& first = t_[open + 1];
        bool pointer = first.isPunct("*") || first.isPunct("&") || first.isPunct("&&") || first.isPunct("^") ||
                       (first.isIdentifier() && t_[open + 2].isPunct("::"));
        if (!pointer) return false;
        for (std::size_t k = open + 1; k < close; ++k) {
            const Token& t = t_[k];
            if ((t.isPunct("(") || t.isPunct("[")) && partner_[k] != kNoToken) {
                k = partner_[k];
            } else if (t.isIdentifier() && !(t.isIdentifier("const") || t.isIdentifier("volatile") ||
                                              t.isIdentifier("__restrict") || t.isIdentifier("__restrict__") ||
                                              t_[k + 1].isPunct("::"))) {
                return false; // a declarator name: a declaration, not a cast
            }
        }
        return true;
    }

    // A `(` of a typedef or alias: a parameter list unless it groups a declarator
    // (`(*name)`, `(&)`, `(S::*p)`, or just `(name)`).
    bool isParameterList(std::size_t open) const {
        const std::size_t close = partner_[open];
        if (close == open + 1) return true;
        const Token& first = t_[open + 1];
        if (first.isPunct("*") || first.isPunct("&") || first.isPunct("&&") || first.isPunct("^")) return false;
        if (first.isIdentifier() && t_[open + 2].isPunct("::")) return false;
        const bool groupsName = close == open + 2 && first.isIdentifier() && !isCppKeyword(first.spelling) &&
                                (t_[close + 1].isPunct("(") || t_[close + 1].isPunct("["));
        return !groupsName;
    }

    // Whether the type of a typedef or alias declaration (tokens [begin, end)) involves a
    // function type: a parameter list, a known alias, decltype of a function.
    bool aliasInvolvesFunction(std::size_t begin, std::size_t end) const {
        bool found = false;
        walk(begin, end, [&](std::size_t k) {
            const Token& t = t_[k];
            if (isAlias(t) || (isTypeofKeyword(t) && decltypeNamesFunction(k))) found = true;
            if (t.isPunct("(") && partner_[k] != kNoToken && !(k > begin && takesOperand(t_[k - 1])) &&
                isParameterList(k))
                found = true;
        });
        return found;
    }

    // The names a typedef declares: identifiers outside parameter lists that end a
    // declarator (followed by `)`, `(`, `[`, `,` or the end).
    std::vector<std::string> typedefNames(std::size_t begin, std::size_t end) const {
        std::vector<std::string> names;
        for (std::size_t k = begin; k < end; ++k) {
            const Token& t = t_[k];
            if (t.isPunct("(") && partner_[k] != kNoToken && (isParameterList(k) || (k > begin && takesOperand(t_[k - 1])))) {
                k = partner_[k];
            } else if ((t.isPunct("[") || t.isPunct("{")) && partner_[k] != kNoToken) {
                k = partner_[k];
            } else if (t.isPunct("<") && k > begin && t_[k - 1].isIdentifier()) {
                std::size_t close = closingAngle(t_, partner_, k, end);
                if (close != kNoToken) k = close;
            } else if (t.isIdentifier() && !isCppKeyword(t.spelling)) {
                const Token& next = t_[k + 1];
                if (k + 1 == end || next.isPunct(")") || next.isPunct("(") || next.isPunct("[") || next.isPunct(","))
                    names.push_back(t.spelling);
            }
        }
        return names;
    }

    // The end (`;`) of the declaration whose tokens start at `i`.
    std::size_t semicolonFrom(std::size_t i) const {
        for (; i + 1 < t_.size(); ++i) {
            if (t_[i].isPunct(";")) return i;
            if ((t_[i].isPunct("(") || t_[i].isPunct("[") || t_[i].isPunct("{")) && partner_[i] != kNoToken)
                i = partner_[i];
        }
        return i;
    }

    // typedef and alias declarations whose type involves a function type; aliases of such
    // aliases are found by going round until nothing changes.
    void collectAliases() {
        struct Declaration {
            TokenRange type;
            std::vector<std::string> names;
        };
        std::vector<Declaration> declarations;
        for (std::size_t i = 0; i + 2 < t_.size(); ++i) {
            if (t_[i].isIdentifier("typedef")) {
                std::size_t end = semicolonFrom(i + 1);
                declarations.push_back({{i + 1, end}, typedefNames(i + 1, end)});
                declarationEnds_[i] = end;
            } else if (t_[i].isIdentifier("using") && t_[i + 1].isIdentifier() && t_[i + 2].isPunct("=")) {
                declarations.push_back({{i + 3, semicolonFrom(i + 3)}, {t_[i + 1].spelling}});
                declarationEnds_[i] = declarations.back().type.end;
            }
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (const Declaration& d : declarations) {
                if (aliases_.count(d.names.empty() ? std::string() : d.names.front()) != 0) continue;
                if (d.names.empty() || !aliasInvolvesFunction(d.type.begin, d.type.end)) continue;
                aliases_.insert(d.names.begin(), d.names.end());
                changed = true;
            }
        }
    }

    const TokenList& t_;
    const std::vector<std::size_t>& partner_;
    std::set<std::string> functions_;
    std::set<std::string> aliases_;
    std::map<std::size_t, std::size_t> declarationEnds_; ///< typedef/using token -> its `;`
};

// Whether a `(` group at `open` can be a C-style cast `(T) operand`, going by its neighbours:
// not a call or a declarator (after a name, `)` or `]`), not the operand of sizeof and
// friends, and followed by the start of an operand.
bool mayBeCStyleCast(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t open) {
    if (open > 0) {
        const Token& p = tokens[open - 1];
        if (p.isIdentifier() && !(p.isIdentifier("return") || p.isIdentifier("co_return") ||
                                  p.isIdentifier("co_yield") || p.isIdentifier("throw") || p.isIdentifier("case") ||
                                  p.isIdentifier("else") || p.isIdentifier("do")))
            return false;
        // After `if (...)` and the other statement heads a new expression starts.
        const bool afterCondition = p.isPunct(")") && partner[open - 1] != kNoToken && partner[open - 1] > 0 &&
                                    (tokens[partner[open - 1] - 1].isIdentifier("if") ||
                                     tokens[partner[open - 1] - 1].isIdentifier("while") ||
                                     tokens[partner[open - 1] - 1].isIdentifier("for") ||
                                     tokens[partner[open - 1] - 1].isIdentifier("switch"));
        if ((p.isPunct(")") && !afterCondition) || p.isPunct("]") || p.kind == TokenKind::Number ||
            p.kind == TokenKind::String || p.kind == TokenKind::Character)
            return false;
    }
    const Token& n = tokens[partner[open] + 1];
    if (n.kind == TokenKind::Number || n.kind == TokenKind::String || n.kind == TokenKind::Character) return true;
    if (n.isIdentifier())
        return !(n.isIdentifier("const") || n.isIdentifier("volatile") || n.isIdentifier("noexcept") ||
                 n.isIdentifier("override") || n.isIdentifier("final") || n.isIdentifier("requires"));
    static constexpr std::string_view kUnary[] = {"(", "::", "-", "+", "!", "~", "*", "&", "++", "--"};
    for (std::string_view u : kUnary)
        if (n.isPunct(u)) return true;
    return false;
}

// Whether tokens [begin, end) can be a type-id: names, keywords, `::`, `*`, `&`, and
// bracketed groups (template arguments, declarators, parameter lists, array bounds).
bool looksLikeTypeId(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                     std::size_t end) {
    if (begin >= end || !(tokens[begin].isIdentifier() || tokens[begin].isPunct("::"))) return false;
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = tokens[k];
        if ((t.isPunct("(") || t.isPunct("[")) && partner[k] != kNoToken) {
            k = partner[k];
        } else if (t.isPunct("<") && k > begin && tokens[k - 1].isIdentifier()) {
            std::size_t close = closingAngle(tokens, partner, k, end);
            if (close == kNoToken) return false;
            k = close;
        } else if (!(t.isIdentifier() || t.isPunct("::") || t.isPunct("*") || t.isPunct("&") || t.isPunct("&&"))) {
            return false;
        }
    }
    return true;
}

// The end of the first argument in tokens [begin, end): its top-level `,`, or `end`.
std::size_t firstArgumentEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                             std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = tokens[k];
        if (t.isPunct(",")) return k;
        if ((t.isPunct("(") || t.isPunct("[")) && partner[k] != kNoToken) {
            k = partner[k];
        } else if (t.isPunct("<") && k > begin && tokens[k - 1].isIdentifier()) {
            std::size_t close = closingAngle(tokens, partner, k, end);
            if (close != kNoToken) k = close;
        }
    }
    return end;
}

} // namespace

void checkFunctionPointerCasts(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                               Diagnostics& diagnostics) {
    const FunctionTypes types(tokens, partner, module);
    auto report = [&](std::size_t at, std::size_t begin, std::size_t end) {
        diagnostics.error(tokens[at].location, "kernel code cannot cast to a function pointer type ('" +
                                                   typeText(tokens, begin, end) + "')");
    };
    const std::size_t last = tokens.size() - 1; // the End token
    for (std::size_t i = 0; i + 1 < last; ++i) {
        i = types.skipDeclaration(i); // a typedef's own name is no functional cast
        const Token& t = tokens[i];
        const Token& next = tokens[i + 1];
        if ((t.isIdentifier("reinterpret_cast") || t.isIdentifier("bit_cast") || t.isIdentifier("as_type")) &&
            next.isPunct("<")) {
            std::size_t close = closingAngle(tokens, partner, i + 1, last);
            if (close != kNoToken && types.isFunctionPointer(i + 2, close)) report(i, i + 2, close);
        } else if (t.isIdentifier("__builtin_bit_cast") && next.isPunct("(") && partner[i + 1] != kNoToken) {
            std::size_t comma = firstArgumentEnd(tokens, partner, i + 2, partner[i + 1]);
            if (types.isFunctionPointer(i + 2, comma)) report(i, i + 2, comma);
        } else if (t.isPunct("(") && partner[i] != kNoToken && partner[i] > i && mayBeCStyleCast(tokens, partner, i) &&
                   looksLikeTypeId(tokens, partner, i + 1, partner[i]) && types.isFunctionPointer(i + 1, partner[i])) {
            report(i, i + 1, partner[i]);
        } else if (types.isAlias(t) && next.isPunct("(") &&
                   !(i > 0 && (tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("->")))) {
            report(i, i, i + 1); // a functional cast: fn_t(x)
        }
    }
}

} // namespace metalcpu::msl
