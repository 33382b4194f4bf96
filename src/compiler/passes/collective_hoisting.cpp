#include "compiler/passes/collective_hoisting.h"

#include "compiler/passes/barrier_coroutines.h"

#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <vector>

namespace metalcpu::msl {

namespace {

bool returnsBool(std::string_view name) {
    return name == "simd_all" || name == "simd_any" || name == "simd_is_first" || name == "simd_is_helper_thread" ||
           name == "quad_all" || name == "quad_any" || name == "quad_is_first" || name == "quad_is_helper_thread";
}

/// A hoisting: the collective call [call.begin, call.end) of the statement starting at
/// `statement`, whose value has type `type` (tokens).
struct Hoist {
    std::size_t statement = 0;
    TokenRange call;
    TokenList type;
};

class Hoister {
public:
    Hoister(const Unit& unit, const CallGraph& graph, std::set<std::string>& usedNames)
        : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), graph_(graph), usedNames_(usedNames) {}

    std::optional<TokenList> run() {
        const Module& module = unit_.module();
        for (std::size_t k = 0; k < module.functions.size(); ++k) {
            const FunctionDecl& f = module.functions[k];
            if (!f.isKernel || !f.hasBody) continue;
            const std::vector<Statement>* body = unit_.body(k);
            if (!body) continue;
            kernel_ = &f;
            walk(*body, true);
        }
        if (hoists_.empty()) return std::nullopt;
        std::sort(hoists_.begin(), hoists_.end(),
                  [](const Hoist& a, const Hoist& b) { return a.statement < b.statement; });
        TokenList out;
        std::size_t next = 0;
        for (const Hoist& h : hoists_) {
            for (; next < h.statement; ++next) out.push_back(tokens_[next]);
            const Location at = tokens_[h.call.begin].location;
            const std::string name = fresh(tokens_[h.call.begin].spelling + "_value");
            for (Token t : h.type) {
                t.location = at;
                out.push_back(std::move(t));
            }
            out.push_back(made(name, TokenKind::Identifier, at));
            out.push_back(made("=", TokenKind::Punctuator, at));
            for (std::size_t i = h.call.begin; i < h.call.end; ++i) out.push_back(tokens_[i]);
            out.push_back(made(";", TokenKind::Punctuator, at));
            for (; next < h.call.begin; ++next) out.push_back(tokens_[next]);
            Token value = made(name, TokenKind::Identifier, at);
            value.spaceBefore = tokens_[h.call.begin].spaceBefore;
            out.push_back(std::move(value));
            next = h.call.end;
        }
        for (; next < tokens_.size(); ++next) out.push_back(tokens_[next]);
        return out;
    }

private:
    static Token made(std::string spelling, TokenKind kind, Location at) {
        return syntheticToken(std::move(spelling), kind, at);
    }

    std::string fresh(const std::string& base) {
        for (std::size_t n = usedNames_.size();; ++n) {
            std::string name = base + "_i" + std::to_string(n);
            if (usedNames_.insert(name).second) return name;
        }
    }

    void walk(const std::vector<Statement>& statements, bool inBlock) {
        for (const Statement& s : statements) {
            if (inBlock && s.kind == StatementKind::Simple) consider(s.tokens.begin, s.keyword, s.tokens.end - 1, false);
            if (inBlock && s.kind == StatementKind::If && !s.header.empty())
                consider(s.tokens.begin, s.header.begin, s.header.end, true);
            walk(s.children, s.kind == StatementKind::Compound);
        }
    }

    /// A collective the statement may hoist: simd_*/quad_*, not the file's own, not a ballot.
    bool isCollective(std::size_t i) const {
        const Token& t = tokens_[i];
        if (!t.isIdentifier() || !(t.spelling.starts_with("simd_") || t.spelling.starts_with("quad_"))) return false;
        if (t.spelling.ends_with("ballot") || graph_.byName.count(t.spelling)) return false;
        // Unqualified or metal:: (not ::metal::, not a member), and called.
        if (unit_.role(i) == TokenRole::Callee) return unit_.isUnqualifiedName(i);
        return unit_.role(i) == TokenRole::QualifiedPart && i >= 2 && tokens_[i - 1].isPunct("::") &&
               tokens_[i - 2].isIdentifier("metal") && !(i >= 3 && tokens_[i - 3].isPunct("::")) &&
               unit_.callOpen(i) != kNoToken;
    }

    /// Considers the expression [begin, end) of the statement that starts at `statement`
    /// (a simple statement up to its `;`, or an if's condition).
    void consider(std::size_t statement, std::size_t begin, std::size_t end, bool condition) {
        std::size_t call = kNoToken;
        for (std::size_t i = begin; i < end && call == kNoToken; ++i) {
            if (!isCollective(i)) continue;
            const std::size_t open = unit_.callOpen(i);
            if (open == kNoToken) return;
            bool nested = false;
            for (std::size_t j = open + 1; j < partner_[open]; ++j) nested = nested || isCollective(j);
            if (!nested) call = i;
        }
        if (call == kNoToken) return;
        const std::size_t open = unit_.callOpen(call);
        const std::size_t close = partner_[open];
        const std::size_t first = tokens_[call - 1].isPunct("::") ? call - 2 : call;
        // Already the whole value of the statement, assigned to a name or an element or
        // declared: the split takes it as it is.
        if (!condition && close + 1 == end) {
            if (first == begin) return;
            if (unit_.isAssignmentOperator(first - 1)) {
                bool declares = false;
                for (std::size_t i = begin; i < first - 1; ++i) declares = declares || unit_.role(i) == TokenRole::Declarator;
                if (declares || isCollectiveTarget(unit_, begin, first - 1)) return;
            }
        }
        // Nothing in the statement may run conditionally, or in an order the hoisting changes.
        bool ownAssignment = false;
        for (std::size_t i = begin; i < end; ++i) {
            if (i == first) {
                i = close;
                continue;
            }
            const Token& t = tokens_[i];
            if (t.isPunct("&&") || t.isPunct("||") || t.isPunct("?") || unit_.role(i) == TokenRole::Increment ||
                unit_.role(i) == TokenRole::LambdaIntroducer)
                return;
            if (unit_.isAssignmentOperator(i)) {
                if (ownAssignment || condition) return;
                ownAssignment = true;
            }
            if (t.isPunct(",") && !separatesArguments(i)) return;
            if (unit_.role(i) == TokenRole::Callee &&
                (graph_.byName.count(t.spelling) || t.spelling.starts_with("atomic")))
                return;
        }
        TokenList type;
        if (returnsBool(tokens_[call].spelling)) {
            type.push_back(made("bool", TokenKind::Identifier, tokens_[call].location));
        } else if (!valueType(open + 1, close, type)) {
            return;
        }
        hoists_.push_back({statement, {first, close + 1}, std::move(type)});
    }

    /// Whether the `,` at `comma` separates a call's arguments or an initializer list's values
    /// (rather than being the comma operator).
    bool separatesArguments(std::size_t comma) const {
        for (std::size_t j = comma; j-- > 0;) {
            if (partner_[j] != kNoToken && partner_[j] < j) {
                j = partner_[j];
                continue;
            }
            if (partner_[j] != kNoToken && partner_[j] > comma)
                return unit_.role(j) == TokenRole::CallOpen || tokens_[j].isPunct("{");
        }
        return false;
    }

    /// The type of the collective's first argument in [begin, end): `x` or `x[i]` with `x` a
    /// variable or parameter the kernel declares, without `*`, `&` or, for `x`, bounds (for
    /// `x[i]`, one bound), its specifiers but const, static and address spaces; a name the
    /// kernel declares more than once (ggml's `const float vs` in two loops) only when every
    /// declaration gives the same type.
    bool valueType(std::size_t begin, std::size_t end, TokenList& type) const {
        std::size_t argEnd = begin;
        while (argEnd < end && !tokens_[argEnd].isPunct(",")) {
            if (partner_[argEnd] != kNoToken && partner_[argEnd] > argEnd) argEnd = partner_[argEnd];
            ++argEnd;
        }
        if (argEnd == begin || !tokens_[begin].isIdentifier() || !unit_.isUnqualifiedName(begin)) return false;
        bool element = false;
        if (argEnd == begin + 1) {
            element = false;
        } else if (tokens_[begin + 1].isPunct("[") && partner_[begin + 1] + 1 == argEnd) {
            element = true;
        } else {
            return false;
        }
        const std::string& name = tokens_[begin].spelling;
        bool declared = false;
        for (std::size_t i = kernel_->parametersOpen + 1; i < kernel_->bodyClose; ++i) {
            if (unit_.role(i) != TokenRole::Declarator || !tokens_[i].isIdentifier(name)) continue;
            TokenList each;
            if (!declaredType(i, element, each)) return false;
            if (declared && !sameSpellings(each, type)) return false; // which one is meant is unknown
            type = std::move(each);
            declared = true;
        }
        return declared;
    }

    static bool sameSpellings(const TokenList& a, const TokenList& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const Token& x, const Token& y) { return x.spelling == y.spelling; });
    }

    /// The value type valueType() gives for the declarator at `declared`: of the variable, or
    /// for an `element`, of its elements.
    bool declaredType(std::size_t declared, bool element, TokenList& type) const {
        TokenRange specifiers, pointer, bounds;
        if (declared < kernel_->parametersClose) {
            std::size_t start = declared;
            while (start > kernel_->parametersOpen + 1 && !tokens_[start - 1].isPunct(",")) --start;
            specifiers = {start, declared};
            bounds = {declared + 1, declared + 1};
        } else {
            // The declaration's start: the statement's, or a for-init's after its `(`.
            std::size_t start = declared;
            while (start > kernel_->bodyOpen + 1 && !unit_.startsStatement(start) && !tokens_[start - 1].isPunct("("))
                --start;
            std::size_t stop = declared;
            while (stop < kernel_->bodyClose && !tokens_[stop].isPunct(";")) {
                if (partner_[stop] != kNoToken && partner_[stop] > stop) stop = partner_[stop];
                ++stop;
            }
            const std::optional<Declaration> d = parseDeclaration(tokens_, partner_, start, stop);
            if (!d) return false;
            const auto k = std::find(d->names.begin(), d->names.end(), declared);
            if (k == d->names.end()) return false;
            const DeclaratorParts parts =
                declaratorParts(tokens_, partner_, *d, static_cast<std::size_t>(k - d->names.begin()), stop);
            specifiers = parts.specifiers;
            pointer = parts.pointer;
            bounds = parts.bounds;
        }
        // `x[i]` of an array of one bound or of a pointer (one `*`, no const after it).
        int stars = 0;
        bool qualifiedPointer = false; // `T* const p` and the like
        for (const TokenRange& range : {specifiers, pointer})
            for (std::size_t i = range.begin; i < range.end; ++i) {
                if (tokens_[i].isPunct("&") || tokens_[i].isPunct("&&")) return false;
                if (tokens_[i].isPunct("*")) ++stars;
                else if (stars > 0) qualifiedPointer = true;
            }
        if (qualifiedPointer) return false;
        const bool oneBound = !bounds.empty() && tokens_[bounds.begin].isPunct("[") &&
                              partner_[bounds.begin] + 1 == bounds.end;
        if (element ? !((oneBound && stars == 0) || (bounds.empty() && stars == 1)) : (!bounds.empty() || stars > 0))
            return false;
        for (std::size_t i = specifiers.begin; i < specifiers.end; ++i) {
            const Token& t = tokens_[i];
            if (unit_.role(i) == TokenRole::Attribute || t.isPunct("*")) continue;
            if (t.isIdentifier("const") || t.isIdentifier("constexpr") || t.isIdentifier("static") ||
                t.isIdentifier("thread") || t.isIdentifier("threadgroup") || t.isIdentifier("device") ||
                t.isIdentifier("constant") || t.isIdentifier("volatile"))
                continue;
            type.push_back(t);
        }
        return !type.empty();
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const CallGraph& graph_;
    std::set<std::string>& usedNames_;
    const FunctionDecl* kernel_ = nullptr;
    std::vector<Hoist> hoists_;
};

} // namespace

Token syntheticToken(std::string spelling, TokenKind kind, Location at) {
    Token t;
    t.kind = kind;
    t.spelling = std::move(spelling);
    t.text = t.spelling;
    t.location = at;
    t.spaceBefore = true;
    return t;
}

std::optional<TokenList> hoistCollectives(const Unit& unit, const CallGraph& graph, std::set<std::string>& usedNames) {
    return Hoister(unit, graph, usedNames).run();
}

} // namespace metalcpu::msl
