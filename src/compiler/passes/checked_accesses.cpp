#include "compiler/passes/checked_accesses.h"

#include "compiler/statements.h"
#include "compiler/syntax.h"

#include <string_view>

namespace metalcpu::msl {

namespace {

const Token kNone{};

const Token& at(const TokenList& tokens, std::size_t i) { return i < tokens.size() ? tokens[i] : kNone; }

int spaceNumber(std::string_view s) {
    if (s == "device") return 1;
    if (s == "constant") return 2;
    if (s == "threadgroup") return 3;
    return 0;
}

/// A name that can start or continue an expression (not a keyword but `this`).
bool isExpressionName(const Token& t) { return t.isIdentifier() && (!isCppKeyword(t.spelling) || t.is("this")); }

/// Keywords after which an expression starts.
bool isExpressionKeyword(const Token& t) {
    return t.isIdentifier("return") || t.isIdentifier("co_return") || t.isIdentifier("case") ||
           t.isIdentifier("else") || t.isIdentifier("do") || t.isIdentifier("co_yield") ||
           t.isIdentifier("co_await") || t.isIdentifier("sizeof");
}

bool isStatementBoundary(const Token& t) {
    return t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.kind == TokenKind::Pragma;
}

bool isAssignment(const Token& t) { return t.isPunct("="); }

bool isCompoundAssignment(const TokenList& tokens, std::size_t i) {
    const Token& t = tokens[i];
    static constexpr std::string_view kOps[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    for (std::string_view op : kOps)
        if (t.isPunct(op)) return true;
    // `>>` is always two tokens, so `>>=` arrives as `>` `>=`.
    return t.isPunct(">") && at(tokens, i + 1).isPunct(">=") && !at(tokens, i + 1).spaceBefore;
}

bool isIncrement(const Token& t) { return t.isPunct("++") || t.isPunct("--"); }

/// The first token of the postfix expression whose last token is `last` (an identifier, or a
/// `]`/`)` closing a subscript, call or parenthesised expression). kNoToken when it is not
/// an expression (a lambda introducer, say).
std::size_t postfixStart(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t last) {
    std::size_t s = last;
    for (;;) {
        const Token& t = tokens[s];
        if (t.isPunct("]") || t.isPunct(")")) {
            std::size_t open = partner[s];
            if (open == kNoToken || open == 0) return kNoToken;
            const Token& before = tokens[open - 1];
            if (before.isPunct(">")) return kNoToken; // f<T>(x): left unchecked
            if (isExpressionName(before) || before.isPunct("]") || before.isPunct(")")) {
                s = open - 1;
                continue;
            }
            if (t.isPunct(")")) return open; // a parenthesised primary expression
            return kNoToken;                 // `[...]` with no operand: a lambda introducer
        }
        if (isExpressionName(t)) {
            if (s >= 2 && (tokens[s - 1].isPunct(".") || tokens[s - 1].isPunct("->"))) {
                s -= 2;
                continue;
            }
            if (s >= 1 && tokens[s - 1].isPunct("::")) {
                if (s >= 2 && isExpressionName(tokens[s - 2])) {
                    s -= 2;
                    continue;
                }
                return s - 1; // ::name
            }
            return s;
        }
        return kNoToken;
    }
}

/// The last token of the postfix expression starting at `first`, or kNoToken.
std::size_t postfixEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t first) {
    std::size_t e;
    const Token& t = at(tokens, first);
    if (t.isPunct("(")) {
        e = partner[first];
        if (e == kNoToken) return kNoToken;
        // `(type)operand`: a cast applies to the postfix expression after it.
        const Token& next = at(tokens, e + 1);
        if (isExpressionName(next) || next.isPunct("(")) return postfixEnd(tokens, partner, e + 1);
    } else if (isExpressionName(t) || t.isPunct("::")) {
        e = first;
        if (t.isPunct("::")) ++e;
        while (at(tokens, e + 1).isPunct("::") && isExpressionName(at(tokens, e + 2))) e += 2;
    } else {
        return kNoToken;
    }
    for (;;) {
        const Token& n = at(tokens, e + 1);
        if ((n.isPunct("[") || n.isPunct("(")) && partner[e + 1] != kNoToken) {
            e = partner[e + 1];
        } else if ((n.isPunct(".") || n.isPunct("->")) && isExpressionName(at(tokens, e + 2))) {
            e += 2;
        } else if (isIncrement(n)) {
            e += 1;
        } else {
            return e;
        }
    }
}

/// Whether the expression [first, last] is written to: followed (after member accesses and
/// closing parentheses around it) by an assignment, or inside ++/--.
enum class Use { Load, Store, Update };
struct UseSite {
    Use use = Use::Load;
    std::size_t operatorToken = kNoToken; ///< the assignment or increment, for the column
};

UseSite useOf(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t first, std::size_t last) {
    std::size_t a = last + 1, b = first;
    for (;;) {
        if (at(tokens, a).isPunct(".") && isExpressionName(at(tokens, a + 1))) {
            a += 2;
        } else if (at(tokens, a).isPunct(")") && b > 0 && partner[a] == b - 1) {
            ++a;
            --b;
        } else {
            break;
        }
    }
    if (a < tokens.size()) {
        if (isAssignment(tokens[a])) return {Use::Store, a};
        if (isCompoundAssignment(tokens, a)) return {Use::Update, a};
        if (isIncrement(tokens[a])) return {Use::Update, a};
    }
    if (b > 0 && isIncrement(tokens[b - 1])) return {Use::Update, b - 1};
    return {};
}

/// Whether the token before an expression's first token `s` makes it a declarator instead
/// (`float a[4]`, `vec<float, 4> v[2]`, `float* p[2]`).
bool declaresBefore(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t s) {
    if (s == 0) return false;
    const Token& b = tokens[s - 1];
    if (b.isIdentifier()) return !isExpressionKeyword(b) && !b.is("this");
    auto typeAtStatementStart = [&](std::size_t typeEnd) {
        // typeEnd is the last token of a would-be type; it is one if it opens its statement.
        std::size_t t = typeEnd;
        if (tokens[t].isPunct(">")) {
            t = openingAngle(tokens, partner, t, 0);
            if (t == kNoToken || t == 0) return false;
            --t;
        }
        if (!tokens[t].isIdentifier()) return false;
        while (t >= 2 && tokens[t - 1].isPunct("::") && tokens[t - 2].isIdentifier()) t -= 2;
        // Qualifiers before the type, address spaces included: `device const float* p[2]`
        // declares an array of pointers, and `p[2]` is no access.
        while (t >= 1 && (tokens[t - 1].isIdentifier("const") || tokens[t - 1].isIdentifier("constexpr") ||
                          tokens[t - 1].isIdentifier("static") || tokens[t - 1].isIdentifier("volatile") ||
                          spaceNumber(tokens[t - 1].spelling) != 0 || tokens[t - 1].isIdentifier("thread")))
            --t;
        return t == 0 || isStatementBoundary(tokens[t - 1]) || tokens[t - 1].isPunct("(");
    };
    if (b.isPunct(">")) return typeAtStatementStart(s - 1);
    if ((b.isPunct("*") || b.isPunct("&")) && s >= 2) return typeAtStatementStart(s - 2);
    return false;
}

/// Whether the `*` or `&` at `i` is a unary operator (dereference, address-of).
bool isUnaryContext(const TokenList& tokens, std::size_t i) {
    if (i == 0) return false;
    const Token& p = tokens[i - 1];
    if (p.isIdentifier()) return isExpressionKeyword(p);
    if (p.kind != TokenKind::Punctuator) return p.kind == TokenKind::Pragma;
    if (p.isPunct(")") || p.isPunct("]") || p.isPunct("*") || p.isPunct("&") || p.isPunct(">") ||
        p.isPunct("<") || p.isPunct("::") || p.isPunct("."))
        return false;
    return true;
}

/// `float a, *b;`: a `*` after a comma that declares rather than dereferences.
bool declaresAfterComma(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    if (i == 0 || !tokens[i - 1].isPunct(",")) return false;
    // Walk back to the start of the statement (skipping bracketed groups); a declaration
    // starts with a type name followed by a declarator name.
    std::size_t k = i - 1;
    while (k > 0) {
        const Token& t = tokens[k - 1];
        if (t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) {
            if (t.isPunct("}")) break;
            std::size_t open = partner[k - 1];
            if (open == kNoToken) break;
            k = open;
            continue;
        }
        if (isStatementBoundary(t) || t.isPunct("(")) break;
        --k;
    }
    return tokens[k].isIdentifier() && at(tokens, k + 1).isIdentifier();
}

/// The innermost function whose body holds token `i`.
const FunctionDecl* functionAt(const Module& module, std::size_t i) {
    const FunctionDecl* best = nullptr;
    for (const FunctionDecl& f : module.functions) {
        if (!f.hasBody || f.bodyOpen == kNoToken || i <= f.bodyOpen || i >= f.bodyClose) continue;
        if (!best || f.bodyOpen > best->bodyOpen) best = &f;
    }
    return best;
}

/// Adds the site of an access to `sites` and returns how the access names it.
std::string siteText(const Token& where, const FunctionDecl* function, std::vector<AccessSite>& sites) {
    AccessSite site;
    site.file = where.location.file;
    site.function = function ? function->name : std::string();
    site.line = where.location.line;
    site.column = where.location.column;
    sites.push_back(std::move(site));
    return "::__mc_sites[" + std::to_string(sites.size() - 1) + "]";
}

const char* functionFor(Use use) {
    switch (use) {
    case Use::Store: return "::metalcpu_kernel::store(";
    case Use::Update: return "::metalcpu_kernel::update(";
    case Use::Load: break;
    }
    return "::metalcpu_kernel::load(";
}

bool inBody(const Module& module, std::size_t i) { return functionAt(module, i) != nullptr; }

/// The name of a parameter declared as an array in an address space (`device float a[]`,
/// `constant int k[4]`), whose address space is at `space` and whose type and name end before
/// `j`, or kNoToken.
std::size_t arrayParameterName(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t space,
                               std::size_t j) {
    if (j < space + 3 || !at(tokens, j).isPunct("[") || partner[j] == kNoToken) return kNoToken;
    const Token& after = at(tokens, partner[j] + 1);
    const bool attribute = after.isPunct("[") && at(tokens, partner[j] + 2).isPunct("[");
    if (!after.isPunct(",") && !after.isPunct(")") && !attribute) return kNoToken;
    const std::size_t name = j - 1;
    if (!tokens[name].isIdentifier() || isCppKeyword(tokens[name].spelling)) return kNoToken;
    const Token& typeEnd = tokens[name - 1];
    return typeEnd.isIdentifier() || typeEnd.isPunct(">") ? name : kNoToken;
}

} // namespace

void rewriteCheckedPointerTypes(TokenList& tokens, const std::vector<std::size_t>& partner) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        Token& t = tokens[i];
        const int space = t.isIdentifier() ? spaceNumber(t.spelling) : 0;
        if (space == 0 || !isUnqualifiedName(tokens, i)) continue;
        bool constInside = false;
        std::size_t j = i + 1;
        bool sawType = false;
        bool placeholder = false;
        for (;;) {
            const Token& n = at(tokens, j);
            if (n.isIdentifier("const") || n.isIdentifier("volatile")) {
                constInside = constInside || n.isIdentifier("const");
                ++j;
            } else if (n.isIdentifier("typename") || n.isPunct("::")) {
                ++j;
            } else if (n.isIdentifier() && (!isCppKeyword(n.spelling) || isTypeKeyword(n.spelling))) {
                sawType = true;
                placeholder = placeholder || n.isIdentifier("auto");
                ++j;
                if (at(tokens, j).isPunct("<")) {
                    std::size_t close = closingAngle(tokens, partner, j, tokens.size());
                    if (close == kNoToken) break;
                    j = close + 1;
                }
            } else {
                break;
            }
        }
        Token& star = tokens[j < tokens.size() ? j : tokens.size() - 1];
        // `device float a[] [[buffer(0)]]`: an array parameter is a pointer; the type loop took
        // its name for part of the type.
        const std::size_t arrayName = arrayParameterName(tokens, partner, i, j);
        if (arrayName != kNoToken) {
            // Erased whole: a kernel's explicit instantiation, which the glue replaces (its
            // address-space token is erased too, and must stay so).
            if (tokens[j].erased) continue;
            tokens[arrayName - 1].suffix += ", " + std::to_string(space) + ">";
            for (std::size_t k = j; k <= partner[j]; ++k) tokens[k].erased = true;
        } else if (!sawType || !star.isPunct("*") || star.erased) {
            continue;
        } else if (placeholder) {
            // `const constant auto* p = in;`: a checked pointer cannot hold `auto`, and `auto*`
            // deduces nothing from one; `auto p = in;` deduces the checked pointer itself.
            for (std::size_t k = i; k > 0 && (tokens[k - 1].isIdentifier("const") || tokens[k - 1].isIdentifier("volatile"));
                 --k)
                tokens[k - 1].erased = true;
            for (std::size_t k = i; k <= j; ++k)
                if (!tokens[k].isIdentifier("auto")) tokens[k].erased = true;
            continue;
        }
        // `const device T*`, `volatile device atomic_int*`: qualifiers written before the address
        // space qualify the pointee, so they go inside, where templates deduce T the same way
        // (left outside, `volatile` would qualify the checked pointer object itself).
        std::string volatileInside;
        for (std::size_t k = i; k > 0 && !tokens[k - 1].erased &&
                                (tokens[k - 1].isIdentifier("const") || tokens[k - 1].isIdentifier("volatile"));
             --k) {
            tokens[k - 1].erased = true;
            if (tokens[k - 1].isIdentifier("const")) constInside = true;
            else volatileInside = "volatile ";
        }
        const bool addConst = space == 2 && !constInside;
        t.erased = false;
        t.text = std::string("::metalcpu_kernel::checked_ptr<") + (addConst || constInside ? "const " : "") +
                 volatileInside;
        if (constInside) // the const written inside now comes first; drop the original
            for (std::size_t k = i + 1; k < j; ++k)
                if (tokens[k].isIdentifier("const")) tokens[k].erased = true;
        if (arrayName == kNoToken) star.text = ", " + std::to_string(space) + ">";

        // reinterpret_cast<device T*>(x) and friends.
        for (std::size_t k = i; k-- > 0;) {
            if (tokens[k].isPunct("<") && k > 0) {
                const Token& cast = tokens[k - 1];
                if ((cast.isIdentifier("reinterpret_cast") || cast.isIdentifier("static_cast") ||
                     cast.isIdentifier("const_cast")) &&
                    closingAngle(tokens, partner, k, tokens.size()) > j)
                    tokens[k - 1].text = "::metalcpu_kernel::pointer_cast";
                break;
            }
            if (!tokens[k].isIdentifier() && !tokens[k].isPunct("::")) break;
        }
    }
}

std::string accessSiteTable(const std::vector<AccessSite>& sites, const FileTable& files) {
    if (sites.empty()) return {};
    std::string out = "static const ::mc_site __mc_sites[] = {\n";
    for (const AccessSite& s : sites)
        out += "    {" + quoteString(files.reportedName(s.file)) + ", " + quoteString(s.function) + ", " +
               std::to_string(s.line) + "u, " + std::to_string(s.column) + "u},\n";
    return out + "};\n";
}

void rewriteCheckedAccesses(TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                            std::vector<AccessSite>& sites) {
    for (std::size_t k = 1; k + 1 < tokens.size(); ++k) {
        Token& t = tokens[k];
        if (t.erased || t.kind != TokenKind::Punctuator) continue;

        if (t.isPunct("[")) {
            const std::size_t close = partner[k];
            if (close == kNoToken || tokens[k - 1].isPunct("[") || tokens[k + 1].isPunct("[")) continue;
            const Token& before = tokens[k - 1];
            if (!(isExpressionName(before) || before.isPunct("]") || before.isPunct(")"))) continue;
            if (!inBody(module, k)) continue;
            const std::size_t s = postfixStart(tokens, partner, k - 1);
            if (s == kNoToken || declaresBefore(tokens, partner, s)) continue;
            const FunctionDecl* function = functionAt(module, k);
            const Token& next = at(tokens, close + 1);
            const bool lastInChain =
                !next.isPunct("[") && !next.isPunct(".") && !next.isPunct("->") && !next.isPunct("(");
            if (lastInChain && s > 0 && tokens[s - 1].isPunct("&") && isUnaryContext(tokens, s - 1)) {
                tokens[s - 1].erased = true;
                tokens[s].prefix = "::metalcpu_kernel::address_of(" + tokens[s].prefix;
                t.text = ", ";
                tokens[close].text = ")";
                continue;
            }
            UseSite use = lastInChain || next.isPunct(".") ? useOf(tokens, partner, s, close) : UseSite{};
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken]
                                 : before.isIdentifier()       ? before
                                                               : tokens[s];
            tokens[s].prefix = functionFor(use.use) + tokens[s].prefix;
            t.text = ", ";
            tokens[close].text = ", " + siteText(where, function, sites) + ")";
        } else if (t.isPunct("*")) {
            if (!isUnaryContext(tokens, k) || declaresAfterComma(tokens, partner, k) || !inBody(module, k)) continue;
            const std::size_t last = postfixEnd(tokens, partner, k + 1);
            if (last == kNoToken) continue;
            // `void (*f)(int)` declares a function pointer.
            if (tokens[k - 1].isPunct("(") && at(tokens, last + 1).isPunct(")") && at(tokens, last + 2).isPunct("("))
                continue;
            UseSite use = useOf(tokens, partner, k, last);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : t;
            t.text = functionFor(use.use);
            tokens[last].suffix += ", 0, " + siteText(where, functionAt(module, k), sites) + ")";
        } else if (t.isPunct("->")) {
            const Token& before = tokens[k - 1];
            if (!(isExpressionName(before) || before.isPunct("]"))) continue; // `) ->`: a trailing return type
            if (!isExpressionName(at(tokens, k + 1)) || !inBody(module, k)) continue;
            const std::size_t s = postfixStart(tokens, partner, k - 1);
            if (s == kNoToken) continue;
            UseSite use = useOf(tokens, partner, s, k + 1);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : tokens[k + 1];
            tokens[s].prefix = functionFor(use.use) + tokens[s].prefix;
            t.text = ", 0, " + siteText(where, functionAt(module, k), sites) + ").";
        }
    }
}

} // namespace metalcpu::msl
