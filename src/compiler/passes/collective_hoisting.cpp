#include "compiler/passes/collective_hoisting.h"

#include "compiler/passes/barrier_coroutines.h"

#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <cctype>
#include <iterator>
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

    /// The type of the collective's first argument in [begin, end) (expressionType()).
    bool valueType(std::size_t begin, std::size_t end, TokenList& type) const {
        std::size_t argEnd = begin;
        while (argEnd < end && !tokens_[argEnd].isPunct(",")) {
            if (partner_[argEnd] != kNoToken && partner_[argEnd] > argEnd) argEnd = partner_[argEnd];
            ++argEnd;
        }
        ArithmeticType t;
        if (!expressionType(begin, argEnd, t, 0)) return false;
        if (t.kind == ArithmeticType::Kind::Named) {
            type = std::move(t.named);
            return true;
        }
        if (t.kind != ArithmeticType::Kind::Known) return false; // a literal alone: its type is not the point
        type.push_back(made(t.spelling(), TokenKind::Identifier, tokens_[begin].location));
        return true;
    }

    /// The type of an expression as far as expressionType() follows it: an MSL arithmetic
    /// type (`float`, `half4`: `scalar` and `lanes`), a type the kernel spells otherwise
    /// (`named`: a declared variable of another type, which no operator may combine), or an
    /// integer or floating literal without a suffix, which takes the other operand's type.
    struct ArithmeticType {
        enum class Kind { Known, Named, IntegerLiteral } kind = Kind::Known;
        std::string scalar;
        int lanes = 1;
        TokenList named;
        std::string spelling() const { return lanes == 1 ? scalar : scalar + std::to_string(lanes); }
    };

    /// `float`, `half4`, `uint2` ...: MSL's arithmetic scalar and vector types, by name.
    static bool arithmeticTypeName(const std::string& name, ArithmeticType& t) {
        static const char* const kScalars[] = {"bool", "char", "uchar", "short", "ushort", "int", "uint",
                                               "long", "ulong", "half", "float", "bfloat"};
        for (const char* scalar : kScalars) {
            const std::string s = scalar;
            if (name == s || (name.size() == s.size() + 1 && name.starts_with(s) && name.back() >= '2' &&
                              name.back() <= '4')) {
                t.kind = ArithmeticType::Kind::Known;
                t.scalar = s;
                t.lanes = name == s ? 1 : name.back() - '0';
                return true;
            }
        }
        return false;
    }

    /// The type of the expression [begin, end), when it is plain from its tokens: a name or
    /// `name[i]` of a variable or parameter the kernel declares (declaredType()), a literal, a
    /// cast to an arithmetic type (`float(x)`, `(half)x`, `static_cast<float>(x)`), a
    /// swizzle of an arithmetic vector (`v.xy`), parentheses, `dot(a, b)` (a's scalar type), a
    /// math function of one type (`exp(x)`, `max(a, b)`: its first argument's), and `+`, `-`,
    /// `*` and `/` between operands of one type, between a vector and its scalars, or with a
    /// literal, whose type C++ gives as MSL does. Not: other operators, mixed scalar types
    /// (`half * float`), arithmetic on types narrower than int (C++ promotes them), members
    /// of structs, other calls.
    bool expressionType(std::size_t begin, std::size_t end, ArithmeticType& type, int depth) const {
        if (begin >= end || depth > 16) return false;
        // Operands between the top-level + - * /, a leading sign aside.
        bool first = true, combined = false;
        std::size_t operand = begin;
        if (tokens_[operand].isPunct("-") || tokens_[operand].isPunct("+")) {
            ++operand;
            combined = true; // a sign promotes as an operator does
        }
        for (std::size_t i = operand; i <= end; ++i) {
            if (i < end && partner_[i] != kNoToken && partner_[i] > i) {
                i = partner_[i];
                continue;
            }
            const bool op = i < end && (tokens_[i].isPunct("+") || tokens_[i].isPunct("-") ||
                                        tokens_[i].isPunct("*") || tokens_[i].isPunct("/"));
            if (i < end && !op) continue;
            if (op && i == operand) return false; // `a * -b` and the like
            ArithmeticType t;
            if (!operandType(operand, i, t, depth)) return false;
            if (first) {
                type = std::move(t);
                first = false;
            } else if (!combine(type, t)) {
                return false;
            } else {
                combined = true;
            }
            operand = i + 1;
        }
        if (combined && type.kind == ArithmeticType::Kind::Known &&
            (type.scalar == "bool" || type.scalar == "char" || type.scalar == "uchar" || type.scalar == "short" ||
             type.scalar == "ushort"))
            return false; // promoted to int by C++
        return !first;
    }

    /// The type of `a op b` into `a`, for expressionType().
    static bool combine(ArithmeticType& a, const ArithmeticType& b) {
        using Kind = ArithmeticType::Kind;
        if (a.kind == Kind::Named || b.kind == Kind::Named) return false;
        // A literal without a suffix goes with a scalar int, uint or float as C++ converts it
        // (not with half, bfloat or vectors, whose operators metalcpu's types define).
        const auto takesLiteral = [](const ArithmeticType& t) {
            return t.kind == Kind::IntegerLiteral ||
                   (t.lanes == 1 && (t.scalar == "int" || t.scalar == "uint" || t.scalar == "float"));
        };
        if (b.kind == Kind::IntegerLiteral) return takesLiteral(a);
        if (a.kind == Kind::IntegerLiteral) {
            a = b;
            return takesLiteral(a);
        }
        if (a.scalar != b.scalar) return false;
        a.lanes = std::max(a.lanes, b.lanes);
        return a.lanes == b.lanes || std::min(a.lanes, b.lanes) == 1;
    }

    bool operandType(std::size_t begin, std::size_t end, ArithmeticType& type, int depth) const {
        if (begin >= end) return false;
        const Token& t = tokens_[begin];
        if (end == begin + 1 && t.kind == TokenKind::Number) {
            std::string n = t.spelling;
            for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (n.starts_with("0x")) return false;
            const bool floating = n.find_first_of(".e") != std::string::npos;
            if (floating && n.back() == 'f') return arithmeticTypeName("float", type);
            if (floating && n.back() == 'h') return arithmeticTypeName("half", type);
            if (floating || n.find_first_not_of("0123456789") != std::string::npos) return false;
            type.kind = ArithmeticType::Kind::IntegerLiteral;
            return true;
        }
        if (t.isPunct("(")) {
            const std::size_t close = partner_[begin];
            if (close == kNoToken || close >= end) return false;
            if (close + 1 == end) return expressionType(begin + 1, close, type, depth + 1);
            // `(T) x`
            return close == begin + 2 && tokens_[begin + 1].isIdentifier() &&
                   arithmeticTypeName(tokens_[begin + 1].spelling, type);
        }
        if (!t.isIdentifier()) return false;
        // `static_cast<T>(x)`
        if (t.spelling == "static_cast" && end >= begin + 5 && tokens_[begin + 1].isPunct("<") &&
            tokens_[begin + 3].isPunct(">") && tokens_[begin + 4].isPunct("(") && partner_[begin + 4] + 1 == end)
            return arithmeticTypeName(tokens_[begin + 2].spelling, type);
        if (begin + 1 < end && tokens_[begin + 1].isPunct("(")) {
            const std::size_t open = begin + 1, close = partner_[open];
            if (close + 1 != end) return false;
            if (arithmeticTypeName(t.spelling, type)) return true; // `float(x)`, `half4(v)`
            if (!unit_.isUnqualifiedName(begin) || graph_.byName.count(t.spelling)) return false;
            std::size_t argumentEnd = open + 1;
            while (argumentEnd < close && !tokens_[argumentEnd].isPunct(",")) {
                if (partner_[argumentEnd] != kNoToken && partner_[argumentEnd] > argumentEnd)
                    argumentEnd = partner_[argumentEnd];
                ++argumentEnd;
            }
            if (!sameTypeFunction(t.spelling) && t.spelling != "dot") return false;
            if (!expressionType(open + 1, argumentEnd, type, depth + 1) || type.kind != ArithmeticType::Kind::Known)
                return false;
            if (t.spelling == "dot") type.lanes = 1;
            return true;
        }
        // `v.xy`: a swizzle of an arithmetic vector.
        if (end >= begin + 3 && tokens_[end - 2].isPunct(".") && tokens_[end - 1].isIdentifier()) {
            const std::string& swizzle = tokens_[end - 1].spelling;
            if (swizzle.size() > 4 || (swizzle.find_first_not_of("xyzw") != std::string::npos &&
                                       swizzle.find_first_not_of("rgba") != std::string::npos))
                return false;
            if (!operandType(begin, end - 2, type, depth + 1) || type.kind != ArithmeticType::Kind::Known ||
                type.lanes == 1)
                return false;
            type.lanes = static_cast<int>(swizzle.size());
            return true;
        }
        if (!unit_.isUnqualifiedName(begin)) return false;
        bool element = false;
        if (end == begin + 1) {
            element = false;
        } else if (tokens_[begin + 1].isPunct("[") && partner_[begin + 1] + 1 == end) {
            element = true;
        } else {
            return false;
        }
        TokenList named;
        if (!declaredValueType(begin, element, named)) return false;
        // An arithmetic type by one name (`float`, `half4`), or the kernel's own name for one
        // (MLX's `typedef float U;`), is one the operators know.
        if (named.size() == 1 && (arithmeticTypeName(named[0].spelling, type) || localAlias(named[0].spelling, type)))
            return true;
        type.kind = ArithmeticType::Kind::Named;
        type.named = std::move(named);
        return true;
    }

    /// Whether the kernel's body names an arithmetic type `name` (`typedef float U;`,
    /// `using U = half;`), each time the same.
    bool localAlias(const std::string& name, ArithmeticType& type) const {
        bool found = false;
        for (std::size_t i = kernel_->bodyOpen + 1; i + 3 < kernel_->bodyClose; ++i) {
            std::string aliased;
            if (tokens_[i].isIdentifier("typedef") && tokens_[i + 2].isIdentifier(name) && tokens_[i + 3].isPunct(";"))
                aliased = tokens_[i + 1].spelling;
            else if (tokens_[i].isIdentifier("using") && tokens_[i + 1].isIdentifier(name) &&
                     tokens_[i + 2].isPunct("=") && i + 4 < kernel_->bodyClose && tokens_[i + 4].isPunct(";"))
                aliased = tokens_[i + 3].spelling;
            else
                continue;
            ArithmeticType t;
            if (!arithmeticTypeName(aliased, t) || (found && t.spelling() != type.spelling())) return false;
            type = t;
            found = true;
        }
        return found;
    }

    /// Math functions whose result has their first argument's type, when all their arguments
    /// have it (metal_math: their overloads take one type).
    static bool sameTypeFunction(const std::string& name) {
        static const char* const kNames[] = {"abs",  "fabs", "max",   "min",   "fmax",  "fmin", "exp",  "exp2",
                                             "log",  "log2", "sqrt",  "rsqrt", "clamp", "fma",  "mix",  "tanh",
                                             "sin",  "cos",  "floor", "ceil",  "round", "trunc", "saturate"};
        return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
    }

    /// The type of the name at `begin` (or, for an `element`, of its elements): every
    /// declaration of it in the kernel gives the same one (declaredType()).
    bool declaredValueType(std::size_t begin, bool element, TokenList& type) const {
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
