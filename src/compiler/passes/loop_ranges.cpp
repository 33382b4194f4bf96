#include "compiler/passes/loop_ranges.h"

#include "compiler/syntax.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace metalcpu::msl {

namespace {

/// keepsValue() over the tokens of `scope`.
bool keepsValueIn(const Unit& unit, TokenRange scope, const std::string& name, ObjectParts parts, std::size_t declarator,
                  TokenRange unwritten) {
    const TokenList& tokens = unit.tokens();
    const bool writesAnywhere = unwritten.begin != unwritten.end;
    for (std::size_t j = scope.begin; j < scope.end; ++j) {
        if (!tokens[j].isIdentifier(name)) continue;
        if (unit.role(j) == TokenRole::Declarator) {
            if (j == declarator) continue;
            return false;
        }
        if (!unit.isUnqualifiedName(j)) continue;
        const ExpressionUse use = unit.useOf(j, j, parts);
        if (use.kind == UseKind::AddressTaken) return false;
        if (use.kind != UseKind::Read && (!writesAnywhere || (j >= unwritten.begin && j < unwritten.end))) return false;
        const Token& before = tokens[j - 1];
        const Token& after = tokens[j + 1];
        if ((before.isPunct("(") || before.isPunct(",") || before.isPunct("{")) &&
            (after.isPunct(")") || after.isPunct(",") || after.isPunct("}")))
            return false;
        for (std::size_t b = j; b-- > scope.begin;) { // `T& r = name;`, `T& r = c ? name : x;`
            const Token& t = tokens[b];
            if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
            if (t.isPunct("&") || t.isPunct("&&")) return false;
        }
    }
    return true;
}

} // namespace

bool keepsValue(const Unit& unit, const FunctionDecl& f, const std::string& name, ObjectParts parts,
                std::size_t declarator, TokenRange unwritten) {
    return keepsValueIn(unit, {f.bodyOpen + 1, f.bodyClose}, name, parts, declarator, unwritten);
}

namespace {

/// The counter types whose range checked.h's range_inside() reasons about: 32 bits, so that
/// `k < bound` leaves room for `++k` (range_inside() makes sure the comparison is in that type).
bool isCounterType(std::string_view type) {
    return type == "uint" || type == "int" || type == "unsigned" || type == "unsigned int" || type == "uint32_t" ||
           type == "int32_t";
}

/// An integer literal: digits (or 0x and hex digits) with an optional u/U suffix.
bool isIntegerLiteral(const Token& t) {
    if (t.kind != TokenKind::Number) return false;
    std::string_view s = t.spelling;
    while (!s.empty() && (s.back() == 'u' || s.back() == 'U')) s.remove_suffix(1);
    if (s.starts_with("0x") || s.starts_with("0X"))
        return s.size() > 2 && std::all_of(s.begin() + 2, s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class LoopAnalysis {
public:
    LoopAnalysis(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params, const Statement& st)
        : unit_(unit), tokens_(unit.tokens()), f_(f), params_(params), st_(st) {}

    std::optional<RangedLoop> run() {
        // A loop after pragmas or attributes (`#pragma unroll`) keeps them next to it.
        if (st_.kind != StatementKind::For || st_.children.empty() || st_.tokens.begin != st_.keyword || !parseHeader())
            return std::nullopt;
        loop_.keyword = st_.keyword;
        loop_.last = st_.tokens.end - 1;
        // Nothing may jump into the loop past the flag, and no lambda may write what it reads.
        for (std::size_t j = f_.bodyOpen + 1; j < f_.bodyClose; ++j)
            if (tokens_[j].isIdentifier("goto") || unit_.role(j) == TokenRole::LambdaIntroducer) return std::nullopt;
        for (std::size_t j = st_.tokens.begin; j < st_.tokens.end; ++j)
            if (tokens_[j].isIdentifier("case") || tokens_[j].isIdentifier("default")) return std::nullopt;
        // The counter changes only in the header's step, and no declaration in the body hides it.
        const TokenRange body = st_.children[0].tokens;
        if (!keepsValueIn(unit_, st_.tokens, loop_.counter, ObjectParts::All, counterToken_, body)) return std::nullopt;
        if (!invariant(loop_.first, false) || !invariant(loop_.bound, false)) return std::nullopt;
        for (std::size_t j = body.begin; j < body.end; ++j)
            if (unit_.role(j) == TokenRole::Subscript && rangedAccess(j)) loop_.accesses.push_back(j);
        if (loop_.accesses.empty()) return std::nullopt;
        return loop_;
    }

private:
    // `T k = first ; k < bound ; ++k` (or `k++`, `k += 1`).
    bool parseHeader() {
        const TokenRange h = st_.header;
        std::size_t i = h.begin;
        std::string type;
        while (i < h.end && tokens_[i].isIdentifier() && unit_.role(i) != TokenRole::Declarator) {
            type += (type.empty() ? "" : " ") + tokens_[i].spelling;
            ++i;
        }
        if (!isCounterType(type) || i >= h.end || unit_.role(i) != TokenRole::Declarator) return false;
        loop_.type = type;
        loop_.counter = tokens_[i].spelling;
        counterToken_ = i;
        if (!tokens_[i + 1].isPunct("=")) return false;
        const std::size_t firstSemicolon = find(i + 2, h.end, ";");
        if (firstSemicolon == kNoToken) return false;
        loop_.first = {i + 2, firstSemicolon};
        std::size_t c = firstSemicolon + 1;
        if (!isCounter(c) || !tokens_[c + 1].isPunct("<")) return false;
        const std::size_t secondSemicolon = find(c + 2, h.end, ";");
        if (secondSemicolon == kNoToken) return false;
        loop_.bound = {c + 2, secondSemicolon};
        const std::size_t s = secondSemicolon + 1;
        const std::size_t n = h.end - s;
        const bool step = (n == 2 && tokens_[s].isPunct("++") && isCounter(s + 1)) ||
                          (n == 2 && isCounter(s) && tokens_[s + 1].isPunct("++")) ||
                          (n == 3 && isCounter(s) && tokens_[s + 1].isPunct("+=") && tokens_[s + 2].spelling == "1");
        return step && loop_.first.begin < loop_.first.end && loop_.bound.begin < loop_.bound.end;
    }
    std::size_t find(std::size_t from, std::size_t to, std::string_view punct) const {
        for (std::size_t j = from; j < to; ++j) {
            if (tokens_[j].isPunct(punct)) return j;
            if (tokens_[j].isPunct("(") || tokens_[j].isPunct("[") || tokens_[j].isPunct("{")) return kNoToken;
        }
        return kNoToken;
    }
    bool isCounter(std::size_t j) const { return tokens_[j].isIdentifier(loop_.counter) && unit_.isUnqualifiedName(j); }

    /// Whether [r.begin, r.end) is made of invariant names and their members, integer
    /// literals, `+`, `-`, `*` and parentheses; with `counter`, the counter once among them.
    bool invariant(TokenRange r, bool counter) const {
        int counters = 0;
        for (std::size_t j = r.begin; j < r.end; ++j) {
            const Token& t = tokens_[j];
            if (t.isPunct("+") || t.isPunct("-") || t.isPunct("*")) {
                if (unit_.role(j) == TokenRole::Dereference) return false;
                continue;
            }
            if (t.isPunct("(") || t.isPunct(")")) {
                if (unit_.role(j) == TokenRole::CallOpen || unit_.role(j) == TokenRole::CastOpen) return false;
                continue;
            }
            if (isIntegerLiteral(t)) continue;
            if (t.isPunct(".") && j + 1 < r.end && unit_.role(j + 1) == TokenRole::Member) {
                ++j;
                continue;
            }
            if (!t.isIdentifier() || !unit_.isUnqualifiedName(j) || unit_.role(j) == TokenRole::Callee) return false;
            if (t.spelling == loop_.counter) {
                ++counters;
                continue;
            }
            if (!invariantName(t.spelling)) return false;
        }
        return counter ? counters == 1 : counters == 0;
    }

    /// A name whose value the loop cannot change: a kernel parameter by value (a builtin) or
    /// in constant memory, or a local declared by value once, before the loop; none of them
    /// aliased anywhere, nor written in the loop.
    bool invariantName(const std::string& name) const {
        if (const ParamInfo* p = parameterNamed(params_, name)) {
            const bool value = p->kind == ParamKind::Builtin ||
                               (p->kind == ParamKind::Buffer && p->addressSpace == AddressSpace::Constant && p->presentIf.empty());
            return value && keepsValue(unit_, f_, name, ObjectParts::All);
        }
        std::size_t declarator = kNoToken;
        for (std::size_t j = f_.bodyOpen + 1; j < f_.bodyClose; ++j) {
            if (!tokens_[j].isIdentifier(name) || unit_.role(j) != TokenRole::Declarator) continue;
            if (declarator != kNoToken) return false;
            declarator = j;
        }
        if (declarator == kNoToken || declarator >= st_.keyword) return false;
        const Token& before = tokens_[declarator - 1];
        if (before.isPunct("&") || before.isPunct("&&") || before.isPunct("*") || before.isPunct("[") ||
            tokens_[declarator + 1].isPunct("["))
            return false;
        // A threadgroup variable is shared: another thread may write it during the loop.
        for (std::size_t b = declarator - 1; b > f_.bodyOpen; --b) {
            const Token& t = tokens_[b];
            if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(")) break;
            if (t.isIdentifier("threadgroup") || t.isIdentifier("device") || t.isIdentifier("static")) return false;
        }
        return keepsValue(unit_, f_, name, ObjectParts::All, declarator, st_.tokens);
    }

    /// `p[index]` at `open`, p a device or constant pointer parameter never written, the
    /// element reached whole (no member, no further subscript, not its address).
    bool rangedAccess(std::size_t open) const {
        const std::size_t close = unit_.partner()[open];
        if (close == kNoToken || open == 0) return false;
        const std::size_t name = open - 1;
        if (!tokens_[name].isIdentifier() || !unit_.isUnqualifiedName(name)) return false;
        const Token& before = tokens_[name - 1];
        if (before.isPunct(".") || before.isPunct("->") || before.isPunct("::") || unit_.role(name - 1) == TokenRole::AddressOf)
            return false;
        const Token& after = tokens_[close + 1];
        if (after.isPunct(".") || after.isPunct("->") || after.isPunct("[") || after.isPunct("("))
            return false;
        const ParamInfo* p = parameterNamed(params_, tokens_[name].spelling);
        if (!p || p->kind != ParamKind::Buffer || p->isReference || !p->presentIf.empty() ||
            (p->addressSpace != AddressSpace::Device && p->addressSpace != AddressSpace::Constant) ||
            p->typeText.empty() || p->typeText.back() != '*' ||
            !keepsValue(unit_, f_, p->name, ObjectParts::None))
            return false;
        return invariant({open + 1, close}, true);
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const FunctionDecl& f_;
    const std::vector<ParamInfo>& params_;
    const Statement& st_;
    RangedLoop loop_;
    std::size_t counterToken_ = kNoToken;
};

/// The tokens [r.begin, r.end) as the source spells them.
std::string spelled(const TokenList& tokens, TokenRange r) {
    std::string out;
    for (std::size_t j = r.begin; j < r.end; ++j) {
        if (!out.empty() && tokens[j].spaceBefore) out += ' ';
        out += tokens[j].spelling;
    }
    return out;
}

} // namespace

std::optional<RangedLoop> rangedLoop(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params,
                                     const Statement& st) {
    return LoopAnalysis(unit, f, params, st).run();
}

std::string rangePrecheck(const Unit& unit, const RangedLoop& loop) {
    const TokenList& tokens = unit.tokens();
    std::string out;
    for (std::size_t open : loop.accesses) {
        const std::size_t close = unit.partner()[open];
        if (!out.empty()) out += " & ";
        out += "::metalcpu_kernel::range_inside<" + loop.type + ">((" + spelled(tokens, loop.first) + "), (" +
               spelled(tokens, loop.bound) + "), " + tokens[open - 1].spelling + ", [&](" + loop.type + " " +
               loop.counter + ") { return (" + spelled(tokens, {open + 1, close}) + "); })";
    }
    return out;
}

} // namespace metalcpu::msl
