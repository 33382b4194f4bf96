// Unit's queries about expressions, names and types: where a postfix expression or a qualified
// name starts, where a type ends, the `(` of a call, the assignment operator before a token,
// how an expression is used (assigned, updated, its address taken or read).
// The walks are here once, so that the passes that wrap an expression (checked accesses,
// collective call sites) or read a callee's qualification or a type (the coroutine lowering,
// checked pointer types) agree.
#include "compiler/unit.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

namespace {

const Token kNone{};

const Token& at(const TokenList& tokens, std::size_t i) { return i < tokens.size() ? tokens[i] : kNone; }

} // namespace

std::size_t Unit::assignmentBefore(std::size_t i) const {
    if (i == 0 || i > tokens_.size()) return kNoToken;
    if (tokens_[i - 1].isPunct(">") && role(i - 1) == TokenRole::CompoundAssignment) return kNoToken; // `>>=` goes on
    if (isAssignmentOperator(i - 1)) return i - 1;
    if (i >= 2 && tokens_[i - 1].isPunct(">=") && role(i - 2) == TokenRole::CompoundAssignment) return i - 2;
    return kNoToken;
}

ExpressionUse Unit::useOf(std::size_t first, std::size_t last, ObjectParts parts) const {
    if (first > last || last >= tokens_.size()) return {};
    std::size_t b = first, e = last; // the operand the operators around it apply to
    for (;;) {
        const Token& next = at(tokens_, e + 1);
        const bool member = isAccessedMember(e + 2);
        if (parts != ObjectParts::None && next.isPunct(".") && member) {
            e += 2;
        } else if (parts == ObjectParts::All && next.isPunct("->") && member) {
            e += 2;
        } else if (parts == ObjectParts::All && next.isPunct("[") && partner_[e + 1] != kNoToken) {
            e = partner_[e + 1]; // a subscript, or a declarator's bound: `float a[4] = {...}`
        } else if (next.isPunct(")") && b > 0 && partner_[e + 1] == b - 1 && groupsExpression(b - 1)) {
            ++e;
            --b;
        } else {
            break;
        }
    }
    switch (role(e + 1)) { // after an operand, `++` is postfix
    case TokenRole::Assignment: return {UseKind::Assigned, e + 1};
    case TokenRole::CompoundAssignment: return {UseKind::CompoundAssigned, e + 1};
    case TokenRole::Increment: return {UseKind::Incremented, e + 1};
    default: break;
    }
    if (b == 0 || continuesPostfix(e)) return {};
    if (role(b - 1) == TokenRole::Increment) return {UseKind::Incremented, b - 1};
    if (role(b - 1) == TokenRole::AddressOf) return {UseKind::AddressTaken, b - 1};
    return {};
}

std::size_t Unit::callOpen(std::size_t name) const {
    if (name + 1 >= tokens_.size() || !tokens_[name].isIdentifier()) return kNoToken;
    std::size_t open = name + 1;
    if (tokens_[open].isPunct("<")) { // `f<T>(x)`
        const std::size_t close = closingAngle(tokens_, partner_, open, tokens_.size());
        if (close == kNoToken) return kNoToken;
        open = close + 1;
    }
    return role(open) == TokenRole::CallOpen ? open : kNoToken;
}

std::size_t Unit::joinBefore(std::size_t name) const {
    if (name == 0 || name >= tokens_.size()) return kNoToken;
    std::size_t k = name - 1;
    if (tokens_[k].isIdentifier("template") && k > 0) --k;
    const Token& t = tokens_[k];
    return t.isPunct(".") || t.isPunct("->") || t.isPunct("::") ? k : kNoToken;
}

std::size_t Unit::qualifierBefore(std::size_t colons, TemplateArguments templateArguments, bool* refused) const {
    if (colons == 0) return kNoToken;
    const std::size_t before = colons - 1;
    if (isOperandName(before)) return before;
    if (!tokens_[before].isPunct(">")) return kNoToken;
    const std::size_t open = openingAngle(tokens_, partner_, before, 0);
    if (open == kNoToken || open == 0 || !isOperandName(open - 1)) return kNoToken; // `c > ::b` compares
    if (templateArguments == TemplateArguments::Refuse) {
        if (refused) *refused = true;
        return kNoToken;
    }
    return open - 1;
}

std::size_t Unit::qualifiedNameStart(std::size_t last) const {
    std::size_t s = last;
    for (;;) {
        const std::size_t join = joinBefore(s);
        if (join == kNoToken || !tokens_[join].isPunct("::")) return s;
        const std::size_t qualifier = qualifierBefore(join, TemplateArguments::Follow, nullptr);
        if (qualifier == kNoToken) return join; // `::name`
        s = qualifier;
    }
}

std::size_t Unit::postfixEnd(std::size_t first) const {
    const TokenList& tokens = tokens_;
    const std::vector<std::size_t>& partner = partner_;
    std::size_t e;
    const Token& t = at(tokens, first);
    if (t.isPunct("(")) {
        e = partner[first];
        if (e == kNoToken) return kNoToken;
        if (closesCStyleCast(e)) return postfixEnd(e + 1); // `(type)operand`
    } else if (t.isIdentifier() && !isOperandName(first) && at(tokens, first + 1).isPunct("<")) {
        // `reinterpret_cast<device T*>(p)`: the parentheses after the type end the cast.
        const std::size_t close = closingAngle(tokens, partner, first + 1, tokens.size());
        if (close == kNoToken || role(close + 1) != TokenRole::CastOpen) return kNoToken;
        e = partner[close + 1];
        if (e == kNoToken) return kNoToken;
    } else if (isOperandName(first) || t.isPunct("::")) {
        e = first;
        if (t.isPunct("::")) ++e;
        while (at(tokens, e + 1).isPunct("::") && isOperandName(e + 2)) e += 2;
        // `f<T>(x)`: the template arguments of a call.
        if (at(tokens, e + 1).isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, e + 1, tokens.size());
            if (close != kNoToken && role(close + 1) == TokenRole::CallOpen) e = close;
        }
    } else {
        return kNoToken;
    }
    for (;;) {
        const Token& n = at(tokens, e + 1);
        if ((n.isPunct("[") || n.isPunct("(")) && partner[e + 1] != kNoToken) {
            e = partner[e + 1];
        } else if (e + 2 < tokens.size() && isAccessedMember(e + 2)) {
            e += 2;
        } else if (n.isPunct("++") || n.isPunct("--")) {
            e += 1;
        } else {
            return e;
        }
    }
}

std::size_t Unit::typeEnd(std::size_t first) const {
    std::size_t j = first;
    while (j < tokens_.size()) {
        const Token& n = tokens_[j];
        if (n.isPunct("::")) {
            ++j;
            continue;
        }
        if (!n.isIdentifier() || role(j) == TokenRole::Declarator ||
            (isCppKeyword(n.spelling) && !isTypeKeyword(n.spelling) && !n.is("typename")))
            return j;
        ++j;
        if (j < tokens_.size() && tokens_[j].isPunct("<")) { // template arguments
            const std::size_t close = closingAngle(tokens_, partner_, j, tokens_.size());
            if (close == kNoToken) return j;
            j = close + 1;
        }
    }
    return j;
}

std::size_t Unit::postfixStart(std::size_t last, TemplateArguments templateArguments,
                               bool* refusedTemplateArguments) const {
    const TokenList& t = tokens_;
    std::size_t s = last;
    for (;;) {
        if (s >= t.size()) return kNoToken;
        if (t[s].isPunct("]") || t[s].isPunct(")")) {
            const std::size_t open = partner_[s];
            if (open == kNoToken || open == 0 || open > s) return kNoToken;
            const TokenRole r = roles_[open];
            const bool afterAngle = t[open - 1].isPunct(">");
            if (r == TokenRole::CastOpen && afterAngle) { // `static_cast<T>(x)`: the cast starts it
                const std::size_t angle = openingAngle(t, partner_, open - 1, 0);
                return angle != kNoToken && angle > 0 ? angle - 1 : kNoToken;
            }
            if (r == TokenRole::CallOpen && afterAngle) { // `f<T>(x)`
                const std::size_t angle = openingAngle(t, partner_, open - 1, 0);
                if (templateArguments == TemplateArguments::Refuse) {
                    if (refusedTemplateArguments) *refusedTemplateArguments = true;
                    return kNoToken;
                }
                if (angle == kNoToken || angle == 0) return kNoToken;
                s = angle - 1; // the called name
                continue;
            }
            if (r == TokenRole::CallOpen || r == TokenRole::Subscript) {
                s = open - 1; // the called or subscripted expression
                continue;
            }
            // A parenthesised primary expression; a C-style cast's `(type)`, a lambda's
            // introducer or an array bound ends no operand.
            return t[s].isPunct(")") && r != TokenRole::CastOpen ? open : kNoToken;
        }
        if (!isOperandName(s)) return kNoToken;
        const std::size_t join = joinBefore(s);
        if (join == kNoToken || join == 0) return s;
        if (!t[join].isPunct("::")) { // `.`, `->`: the object's last token
            s = join - 1;
            continue;
        }
        bool refused = false;
        const std::size_t qualifier = qualifierBefore(join, templateArguments, &refused);
        if (refused) {
            if (refusedTemplateArguments) *refusedTemplateArguments = true;
            return kNoToken;
        }
        if (qualifier == kNoToken) return join; // `::name`
        s = qualifier;
    }
}

} // namespace metalcpu::msl
