#include "compiler/unit.h"

#include "compiler/address_space.h"
#include "compiler/syntax.h"

#include <algorithm>
#include <string_view>

namespace metalcpu::msl {

namespace {

const Token kNone{};

const Token& at(const TokenList& tokens, std::size_t i) { return i < tokens.size() ? tokens[i] : kNone; }

/// Keywords after which an expression starts (so a name after them is used, not declared).
bool startsExpression(const Token& t) {
    for (std::string_view k : {"return", "co_return", "co_yield", "co_await", "case", "else", "do", "sizeof",
                               "alignof", "throw", "new", "delete", "goto", "typename", "template", "decltype",
                               "noexcept", "not", "and", "or", "xor", "bitand", "bitor", "compl", "not_eq",
                               "and_eq", "or_eq", "xor_eq", "operator", "using", "namespace", "struct", "class",
                               "union", "enum", "static_assert", "requires", "concept", "friend", "public",
                               "private", "protected", "typedef", "default", "explicit"})
        if (t.isIdentifier(k)) return true;
    return false;
}

/// Keywords whose `(` holds a condition, an operand or a declaration rather than arguments.
bool ownsParentheses(const Token& t) {
    for (std::string_view k : {"if", "for", "while", "switch", "catch", "sizeof", "alignof", "decltype", "noexcept",
                               "static_assert", "return", "co_return", "co_yield", "co_await", "throw", "requires",
                               "alignas", "typeid", "case", "else", "do", "__attribute__", "__attribute",
                               "__typeof__", "__typeof", "typeof", "_Pragma", "asm", "__asm__"})
        if (t.isIdentifier(k)) return true;
    return false;
}

/// Keywords after which an operand starts, so that `(type)` after them is a cast.
bool startsOperand(const Token& t) {
    for (std::string_view k : {"return", "co_return", "co_yield", "co_await", "throw", "case", "else", "do"})
        if (t.isIdentifier(k)) return true;
    return false;
}

bool isNamedCast(const Token& t) {
    return t.isIdentifier("static_cast") || t.isIdentifier("reinterpret_cast") || t.isIdentifier("const_cast") ||
           t.isIdentifier("dynamic_cast");
}

/// `const`, `volatile` and the restrict spellings, which may follow a declarator's `*`.
bool isCvQualifier(const Token& t) {
    return t.isIdentifier("const") || t.isIdentifier("volatile") || t.isIdentifier("restrict") ||
           t.isIdentifier("__restrict") || t.isIdentifier("__restrict__");
}

/// Whether `t` can start the operand of a unary operator before it.
bool startsUnaryOperand(const Token& t) {
    if (t.isIdentifier()) return !isCvQualifier(t);
    return t.kind == TokenKind::Number || t.kind == TokenKind::String || t.kind == TokenKind::Character ||
           t.isPunct("(") || t.isPunct("*") || t.isPunct("&") || t.isPunct("::") || t.isPunct("++") ||
           t.isPunct("--") || t.isPunct("-") || t.isPunct("+") || t.isPunct("!") || t.isPunct("~");
}

/// Whether `t` is a name or a literal, which a parenthesised expression cannot be followed by.
bool namesOrLiteral(const Token& t) {
    if (t.isIdentifier())
        return !isCppKeyword(t.spelling) || t.is("this") || t.is("true") || t.is("false") || t.is("nullptr") ||
               t.is("sizeof") || isNamedCast(t);
    return t.kind == TokenKind::Number || t.kind == TokenKind::String || t.kind == TokenKind::Character;
}

bool isStatementBoundary(const Token& t) {
    return t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.kind == TokenKind::Pragma;
}

/// The innermost unmatched `(`, `[` or `{` before `i`, or kNoToken.
std::size_t enclosingOpen(const TokenList& t, const std::vector<std::size_t>& partner, std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
        if ((t[k].isPunct(")") || t[k].isPunct("]") || t[k].isPunct("}")) && partner[k] < k) {
            k = partner[k];
        } else if (t[k].isPunct("(") || t[k].isPunct("[") || t[k].isPunct("{")) {
            return k;
        }
    }
    return kNoToken;
}

/// Whether the `<` at `angle` opens template arguments that close before the brackets around it
/// do: `foo<&x>(y)`; not `b = a < &x;` or `if (p < &end[0]) n = a > b;`. (Where a `>` follows
/// in the same brackets, `p < &a[i] && q > r`, telling needs name lookup: arguments.)
bool closesAsTemplateArguments(const TokenList& t, const std::vector<std::size_t>& partner, std::size_t angle) {
    if (!opensTemplateArguments(t, angle)) return false;
    const std::size_t open = enclosingOpen(t, partner, angle);
    const std::size_t limit = open == kNoToken || partner[open] == kNoToken ? t.size() : partner[open];
    return closingAngle(t, partner, angle, limit) != kNoToken;
}

/// Whether the `{` at `open` starts an initialiser list rather than a block or a class body.
bool opensInitialiser(const TokenList& t, std::size_t open) {
    const Token& p = at(t, open - 1);
    const Token& key = at(t, open - 2);
    if (key.isIdentifier("struct") || key.isIdentifier("class") || key.isIdentifier("union") || key.isIdentifier("enum"))
        return false;
    if (p.isPunct("=") || p.isPunct("(") || p.isPunct(",") || p.isPunct(">") || p.isIdentifier("return") ||
        (p.isIdentifier() && !isCppKeyword(p.spelling)))
        return true;
    return p.isPunct("{") && opensInitialiser(t, open - 1);
}

} // namespace

const char* tokenRoleName(TokenRole role) {
    switch (role) {
    case TokenRole::Unknown: return "unknown";
    case TokenRole::Keyword: return "keyword";
    case TokenRole::Attribute: return "attribute";
    case TokenRole::Name: return "name";
    case TokenRole::Declarator: return "declarator";
    case TokenRole::Member: return "member";
    case TokenRole::QualifiedPart: return "qualified-part";
    case TokenRole::Callee: return "callee";
    case TokenRole::CallOpen: return "call";
    case TokenRole::CastOpen: return "cast";
    case TokenRole::Subscript: return "subscript";
    case TokenRole::ArrayBound: return "array-bound";
    case TokenRole::LambdaIntroducer: return "lambda";
    case TokenRole::Assignment: return "assignment";
    case TokenRole::CompoundAssignment: return "compound-assignment";
    case TokenRole::Increment: return "increment";
    case TokenRole::Dereference: return "dereference";
    case TokenRole::AddressOf: return "address-of";
    }
    return "unknown";
}

Unit::Unit(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module)
    : tokens_(tokens), partner_(partner), module_(module), roles_(tokens.size(), TokenRole::Unknown),
      bodies_(module.functions.size()), statementStart_(tokens.size(), 0), bodyOwner_(tokens.size(), kNoToken) {
    classify();
    // Bodies, outer before inner, so an inner body's tokens end up owned by it.
    std::vector<std::size_t> order;
    for (std::size_t f = 0; f < module.functions.size(); ++f)
        if (module.functions[f].hasBody && module.functions[f].bodyOpen != kNoToken) order.push_back(f);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return module.functions[a].bodyOpen < module.functions[b].bodyOpen; });
    for (std::size_t f : order) {
        const FunctionDecl& d = module.functions[f];
        if (d.bodyClose == kNoToken || d.bodyClose >= tokens.size()) continue;
        for (std::size_t i = d.bodyOpen + 1; i < d.bodyClose; ++i) bodyOwner_[i] = f;
        bodies_[f] = parseBlock(tokens, partner, d.bodyOpen);
        if (bodies_[f]) {
            markStatements(*bodies_[f]);
        } else {
            ++lexicalBodies_;
            for (std::size_t i = d.bodyOpen + 1; i < d.bodyClose; ++i) statementStart_[i] = 2;
        }
    }
    // The bodies of lambdas and of local classes' member functions, inside simple statements of
    // those trees: trees of their own, outer bodies before the ones written in them (source
    // order), so that each body's starts are its own tree's.
    for (std::size_t f : order) {
        for (const NestedBody& b : findNestedBodies(*this, f)) {
            const std::vector<std::size_t> opens =
                b.kind == NestedBody::Kind::Lambda ? std::vector<std::size_t>{b.open} : b.memberBodies;
            for (std::size_t open : opens) {
                if (nestedBodies_.count(open)) continue;
                std::optional<std::vector<Statement>> tree = parseBlock(tokens, partner, open);
                if (!tree) continue; // judged as the body around it is
                for (std::size_t i = open + 1; i < partner[open]; ++i) statementStart_[i] = 0;
                markStatements(*tree);
                nestedBodies_.emplace(open, std::move(*tree));
            }
        }
    }
}

const std::vector<Statement>* Unit::nestedBody(std::size_t open) const {
    const auto found = nestedBodies_.find(open);
    return found == nestedBodies_.end() ? nullptr : &found->second;
}

void Unit::markStatements(const std::vector<Statement>& statements) {
    for (const Statement& s : statements) {
        if (s.keyword < statementStart_.size() && s.kind != StatementKind::Empty) statementStart_[s.keyword] = 1;
        markStatements(s.children);
    }
}

const std::vector<Statement>* Unit::body(std::size_t function) const {
    if (function >= bodies_.size() || !bodies_[function]) return nullptr;
    return &*bodies_[function];
}

bool Unit::startsStatement(std::size_t i) const {
    if (i >= statementStart_.size()) return false;
    if (statementStart_[i] != 2) return statementStart_[i] == 1;
    // A body the parser could not delimit: after a statement's end, a block's braces, a
    // label's colon or a pragma.
    const Token& p = at(tokens_, i - 1);
    return isStatementBoundary(p) || p.isPunct(":");
}

std::size_t Unit::functionAt(std::size_t i) const { return i < bodyOwner_.size() ? bodyOwner_[i] : kNoToken; }

bool Unit::isUnqualifiedName(std::size_t i) const {
    const TokenRole r = role(i);
    return r == TokenRole::Name || r == TokenRole::Declarator || r == TokenRole::Callee;
}

bool Unit::isOperandName(std::size_t i) const {
    if (isUnqualifiedName(i)) return true;
    const TokenRole r = role(i);
    return (r == TokenRole::Member || r == TokenRole::QualifiedPart) &&
           (!isCppKeyword(tokens_[i].spelling) || tokens_[i].is("this"));
}

bool Unit::isAccessedMember(std::size_t i) const {
    return role(i) == TokenRole::Member && isOperandName(i) &&
           (tokens_[i - 1].isPunct(".") || tokens_[i - 1].isPunct("->"));
}

bool Unit::castsOperand(std::size_t open) const {
    // `(type)operand`: a type inside (it ends with `*`/`&`, or holds a type keyword or an
    // address space) and an operand after.
    const TokenList& t = tokens_;
    const std::size_t close = partner_[open];
    if (close == kNoToken || close <= open + 1) return false;
    bool marked = false;
    for (std::size_t k = open + 1; k < close; ++k) {
        const Token& c = t[k];
        if (c.isIdentifier()) {
            if (isTypeKeyword(c.spelling) || supportedAddressSpaceOf(c))
                marked = true;
            else if (isCppKeyword(c.spelling) || (k + 1 < close && t[k + 1].isIdentifier()))
                return false;
        } else if (c.isPunct("*") || c.isPunct("&")) {
            marked = marked || k + 1 == close || t[k + 1].isPunct("*") || t[k + 1].isPunct("&") ||
                     t[k + 1].isIdentifier("const");
        } else if (!(c.isPunct("<") || c.isPunct(">") || c.isPunct("::") || c.isPunct(","))) {
            return false;
        }
    }
    const Token& after = at(t, close + 1);
    const bool operand = after.isIdentifier() || after.kind == TokenKind::Number || after.isPunct("(") ||
                         after.isPunct("-") || after.isPunct("*") || after.isPunct("&") || after.isPunct("!") ||
                         after.isPunct("~") || after.isPunct("+");
    if (marked && operand) return true;
    // `(fptr)p`, `(T)1`: only a cast is followed by a name or a literal. Where an expression
    // may start only: after a name or a keyword the group holds parameters (`void f(T) x`) or
    // a placement (`new (p) T`), and an attribute may follow.
    const Token& before = at(t, open - 1);
    const bool expressionStarts = !before.isIdentifier() || startsOperand(before);
    return expressionStarts && namesOrLiteral(after) && attributeEnd(t, partner_, close + 1) == kNoToken;
}

bool Unit::closesCStyleCast(std::size_t close) const {
    const std::size_t open = partner_[close];
    return open != kNoToken && open < close && roles_[open] == TokenRole::CastOpen &&
           !(open > 0 && tokens_[open - 1].isPunct(">"));
}

bool Unit::closesCondition(std::size_t close) const {
    const std::size_t open = partner_[close];
    if (open == kNoToken || open == 0 || open > close) return false;
    const Token& head = tokens_[open - 1];
    return head.isIdentifier("if") || head.isIdentifier("while") || head.isIdentifier("for") ||
           head.isIdentifier("switch");
}

bool Unit::groupsExpression(std::size_t open) const {
    if (open == 0 || open >= tokens_.size() || !tokens_[open].isPunct("(") || partner_[open] == kNoToken ||
        roles_[open] != TokenRole::Unknown)
        return false;
    // After a name the parentheses are a call's, a declarator's or a keyword's (`sizeof`, a
    // condition's `if`), unless an operand starts there (`return (x)++;`); after `)` a
    // call's or a parameter list's (`(*f)(T)`) unless a cast or a condition ends there (an
    // operand starts: `(float)(x)++`); after `]` a call's or a lambda's (`[](T)`).
    const Token& before = tokens_[open - 1];
    if (before.isIdentifier()) return startsOperand(before);
    if (before.isPunct(")")) return closesCStyleCast(open - 1) || closesCondition(open - 1);
    return !before.isPunct("]");
}

bool Unit::continuesPostfix(std::size_t last) const {
    const Token& next = at(tokens_, last + 1);
    return next.isPunct("[") || next.isPunct(".") || next.isPunct("->") || role(last + 1) == TokenRole::CallOpen;
}

bool Unit::startsTrailingReturnType(std::size_t arrow) const {
    const TokenList& t = tokens_;
    if (arrow == 0 || arrow >= t.size() || !t[arrow].isPunct("->")) return false;
    const auto closesLambdaIntroducer = [&](std::size_t close) {
        return t[close].isPunct("]") && partner_[close] != kNoToken && partner_[close] < close &&
               roles_[partner_[close]] == TokenRole::LambdaIntroducer;
    };
    std::size_t k = arrow - 1;
    for (;;) { // back over the specifiers after the parameters
        if (roles_[k] == TokenRole::Attribute) {
            while (k > 0 && roles_[k] == TokenRole::Attribute) --k;
        } else if (t[k].isPunct(")") && partner_[k] != kNoToken && partner_[k] > 0 && partner_[k] < k &&
                   t[partner_[k] - 1].isIdentifier("noexcept")) {
            k = partner_[k] - 2;
        } else if (t[k].isIdentifier("mutable") || t[k].isIdentifier("constexpr") || t[k].isIdentifier("consteval") ||
                   t[k].isIdentifier("static") || t[k].isIdentifier("noexcept") || isCvQualifier(t[k]) ||
                   t[k].isPunct("&") || t[k].isPunct("&&")) {
            --k;
        } else {
            break;
        }
        if (k == 0 || k >= t.size()) return false;
    }
    if (closesLambdaIntroducer(k)) return true; // `[] -> int { ... }`
    if (!t[k].isPunct(")") || partner_[k] == kNoToken || partner_[k] == 0 || partner_[k] > k) return false;
    const std::size_t before = partner_[k] - 1;
    if (roles_[before] == TokenRole::Declarator || closesLambdaIntroducer(before)) return true;
    if (!t[before].isPunct(">")) return false;
    // `[]<class T>(T x) -> T`: the `>` closes a template parameter list right after a lambda's
    // introducer (openingAngle() knows only lists after a name).
    int depth = 0;
    for (std::size_t j = before + 1; j-- > 0;) {
        if ((t[j].isPunct(")") || t[j].isPunct("]")) && partner_[j] != kNoToken && partner_[j] < j) {
            j = partner_[j];
        } else if (t[j].isPunct(">")) {
            ++depth;
        } else if (t[j].isPunct("<")) {
            if (--depth == 0) return j > 0 && closesLambdaIntroducer(j - 1);
        } else if (isStatementBoundary(t[j])) {
            return false;
        }
    }
    return false;
}

bool Unit::isDeclaratorOperator(std::size_t i) const {
    const TokenList& t = tokens_;
    if (i >= t.size() || !(t[i].isPunct("*") || t[i].isPunct("&") || t[i].isPunct("&&"))) return false;
    std::size_t k = i + 1;
    while (k < t.size() && (t[k].isPunct("*") || t[k].isPunct("&") || t[k].isPunct("&&") || isCvQualifier(t[k])))
        ++k;
    return role(k) == TokenRole::Declarator;
}

bool Unit::startsDeclaration(std::size_t typeEnd) const {
    // typeEnd is the last name of a would-be type (after any template arguments): walk back
    // over its qualifiers and the declaration's specifiers to what comes before.
    const TokenList& t = tokens_;
    std::size_t k = typeEnd;
    if (!t[k].isIdentifier() || startsExpression(t[k])) return false;
    while (k >= 2 && t[k - 1].isPunct("::") && t[k - 2].isIdentifier()) k -= 2;
    if (k > 0 && t[k - 1].isPunct("::")) --k;
    while (k > 0 && t[k - 1].isIdentifier() && !startsExpression(t[k - 1]) &&
           (isCppKeyword(t[k - 1].spelling) || supportedAddressSpaceOf(t[k - 1])))
        --k;
    const Token& before = at(t, k - 1);
    return k == 0 || isStatementBoundary(before) || before.isPunct("(") || before.isPunct(",") || before.isPunct(":") ||
           roles_[k - 1] == TokenRole::Attribute;
}

bool Unit::semicolonBetween(std::size_t open, std::size_t i) const {
    for (std::size_t k = open + 1; k < i; ++k) {
        if ((tokens_[k].isPunct("(") || tokens_[k].isPunct("[") || tokens_[k].isPunct("{")) && partner_[k] != kNoToken &&
            partner_[k] < i)
            k = partner_[k];
        else if (tokens_[k].isPunct(";"))
            return true;
    }
    return false;
}

bool Unit::continuesDeclaratorList(std::size_t comma) const {
    const TokenList& t = tokens_;
    for (std::size_t k = comma; k-- > 0;) {
        const Token& c = t[k];
        if ((c.isPunct(")") || c.isPunct("]") || c.isPunct("}")) && partner_[k] != kNoToken && partner_[k] < k) {
            if (c.isPunct("}") && !opensInitialiser(t, partner_[k])) return false; // a block ended
            k = partner_[k];
        } else if (c.isPunct(">")) {
            const std::size_t open = openingAngle(t, partner_, k, 0);
            if (open == kNoToken) return false;
            k = open;
        } else if (isStatementBoundary(c) || c.isPunct("(") || c.isPunct("[") || c.isPunct("{") || c.isPunct("<")) {
            return false; // the statement's start, or an argument list the comma is inside
        } else if (roles_[k] == TokenRole::Declarator) {
            return true;
        }
    }
    return false;
}

void Unit::classify() {
    const TokenList& t = tokens_;
    const std::size_t n = t.size();
    // Names the scanner knows are declared: functions.
    for (const FunctionDecl& f : module_.functions)
        if (f.nameToken < n && t[f.nameToken].isIdentifier()) roles_[f.nameToken] = TokenRole::Declarator;

    for (std::size_t i = 0; i < n; ++i) {
        const Token& tok = t[i];
        if (const std::size_t end = attributeEnd(t, partner_, i); end != kNoToken) {
            for (std::size_t k = i; k <= end && k < n; ++k) roles_[k] = TokenRole::Attribute;
            i = end;
            continue;
        }
        const Token& prev = i > 0 ? t[i - 1] : kNone;
        if (tok.isIdentifier()) {
            // `a.template f<T>()`, `n::template g<T>()`: `template` says only that a template's
            // name follows, and that name is the member or the qualified part.
            const bool disambiguator = tok.is("template") && (prev.isPunct(".") || prev.isPunct("->") ||
                                                              prev.isPunct(".*") || prev.isPunct("->*") ||
                                                              prev.isPunct("::"));
            const Token& join = prev.isIdentifier("template") && i >= 2 ? t[i - 2] : prev;
            if (disambiguator) {
                roles_[i] = TokenRole::Keyword;
            } else if (join.isPunct(".") || join.isPunct("->") || join.isPunct(".*") || join.isPunct("->*")) {
                roles_[i] = TokenRole::Member;
            } else if (join.isPunct("::")) {
                roles_[i] = TokenRole::QualifiedPart;
            } else if (isCppKeyword(tok.spelling) && !tok.is("this")) {
                roles_[i] = TokenRole::Keyword;
            } else if (roles_[i] != TokenRole::Declarator) {
                roles_[i] = TokenRole::Name;
            }
            if (roles_[i] == TokenRole::Keyword) continue;
            // A declared name: after a type (a name, `>`, or a `*`/`&` after one at the start
            // of a declaration) and before what follows a declarator. A `(` after it holds a
            // direct initialiser (`float4 acc(0.0f)`, `block_reducer<T, N> r(shared)`) or, in
            // `T f(U);`, parameters: either way the name is declared, not called. Where no
            // declaration can start (`x = a < b > f(c)`, `y = a * g(b)`) it is called.
            const Token& next = at(t, i + 1);
            const bool endsDeclarator = next.isPunct("=") || next.isPunct(";") || next.isPunct(",") ||
                                        next.isPunct("[") || next.isPunct("{") || next.isPunct(")") ||
                                        next.isPunct(":") || next.isPunct("(");
            if (roles_[i] == TokenRole::Name && endsDeclarator && i > 0) {
                bool declares = false;
                // `float (*p)[4]`, `void (*f)(int)`: a pointer to an array or a function, its
                // declarator in parentheses; the group, not the name, stands where the
                // declaration's context is judged.
                std::size_t group = kNoToken;
                if (prev.isPunct(","))
                    declares = continuesDeclaratorList(i - 1);
                else if (prev.isIdentifier())
                    declares = (!isCppKeyword(prev.spelling) || isTypeKeyword(prev.spelling)) && !startsExpression(prev) &&
                               !prev.is("this");
                else if (prev.isPunct(">")) {
                    // `vec<T, 2> v` declares only where a declaration starts: `i < n && x > y`
                    // after `=` or `return` compares.
                    const std::size_t open = openingAngle(t, partner_, i - 1, 0);
                    declares = open != kNoToken && open > 0 && startsDeclaration(open - 1);
                } else if ((prev.isPunct("*") || prev.isPunct("&") || prev.isPunct("&&")) && i >= 2) {
                    // `T* p` declares when the `*` follows a type at the start of a
                    // statement, a parameter or a member; `a * b` multiplies.
                    // After a comma, `float a, *b;`, it declares when the comma continues a
                    // declarator list.
                    std::size_t k = i - 2;
                    while (k > 0 && (t[k].isPunct("*") || t[k].isPunct("&") || isCvQualifier(t[k]))) --k;
                    if (t[k].isPunct("(") && k > 0 && partner_[k] == i + 1 &&
                        (at(t, i + 2).isPunct("[") || at(t, i + 2).isPunct("("))) {
                        group = k;
                        --k;
                    }
                    if (t[k].isPunct(">")) {
                        const std::size_t open = openingAngle(t, partner_, k, 0);
                        k = open == kNoToken || open == 0 ? k : open - 1;
                    }
                    declares = t[k].isPunct(",") ? continuesDeclaratorList(k) : startsDeclaration(k);
                }
                // `T* p`/`vec<T, 2> v` could start there, but not inside an expression: in a
                // call's arguments, in parentheses other than a parameter list, in brackets and
                // in an initialiser list, `f(a, b * c[i])`, `(x > y[i])`, `{a * b[i]}` are
                // operations.
                if (declares && !prev.isIdentifier()) {
                    const std::size_t open = enclosingOpen(t, partner_, group != kNoToken ? group : i);
                    if (open != kNoToken) {
                        const Token& o = t[open];
                        const Token& before = at(t, open - 1);
                        if (o.isPunct("["))
                            declares = false;
                        else if (o.isPunct("{"))
                            declares = !opensInitialiser(t, open);
                        else if (before.isIdentifier("for"))
                            declares = !semicolonBetween(open, i); // the init-statement only
                        else
                            declares = (before.isPunct("]") && partner_[open - 1] != kNoToken &&
                                        roles_[partner_[open - 1]] == TokenRole::LambdaIntroducer) ||
                                       (open > 0 && roles_[open - 1] == TokenRole::Declarator) ||
                                       before.isIdentifier("catch");
                    }
                }
                if (declares) roles_[i] = TokenRole::Declarator;
                // A direct initialiser calls a constructor or converts, as `T(x)` in `T v =
                // T(x)` does: its `(` is a call's, for the passes that ask whether code runs
                // there (per thread, maybe faulting), though the name before it is declared.
                if (declares && next.isPunct("(")) roles_[i + 1] = TokenRole::CallOpen;
                if (declares && group != kNoToken) {
                    // `T (*p)[2]`, `device T (&t)[4]`: read as a call of `T`, or as a name
                    // declared with a direct initialiser, before the name was known, it is neither.
                    roles_[group] = TokenRole::Unknown;
                    if (roles_[group - 1] == TokenRole::Callee || roles_[group - 1] == TokenRole::Declarator)
                        roles_[group - 1] = TokenRole::Name;
                }
            }
            continue;
        }
        if (tok.kind != TokenKind::Punctuator) continue;
        if (tok.isPunct("=")) {
            roles_[i] = TokenRole::Assignment;
        } else if (tok.isPunct("+=") || tok.isPunct("-=") || tok.isPunct("*=") || tok.isPunct("/=") ||
                   tok.isPunct("%=") || tok.isPunct("&=") || tok.isPunct("|=") || tok.isPunct("^=") ||
                   tok.isPunct("<<=")) {
            roles_[i] = TokenRole::CompoundAssignment;
        } else if (tok.isPunct(">") && at(t, i + 1).isPunct(">=") && !at(t, i + 1).spaceBefore) {
            roles_[i] = TokenRole::CompoundAssignment; // `>>=`, lexed `>` `>=`
            ++i;
        } else if (tok.isPunct("++") || tok.isPunct("--")) {
            roles_[i] = TokenRole::Increment;
        } else if (tok.isPunct("(")) {
            // After `return` and its kin, a condition or a C-style cast an operand starts, and
            // `(type)` there is a cast: `return (float)*p;`, `if (c) (float)*p;`, `(float)(int)*p`.
            if (prev.isIdentifier() && startsOperand(prev)) {
                if (castsOperand(i)) roles_[i] = TokenRole::CastOpen;
                continue;
            }
            if (prev.isIdentifier() && ownsParentheses(prev)) continue;
            // A declarator's parameters (no call, and no cast even where a specifier follows
            // them: `void g(int) const;`) or direct initialiser (a call, given above).
            if (prev.isIdentifier() && roles_[i - 1] == TokenRole::Declarator) continue;
            if (prev.isIdentifier() && (roles_[i - 1] == TokenRole::Name || roles_[i - 1] == TokenRole::QualifiedPart ||
                                        roles_[i - 1] == TokenRole::Member)) {
                // A member or qualified callee keeps its role: `a.f()` and `ns::f()` do not
                // name an `f` by themselves.
                roles_[i] = TokenRole::CallOpen;
                if (roles_[i - 1] == TokenRole::Name) roles_[i - 1] = TokenRole::Callee;
            } else if (prev.isPunct(">")) {
                const std::size_t open = openingAngle(t, partner_, i - 1, 0);
                if (open != kNoToken && open > 0) {
                    if (isNamedCast(t[open - 1])) {
                        roles_[i] = TokenRole::CastOpen;
                    } else if (t[open - 1].isIdentifier() && roles_[open - 1] != TokenRole::Declarator &&
                               roles_[open - 1] != TokenRole::Keyword) {
                        roles_[i] = TokenRole::CallOpen;
                        if (roles_[open - 1] == TokenRole::Name) roles_[open - 1] = TokenRole::Callee;
                    }
                }
            } else if (prev.isPunct(")") && i >= 2 && roles_[i - 2] == TokenRole::Declarator) {
                continue; // the parameters of `void (*f)(int)`
            } else if (prev.isPunct(")") || prev.isPunct("]")) {
                const std::size_t open = partner_[i - 1] == kNoToken ? i - 1 : partner_[i - 1];
                // After a cast or a condition an operand starts: a cast or a parenthesised
                // expression, never a call (`if (c) (a)[0] = 1;`, `(float)(y)`).
                const bool operandStarts = prev.isPunct(")") && (closesCStyleCast(i - 1) || closesCondition(i - 1));
                if (operandStarts) {
                    if (castsOperand(i)) roles_[i] = TokenRole::CastOpen;
                } else if (roles_[open] != TokenRole::LambdaIntroducer) {
                    roles_[i] = TokenRole::CallOpen;
                }
            } else if (castsOperand(i)) {
                roles_[i] = TokenRole::CastOpen;
            }
        } else if (tok.isPunct("[")) {
            if (prev.isIdentifier("operator") || prev.isIdentifier("delete") || prev.isIdentifier("new")) continue;
            const TokenRole pr = i > 0 ? roles_[i - 1] : TokenRole::Unknown;
            if (pr == TokenRole::Declarator || (prev.isPunct(")") && i >= 2 && roles_[i - 2] == TokenRole::Declarator)) {
                roles_[i] = TokenRole::ArrayBound; // `float a[4]`, `float (*p)[4]`
            } else if (prev.isPunct("]") && i > 0 && partner_[i - 1] != kNoToken &&
                       roles_[partner_[i - 1]] == TokenRole::ArrayBound) {
                roles_[i] = TokenRole::ArrayBound;
            } else if (pr == TokenRole::Name || pr == TokenRole::Member || pr == TokenRole::QualifiedPart ||
                       pr == TokenRole::Callee || prev.isIdentifier("this") || prev.isPunct(")") || prev.isPunct("]") ||
                       prev.kind == TokenKind::String) {
                roles_[i] = TokenRole::Subscript;
            } else if (partner_[i] != kNoToken) {
                const Token& after = at(t, partner_[i] + 1);
                if (after.isPunct("(") || after.isPunct("{") || after.isPunct("<") || after.isIdentifier("mutable") ||
                    after.isIdentifier("constexpr") || after.isIdentifier("noexcept") || after.isPunct("->"))
                    roles_[i] = TokenRole::LambdaIntroducer;
            }
        }
    }
    // Unary `*` and `&` last: they depend on the declarators after them and on the roles of
    // the operators before them.
    for (std::size_t i = 0; i < n; ++i)
        if ((t[i].isPunct("*") || t[i].isPunct("&")) && roles_[i] == TokenRole::Unknown) roles_[i] = unaryRole(i);
}

TokenRole Unit::unaryRole(std::size_t i) const {
    const TokenList& t = tokens_;
    const TokenRole unary = t[i].isPunct("*") ? TokenRole::Dereference : TokenRole::AddressOf;
    if (i == 0 || isDeclaratorOperator(i) || !startsUnaryOperand(at(t, i + 1))) return TokenRole::Unknown;
    const Token& p = t[i - 1];
    if (roles_[i - 1] == TokenRole::Attribute) return unary; // `[[likely]] *p = 0;`
    if (p.isIdentifier()) // `return *p`, `sizeof *p`; `a * b`, `T* p`, `float*`
        return roles_[i - 1] == TokenRole::Keyword && (startsOperand(p) || p.is("sizeof")) ? unary : TokenRole::Unknown;
    if (p.kind != TokenKind::Punctuator) return p.kind == TokenKind::Pragma ? unary : TokenRole::Unknown;
    if (p.isPunct(")")) return closesCStyleCast(i - 1) || closesCondition(i - 1) ? unary : TokenRole::Unknown;
    if (p.isPunct("]") || p.isPunct("::") || p.isPunct(".")) return TokenRole::Unknown;
    // After a postfix increment an operand ended: `a++ * b`; after a prefix one it starts: `++*p`.
    if (p.isPunct("++") || p.isPunct("--")) {
        const Token& q = at(t, i - 2);
        const bool postfix = isOperandName(i - 2) || q.isPunct("]") ||
                             (q.isPunct(")") && !closesCStyleCast(i - 2) && !closesCondition(i - 2));
        return i >= 2 && postfix ? TokenRole::Unknown : unary;
    }
    // After another operator: `a * *p`, `a & *p`, `**pp`. (Were the one before a declarator's,
    // this one would be too; a type's, as in `(float**)`, no operand would follow.)
    if (p.isPunct("*") || p.isPunct("&")) return unary;
    if (p.isPunct("<") || p.isPunct(">")) {
        // A comparison's operand (`a < *p`, `p < &x`, `a > *p`), not a template's: `foo<&x>`,
        // `vec<float, 2>* p` (p a declarator), `static_cast<vec<int, 2>*>(x)`.
        if (at(t, i - 2).isIdentifier("operator")) return TokenRole::Unknown;
        if (p.isPunct("<"))
            return unary == TokenRole::AddressOf && closesAsTemplateArguments(t, partner_, i - 1) ? TokenRole::Unknown
                                                                                                 : unary;
        const TokenRole next = role(i + 1);
        if (next == TokenRole::Name || next == TokenRole::Callee) return unary;
        return next != TokenRole::Declarator && openingAngle(t, partner_, i - 1, 0) == kNoToken ? unary
                                                                                               : TokenRole::Unknown;
    }
    return unary; // after `(`, `,`, `=`, `;`, `{`, `}`, `:`, `?`, `&&` and the other operators
}

} // namespace metalcpu::msl
