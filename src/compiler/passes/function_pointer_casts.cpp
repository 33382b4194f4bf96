#include "compiler/passes/function_pointer_casts.h"

#include "compiler/diagnostics.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
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

// What the target type of a cast may be, in increasing order.
enum class Target { None, Possible, Definite };

// Type-ids of the file, read well enough to tell whether they involve a function type.
class FunctionTypes {
public:
    FunctionTypes(const TokenList& tokens, const std::vector<std::size_t>& partner) : t_(tokens), partner_(partner) {
        collectAliases();
    }

    /// What tokens [begin, end), the target of a cast, may be: Definite for a pointer or
    /// reference to a function (an abstract declarator `(*)`, `(&)`, `(S::*)` followed by a
    /// parameter list, an alias of a function type), Possible for a type the front end cannot
    /// see through (decltype or typeof anywhere, an alias of one, template arguments that
    /// involve a function type: `ptr<void()>`, `P<void()>::type`), else None.
    Target classify(std::size_t begin, std::size_t end) const {
        Target found = Target::None;
        walk(begin, end, [&](std::size_t k) {
            const Token& t = t_[k];
            found = std::max(found, aliasTarget(t));
            if (isTypeofKeyword(t)) found = std::max(found, Target::Possible);
            if (t.isPunct("(") && isAbstractDeclarator(k) && partner_[k] + 1 < end && t_[partner_[k] + 1].isPunct("("))
                found = Target::Definite;
            if (startsTemplateArguments(k, begin)) {
                std::size_t close = closingAngle(t_, partner_, k, end);
                if (close != kNoToken && templateArgumentsInvolveFunction(k + 1, close))
                    found = std::max(found, Target::Possible);
            }
        });
        return found;
    }

    /// What the alias `t` names, when it is one of the file's aliases that may be a function
    /// pointer type.
    Target aliasTarget(const Token& t) const { return t.isIdentifier() ? targetOfName(t.spelling) : Target::None; }

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

    bool startsTemplateArguments(std::size_t k, std::size_t begin) const {
        return t_[k].isPunct("<") && k > begin && t_[k - 1].isIdentifier();
    }

    // Whether template arguments (tokens [begin, end), nested ones included) involve a
    // function type: a parameter list, an alias that may be a function pointer, decltype.
    // One pass over the tokens, however deeply the arguments nest.
    bool templateArgumentsInvolveFunction(std::size_t begin, std::size_t end) const {
        for (std::size_t k = begin; k < end; ++k) {
            const Token& t = t_[k];
            if (isTypeofKeyword(t) || aliasTarget(t) != Target::None) return true;
            if (takesOperand(t) && t_[k + 1].isPunct("(") && partner_[k + 1] != kNoToken) {
                k = partner_[k + 1];
            } else if (t.isPunct("(") && partner_[k] != kNoToken && isParameterList(k)) {
                return true;
            }
        }
        return false;
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

    // What the type of a typedef or alias declaration (tokens [begin, end)) may be: Definite
    // when it involves a function type of its own (a parameter list) or a Definite alias,
    // Possible through decltype, a Possible alias or template arguments with a function type.
    Target aliasTargetOf(std::size_t begin, std::size_t end) const {
        Target found = Target::None;
        walk(begin, end, [&](std::size_t k) {
            const Token& t = t_[k];
            found = std::max(found, aliasTarget(t));
            if (isTypeofKeyword(t)) found = std::max(found, Target::Possible);
            if (t.isPunct("(") && partner_[k] != kNoToken && !(k > begin && takesOperand(t_[k - 1])) &&
                isParameterList(k))
                found = Target::Definite;
            if (startsTemplateArguments(k, begin)) {
                std::size_t close = closingAngle(t_, partner_, k, end);
                if (close != kNoToken && templateArgumentsInvolveFunction(k + 1, close))
                    found = std::max(found, Target::Possible);
            }
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
        // Until nothing changes: an alias can only move up (None, Possible, Definite).
        for (bool changed = true; changed;) {
            changed = false;
            for (const Declaration& d : declarations) {
                if (d.names.empty()) continue;
                const Target target = aliasTargetOf(d.type.begin, d.type.end);
                if (target == Target::None || targetOfName(d.names.front()) >= target) continue;
                for (const std::string& name : d.names) aliases_[name] = target;
                changed = true;
            }
        }
    }

    const TokenList& t_;
    const std::vector<std::size_t>& partner_;
    Target targetOfName(const std::string& name) const {
        auto found = aliases_.find(name);
        return found == aliases_.end() ? Target::None : found->second;
    }

    std::map<std::string, Target> aliases_;
    std::map<std::size_t, std::size_t> declarationEnds_; ///< typedef/using token -> its `;`
};

// Whether a `(` group at `open` can be a C-style cast `(T) operand`, going by its neighbours:
// not a call or a declarator (after a name, `)` or `]`), not the operand of sizeof and
// friends, and followed by the start of an operand. After a group that may itself be a cast
// (`castOpens`, by its `(`) an operand starts: `(S)(fn_t)x` casts twice.
bool neighboursAllowCStyleCast(const TokenList& tokens, const std::vector<std::size_t>& partner,
                               const std::vector<bool>& castOpens, std::size_t open) {
    const bool afterCast = open > 0 && tokens[open - 1].isPunct(")") && partner[open - 1] != kNoToken &&
                           castOpens[partner[open - 1]];
    if (open > 0 && !afterCast) {
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
    // `[` starts a lambda: `(long (*)())[&] { return a[1]; }()` casts what it returns.
    static constexpr std::string_view kUnary[] = {"(", "::", "-", "+", "!", "~", "*", "&", "++", "--", "["};
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

// Whether the `(` at `open` may start a C-style cast, whose parenthesised type the check must
// read; `castOpens` holds the answers for the groups before it. The unit's CastOpen (not after
// a named cast's `>`: that `(` holds the operand) knows the casts whose type carries a mark (a
// type keyword, an address space, a trailing `*`); a cast to one of the file's aliases
// (`(fn_t)x`) carries none, so the neighbours' test and a type-id shape are asked too. This is
// a security check: either answer is enough.
bool mayBeCStyleCast(const Unit& unit, const std::vector<bool>& castOpens, std::size_t open) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    if (!tokens[open].isPunct("(") || partner[open] == kNoToken || partner[open] < open) return false;
    if (unit.role(open) == TokenRole::CastOpen && !(open > 0 && tokens[open - 1].isPunct(">"))) return true;
    return neighboursAllowCStyleCast(tokens, partner, castOpens, open) &&
           looksLikeTypeId(tokens, partner, open + 1, partner[open]);
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

void checkFunctionPointerCasts(const CheckContext& context) {
    const Unit& unit = context.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    Diagnostics& diagnostics = context.diagnostics;
    const FunctionTypes types(tokens, partner);
    auto report = [&](Target target, std::size_t at, std::size_t begin, std::size_t end) {
        const std::string type = typeText(tokens, begin, end);
        if (target == Target::Definite)
            diagnostics.error(tokens[at].location, "kernel code cannot cast to a function pointer type ('" + type + "')");
        else if (target == Target::Possible)
            diagnostics.error(tokens[at].location,
                              "kernel code cannot cast to '" + type +
                                  "': it may be a function pointer type (it is named through decltype or typeof, "
                                  "or has a function type among its template arguments)");
    };
    const std::size_t last = tokens.size() - 1; // the End token
    std::vector<bool> castOpens(tokens.size(), false); // by `(`: may start a C-style cast
    for (std::size_t i = 0; i + 1 < last; ++i) {
        i = types.skipDeclaration(i); // a typedef's own name is no functional cast
        const Token& t = tokens[i];
        const Token& next = tokens[i + 1];
        const bool member = unit.isAccessedMember(i);
        if (t.isPunct("(")) castOpens[i] = mayBeCStyleCast(unit, castOpens, i);
        if ((t.isIdentifier("reinterpret_cast") || t.isIdentifier("bit_cast") || t.isIdentifier("as_type")) &&
            next.isPunct("<")) {
            std::size_t close = closingAngle(tokens, partner, i + 1, last);
            if (close != kNoToken) report(types.classify(i + 2, close), i, i + 2, close);
        } else if (t.isIdentifier("__builtin_bit_cast") && next.isPunct("(") && partner[i + 1] != kNoToken) {
            std::size_t comma = firstArgumentEnd(tokens, partner, i + 2, partner[i + 1]);
            report(types.classify(i + 2, comma), i, i + 2, comma);
        } else if (castOpens[i]) {
            report(types.classify(i + 1, partner[i]), i, i + 1, partner[i]);
        } else if (types.aliasTarget(t) != Target::None && next.isPunct("(") && !member) {
            report(types.aliasTarget(t), i, i, i + 1); // a functional cast: fn_t(x)
        } else if (isTypeofKeyword(t) && next.isPunct("(") && partner[i + 1] != kNoToken &&
                   tokens[partner[i + 1] + 1].isPunct("(")) {
            report(Target::Possible, i, i, partner[i + 1] + 1); // decltype(x)(y)
        }
    }
}

} // namespace metalcpu::msl
