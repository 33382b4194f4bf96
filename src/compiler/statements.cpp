#include "compiler/statements.h"

#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <string_view>

namespace metalcpu::msl {

namespace {

class StatementParser {
public:
    StatementParser(const TokenList& tokens, const std::vector<std::size_t>& partner)
        : tokens_(tokens), partner_(partner) {}

    // The statement starting at `i` (before `limit`, the enclosing `}`). Statements nested
    // deeper than kMaxDepth (ifs, labels, loops, blocks) are not delimited: the pass that asked
    // keeps its fallback, and the recursion here and in the tree's users stays shallow.
    std::optional<Statement> parse(std::size_t i, std::size_t limit) {
        if (depth_ >= kMaxDepth) return std::nullopt;
        ++depth_;
        std::optional<Statement> s = statement(i, limit);
        --depth_;
        return s;
    }

    std::optional<Statement> statement(std::size_t i, std::size_t limit) {
        Statement s;
        s.tokens.begin = i;
        while (i < limit && (tokens_[i].kind == TokenKind::Pragma || startsAttributeSpec(tokens_, i))) {
            if (tokens_[i].kind == TokenKind::Pragma) {
                ++i;
            } else {
                if (partner_[i] == kNoToken) return std::nullopt;
                i = partner_[i] + 1;
            }
        }
        s.keyword = i;
        if (i == limit) { // trailing pragmas
            s.kind = StatementKind::Empty;
            s.tokens.end = i;
            return s;
        }
        const Token& t = tokens_[i];
        if (t.isPunct("{")) {
            auto children = block(i);
            if (!children) return std::nullopt;
            s.kind = StatementKind::Compound;
            s.children = std::move(*children);
            s.tokens.end = partner_[i] + 1;
            return s;
        }
        if (t.isPunct(";")) {
            s.kind = StatementKind::Empty;
            s.tokens.end = i + 1;
            return s;
        }
        if (t.isIdentifier("if")) {
            std::size_t open = i + 1;
            if (tokens_[open].isIdentifier("constexpr")) ++open;
            if (!parenthesized(s, open, limit)) return std::nullopt;
            auto then = parse(partner_[open] + 1, limit);
            if (!then) return std::nullopt;
            std::size_t end = then->tokens.end;
            s.children.push_back(std::move(*then));
            if (end < limit && tokens_[end].isIdentifier("else")) {
                auto otherwise = parse(end + 1, limit);
                if (!otherwise) return std::nullopt;
                end = otherwise->tokens.end;
                s.children.push_back(std::move(*otherwise));
            }
            s.kind = StatementKind::If;
            s.tokens.end = end;
            return s;
        }
        if (t.isIdentifier("for") || t.isIdentifier("while") || t.isIdentifier("switch")) {
            if (!parenthesized(s, i + 1, limit)) return std::nullopt;
            auto body = parse(partner_[i + 1] + 1, limit);
            if (!body) return std::nullopt;
            s.kind = t.isIdentifier("for")     ? StatementKind::For
                     : t.isIdentifier("while") ? StatementKind::While
                                               : StatementKind::Switch;
            s.tokens.end = body->tokens.end;
            s.children.push_back(std::move(*body));
            return s;
        }
        if (t.isIdentifier("do")) {
            auto body = parse(i + 1, limit);
            if (!body) return std::nullopt;
            std::size_t w = body->tokens.end;
            if (w + 1 >= limit || !tokens_[w].isIdentifier("while") || !parenthesized(s, w + 1, limit))
                return std::nullopt;
            std::size_t semicolon = partner_[w + 1] + 1;
            if (semicolon >= limit || !tokens_[semicolon].isPunct(";")) return std::nullopt;
            s.kind = StatementKind::Do;
            s.tokens.end = semicolon + 1;
            s.children.push_back(std::move(*body));
            return s;
        }
        if (t.isIdentifier("case") || t.isIdentifier("default") ||
            (t.isIdentifier() && !isCppKeyword(t.spelling) && i + 1 < limit && tokens_[i + 1].isPunct(":"))) {
            // `case x:` may hold `::` but never a lone `:` before its own.
            std::size_t colon = i + 1;
            while (colon < limit && !tokens_[colon].isPunct(":")) {
                if (partner_[colon] != kNoToken && partner_[colon] > colon) colon = partner_[colon];
                ++colon;
            }
            if (colon >= limit) return std::nullopt;
            auto labelled = parse(colon + 1, limit);
            if (!labelled) return std::nullopt;
            s.kind = StatementKind::Labeled;
            s.tokens.end = labelled->tokens.end;
            s.children.push_back(std::move(*labelled));
            return s;
        }
        std::size_t end = simpleStatementEnd(tokens_, partner_, i, limit);
        if (end == kNoToken) return std::nullopt;
        s.tokens.end = end + 1;
        s.kind = t.isIdentifier("return") || t.isIdentifier("co_return") ? StatementKind::Return
                 : t.isIdentifier("break")                                ? StatementKind::Break
                 : t.isIdentifier("continue")                             ? StatementKind::Continue
                 : t.isIdentifier("goto")                                 ? StatementKind::Goto
                                                                          : StatementKind::Simple;
        return s;
    }

    std::optional<std::vector<Statement>> block(std::size_t open) {
        if (open >= tokens_.size() || !tokens_[open].isPunct("{") || partner_[open] == kNoToken)
            return std::nullopt;
        const std::size_t close = partner_[open];
        std::vector<Statement> out;
        for (std::size_t i = open + 1; i < close;) {
            auto s = parse(i, close);
            if (!s || s->tokens.end <= i) return std::nullopt;
            i = s->tokens.end;
            out.push_back(std::move(*s));
        }
        return out;
    }

private:
    static constexpr int kMaxDepth = 256;

    // Records the parenthesised header at `open` in `s`.
    bool parenthesized(Statement& s, std::size_t open, std::size_t limit) {
        if (open >= limit || !tokens_[open].isPunct("(") || partner_[open] == kNoToken || partner_[open] >= limit)
            return false;
        s.header = {open + 1, partner_[open]};
        return true;
    }

    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    int depth_ = 0;
};

} // namespace

std::size_t simpleStatementEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                               std::size_t limit) {
    for (; i < limit; ++i) {
        const Token& t = tokens[i];
        if (t.isPunct(";")) return i;
        if (t.isPunct("}") || t.kind == TokenKind::Pragma) return kNoToken;
        if (partner[i] != kNoToken) {
            if (partner[i] < i) return kNoToken;
            i = partner[i];
        }
    }
    return kNoToken;
}

std::optional<std::vector<Statement>> parseBlock(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                 std::size_t open) {
    return StatementParser(tokens, partner).block(open);
}

std::optional<Declaration> parseDeclaration(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                            const Statement& s) {
    if (s.kind != StatementKind::Simple) return std::nullopt;
    return parseDeclaration(tokens, partner, s.keyword, s.tokens.end - 1);
}

std::optional<Declaration> parseDeclaration(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                            std::size_t begin, std::size_t end) {
    if (begin >= end) return std::nullopt;
    const std::size_t keyword = begin;
    std::size_t i = begin;
    const Token& first = tokens[i];
    if (!first.isIdentifier() && !first.isPunct("::")) return std::nullopt;
    static constexpr std::string_view kNotDeclarations[] = {
        "return", "throw", "delete", "new", "sizeof", "alignof", "co_await", "co_yield", "this", "typedef",
        "using", "static_assert", "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "operator"};
    for (std::string_view word : kNotDeclarations)
        if (first.isIdentifier(word)) return std::nullopt;

    // Specifiers, type and the first declarator's `*`/`&`, up to the name.
    std::size_t name = kNoToken;
    for (; i < end; ++i) {
        const Token& t = tokens[i];
        if (t.isIdentifier()) {
            name = i;
        } else if (t.isPunct("<") && name != kNoToken) {
            std::size_t close = closingAngle(tokens, partner, i, end);
            if (close == kNoToken) return std::nullopt;
            i = close;
            name = kNoToken;
        } else if (t.isPunct("::") || t.isPunct("*") || t.isPunct("&") || t.isPunct("&&")) {
            name = kNoToken;
        } else {
            break;
        }
    }
    if (name == kNoToken || name == keyword || i >= tokens.size()) return std::nullopt;
    const Token& before = tokens[name - 1];
    if (!(before.isIdentifier() || before.isPunct(">") || before.isPunct("*") || before.isPunct("&") ||
          before.isPunct("&&")))
        return std::nullopt;
    if (isCppKeyword(tokens[name].spelling)) return std::nullopt; // `unsigned int;` and such
    const Token& after = tokens[i];
    if (!(after.isPunct("=") || after.isPunct("{") || after.isPunct("(") || after.isPunct("[") ||
          after.isPunct(";") || after.isPunct(",")))
        return std::nullopt;

    Declaration d;
    d.type = {keyword, name};
    d.names.push_back(name);
    d.isArray = after.isPunct("[");
    // The rest: initializers, array bounds and further declarators after top-level commas.
    for (std::size_t k = name + 1; k < end; ++k) {
        const Token& t = tokens[k];
        if (partner[k] != kNoToken && partner[k] > k) {
            if (t.isPunct("{") || t.isPunct("(")) d.hasInitializer = d.hasInitializer || d.names.size() == 1;
            k = partner[k];
        } else if (t.isPunct("=")) {
            if (d.names.size() == 1) d.hasInitializer = true;
        } else if (t.isPunct("<") && k > 0 && tokens[k - 1].isIdentifier()) {
            std::size_t close = closingAngle(tokens, partner, k, end);
            if (close != kNoToken) k = close;
        } else if (t.isPunct(",")) {
            std::size_t n = k + 1;
            while (n < end && (tokens[n].isPunct("*") || tokens[n].isPunct("&") || tokens[n].isPunct("&&") ||
                               tokens[n].isIdentifier("const")))
                ++n;
            if (n >= end || !tokens[n].isIdentifier()) return std::nullopt;
            d.names.push_back(n);
            k = n;
        }
    }
    return d;
}

DeclaratorParts declaratorParts(const TokenList& tokens, const std::vector<std::size_t>& partner, const Declaration& d,
                                std::size_t k, std::size_t end) {
    DeclaratorParts parts;
    // The shared part ends at the first declarator's first `*`/`&` outside template angles.
    std::size_t shared = d.type.begin;
    for (; shared < d.type.end; ++shared) {
        const Token& t = tokens[shared];
        if (t.isPunct("*") || t.isPunct("&") || t.isPunct("&&")) break;
        if (t.isPunct("<") && shared > d.type.begin && tokens[shared - 1].isIdentifier()) {
            const std::size_t close = closingAngle(tokens, partner, shared, d.type.end);
            if (close != kNoToken) shared = close;
        }
    }
    parts.specifiers = {d.type.begin, shared};
    parts.name = d.names[k];
    // Declarators after the first start after their `,` (parseDeclaration() skipped these
    // tokens to reach the name).
    std::size_t begin = parts.name;
    if (k == 0) {
        begin = shared;
    } else {
        while (!tokens[begin - 1].isPunct(",")) --begin;
    }
    parts.pointer = {begin, parts.name};
    std::size_t i = parts.name + 1;
    while (i < end && tokens[i].isPunct("[") && partner[i] != kNoToken) i = partner[i] + 1;
    parts.bounds = {parts.name + 1, i};
    std::size_t last = end; // this declarator's `,`, or the declaration's end
    if (k + 1 < d.names.size()) {
        last = d.names[k + 1];
        while (!tokens[last].isPunct(",")) --last;
    }
    parts.initializer = {i, last};
    return parts;
}

bool isUnqualifiedName(const TokenList& tokens, std::size_t i) {
    if (!tokens[i].isIdentifier() || i == 0) return tokens[i].isIdentifier();
    const Token& p = tokens[i - 1];
    return !(p.isPunct(".") || p.isPunct("->") || p.isPunct("::") || p.isPunct(".*") || p.isPunct("->*"));
}

namespace {

// The `{` that opens a body after a head starting at `j`: parenthesised parts, attributes,
// template angles and the tokens `inHead` accepts, up to `limit`; kNoToken when another token
// comes first.
template <typename InHead>
std::size_t bodyAfterHead(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t j,
                          std::size_t limit, InHead inHead) {
    while (j < limit) {
        const Token& t = tokens[j];
        if (t.isPunct("{")) return j;
        if (t.isPunct("(") || startsAttributeSpec(tokens, j)) {
            if (partner[j] == kNoToken) return kNoToken;
            j = partner[j] + 1;
        } else if (t.isPunct("<")) {
            std::size_t close = closingAngle(tokens, partner, j, limit);
            if (close == kNoToken) return kNoToken;
            j = close + 1;
        } else if (inHead(t)) {
            ++j;
        } else {
            return kNoToken;
        }
    }
    return kNoToken;
}

// The `{` of the lambda whose introducer `[` is at `open`, or kNoToken when none follows:
// `[...]`, then optionally `<...>` and `(...)`, then specifiers, attributes, noexcept(...)
// and a trailing return type, then the body.
std::size_t lambdaBody(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t open,
                       std::size_t limit) {
    if (partner[open] == kNoToken) return kNoToken;
    return bodyAfterHead(tokens, partner, partner[open] + 1, limit, [](const Token& t) {
        return t.isIdentifier() || t.isPunct("->") || t.isPunct("::") || t.isPunct("*") || t.isPunct("&") ||
               t.isPunct("&&");
    });
}

// The `{` of the class body whose `struct`/`class`/`union` keyword is at `keyword`, or
// kNoToken when the keyword does not start a class definition (`struct S s;`): a name,
// template arguments, attributes and base classes come between.
std::size_t classBody(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t keyword,
                      std::size_t limit) {
    return bodyAfterHead(tokens, partner, keyword + 1, limit, [](const Token& t) {
        return t.isIdentifier() || t.isPunct("::") || t.isPunct(":") || t.isPunct(",");
    });
}

} // namespace

std::vector<NestedBody> findNestedBodies(const Unit& unit, std::size_t function) {
    std::vector<NestedBody> out;
    const FunctionDecl& f = unit.module().functions[function];
    if (!f.hasBody || f.bodyOpen == kNoToken || f.bodyClose == kNoToken) return out;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        NestedBody nested;
        if (unit.role(i) == TokenRole::LambdaIntroducer) {
            nested.kind = NestedBody::Kind::Lambda;
            nested.open = lambdaBody(tokens, partner, i, f.bodyClose);
        } else if (unit.role(i) == TokenRole::Keyword &&
                   (tokens[i].isIdentifier("struct") || tokens[i].isIdentifier("class") ||
                    tokens[i].isIdentifier("union"))) {
            nested.kind = NestedBody::Kind::LocalClass;
            nested.open = classBody(tokens, partner, i, f.bodyClose);
        }
        if (nested.open == kNoToken || partner[nested.open] == kNoToken) continue;
        nested.tokens = {i, partner[nested.open] + 1};
        if (nested.kind == NestedBody::Kind::LocalClass)
            for (const FunctionDecl& member : scanClassMembers(tokens, partner, nested.open))
                if (member.hasBody && member.classBody == nested.open) nested.memberBodies.push_back(member.bodyOpen);
        out.push_back(nested);
    }
    return out;
}

bool inNestedBody(const std::vector<NestedBody>& bodies, NestedBody::Kind kind, std::size_t i) {
    for (const NestedBody& b : bodies)
        if (b.kind == kind && b.tokens.begin <= i && i < b.tokens.end) return true;
    return false;
}

std::vector<StaticLocal> findStaticLocals(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                          TokenRange body) {
    std::vector<StaticLocal> out;
    for (std::size_t i = body.begin + 1; i + 1 < body.end; ++i) {
        if (!tokens[i].isIdentifier("static")) continue;
        const Token& p = tokens[i - 1];
        if (!(p.isPunct("{") || p.isPunct("}") || p.isPunct(";") || p.isPunct(":") || p.kind == TokenKind::Pragma))
            continue;
        // Up to the `;`. A parameter list followed by a body or a function's trailing parts is
        // a static member function of a local class (static functions cannot be declared at
        // block scope, so `static S s(1, 2);` is a variable).
        bool function = false;
        std::size_t end = i + 1;
        for (; end < body.end && !tokens[end].isPunct(";"); ++end) {
            const Token& t = tokens[end];
            if (t.isPunct("(") && partner[end] != kNoToken) {
                const Token& after = tokens[partner[end] + 1];
                if (after.isPunct("{") || after.isPunct("->") || after.isIdentifier("const") ||
                    after.isIdentifier("noexcept") || after.isIdentifier("override") || after.isIdentifier("final") ||
                    after.isIdentifier("requires")) {
                    function = true;
                    break;
                }
            }
            if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[end] != kNoToken) end = partner[end];
        }
        if (function || end >= body.end) continue;
        StaticLocal local;
        local.tokens = {i, end};
        if (auto d = parseDeclaration(tokens, partner, i, end)) local.nameToken = d->names.front();
        const std::size_t specifiersEnd = local.nameToken == kNoToken ? end : local.nameToken;
        local.isConstant = hasConstantSpecifier(tokens, partner, i, specifiersEnd);
        for (std::size_t k = i; k < specifiersEnd; ++k)
            if (tokens[k].isIdentifier("constexpr")) local.isConstexpr = true;
        out.push_back(local);
        i = end;
    }
    return out;
}

} // namespace metalcpu::msl
