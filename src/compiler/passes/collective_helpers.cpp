#include "compiler/passes/collective_helpers.h"

#include "compiler/statements.h"
#include "compiler/unit.h"

#include <cstdlib>
#include <map>
#include <string>
#include <set>

namespace metalcpu::msl {

namespace {

// METALCPU_SIMD_MAX_STAGES in the kernel library (metalcpu/kernel_services.h).
constexpr unsigned kMaxStages = 32;
// A `for` with more trips than this is not counted (nor are its collectives, then).
constexpr long long kMaxTrips = 64;

// Metal's functions that write through an output parameter.
bool hasOutputParameter(std::string_view name) {
    return name == "sincos" || name == "modf" || name == "frexp" || name == "remquo";
}

// The integer a literal spells (`16`, `0x10u`), if it is one.
std::optional<long long> integerLiteral(const Token& t) {
    if (t.kind != TokenKind::Number) return std::nullopt;
    char* end = nullptr;
    const long long value = std::strtoll(t.spelling.c_str(), &end, 0);
    for (; *end; ++end) // a suffix only (`16u`), not a fraction or exponent
        if (*end != 'u' && *end != 'U' && *end != 'l' && *end != 'L') return std::nullopt;
    return value;
}

// Judges functions as staged collective helpers (stagedCollectiveCount()), each once.
class StagedHelpers {
public:
    StagedHelpers(const Unit& unit, const CallGraph& graph)
        : unit_(unit), graph_(graph), values_(graph.namedAsValue.begin(), graph.namedAsValue.end()) {}

    std::optional<unsigned> count(std::size_t f) {
        if (auto known = judged_.find(f); known != judged_.end()) {
            if (!known->second && !reasons_.count(f)) refuse("it calls itself"); // while it is judged
            return known->second;
        }
        judged_[f] = std::nullopt; // while it is judged: a recursive call refuses it
        const std::set<std::string> caller = std::move(own_); // the names of the function judging a call of f
        const std::size_t callerFunction = judging_;
        judging_ = f;
        const std::optional<unsigned> n = judge(f);
        if (n && *n > kMaxStages)
            refuse("it makes more than " + std::to_string(kMaxStages) + " SIMD-group functions a call");
        judging_ = callerFunction;
        own_ = caller;
        judged_[f] = n && *n <= kMaxStages ? n : std::nullopt;
        return judged_[f];
    }

    /// Why function `f`, judged by count(), is not a staged helper ("" when it is).
    std::string reason(std::size_t f) const {
        const auto r = reasons_.find(f);
        return r == reasons_.end() ? std::string() : r->second;
    }

private:
    // Records the first reason the function being judged is refused; returns nothing.
    std::nullopt_t refuse(std::string why) {
        reasons_.emplace(judging_, std::move(why));
        return std::nullopt;
    }

    // The most collectives a call of any function of `name` makes.
    std::optional<unsigned> countOfName(const std::string& name) {
        const auto functions = graph_.byName.find(name);
        if (functions == graph_.byName.end() || functions->second.empty()) return std::nullopt;
        unsigned most = 0;
        for (std::size_t f : functions->second) {
            const std::optional<unsigned> n = count(f);
            if (!n) return std::nullopt;
            most = std::max(most, *n);
        }
        return most;
    }

    std::optional<unsigned> judge(std::size_t fi) {
        const FunctionDecl& f = unit_.module().functions[fi];
        if (!f.hasBody || f.isKernel || f.parametersOpen == kNoToken) return refuse("it is not a function with a body");
        if (values_.count(fi)) return refuse("it is named as a value (a function pointer may call it from anywhere)");
        const std::vector<Statement>* body = unit_.body(fi);
        if (!body) return refuse("its body could not be read as statements");
        // One `return`, the last statement: a lane that returned earlier would skip the
        // collectives after it, which the replay takes every lane to make.
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (unit_[i].isIdentifier("return") && (body->empty() || body->back().kind != StatementKind::Return ||
                                                    i != body->back().keyword))
                return refuse("it returns before its end (a lane that returns skips the collectives after)");
        own_.clear();
        for (std::size_t i = f.parametersOpen + 1; i < f.bodyClose; ++i) {
            const Token& t = unit_[i];
            if (i < f.parametersClose && (t.isPunct("&") || t.isPunct("&&") || t.isPunct("*") || t.isPunct("[")))
                return refuse("a parameter is a reference, a pointer or an array");
            if (unit_.role(i) != TokenRole::Declarator) continue;
            // No pointer or reference local either: every write is then to a name.
            const Token& before = unit_[i - 1];
            if (before.isPunct("*") || before.isPunct("&") || before.isPunct("&&"))
                return refuse("'" + t.spelling + "' is a pointer or a reference");
            own_.insert(t.spelling);
        }
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            const Token& t = unit_[i];
            const TokenRole role = unit_.role(i);
            if (role == TokenRole::Dereference || role == TokenRole::AddressOf || role == TokenRole::LambdaIntroducer ||
                t.isPunct("->") || t.isPunct("/") || t.isPunct("%") || t.isPunct("/=") || t.isPunct("%=") ||
                t.isIdentifier("this") || t.isIdentifier("goto") || t.isIdentifier("static") || t.isIdentifier("asm"))
                return refuse(role == TokenRole::Dereference       ? "it dereferences a pointer"
                              : role == TokenRole::AddressOf        ? "it takes an address"
                              : role == TokenRole::LambdaIntroducer ? "it has a lambda"
                                                                    : "it uses `" + t.spelling + "`");
            if (!t.isIdentifier()) continue;
            if (role == TokenRole::Name && unit_.isUnqualifiedName(i) &&
                unit_.useOf(i, i, ObjectParts::All).kind != UseKind::Read && !own_.count(t.spelling))
                return refuse("it writes '" + t.spelling + "', which outlives the call");
        }
        return total(*body);
    }

    // The collectives statements `ss` make, loops' trips counted; nothing when one is under
    // a condition or a loop is not counted.
    std::optional<unsigned> total(const std::vector<Statement>& ss) {
        unsigned n = 0;
        for (const Statement& s : ss) {
            std::optional<unsigned> inner;
            switch (s.kind) {
            case StatementKind::While:
            case StatementKind::Do:
            case StatementKind::Switch:
            case StatementKind::Goto:
                return refuse("it has a `while`, `do`, `switch` or `goto`, whose trips are not counted");
            case StatementKind::For: {
                const std::optional<long long> trips = tripCount(s);
                inner = total(s.children);
                if (!inner) return std::nullopt;
                if (!trips)
                    return refuse("a `for` does not count its own variable between literals with a body that "
                                  "only reads it");
                n += static_cast<unsigned>(*trips) * *inner;
                break;
            }
            case StatementKind::If: {
                const std::optional<unsigned> header = collectivesIn(s.header);
                inner = total(s.children);
                if (!header || !inner) return std::nullopt;
                if (*header || *inner) return refuse("a SIMD-group function is under an `if` (some lanes skip it)");
                break;
            }
            case StatementKind::Compound:
            case StatementKind::Labeled:
                inner = total(s.children);
                if (!inner) return std::nullopt;
                n += *inner;
                break;
            default:
                inner = collectivesIn(s.tokens);
                if (!inner) return std::nullopt;
                n += *inner;
                break;
            }
            if (n > kMaxStages)
                return refuse("it makes more than " + std::to_string(kMaxStages) + " SIMD-group functions a call");
        }
        return n;
    }

    // The collectives the calls in tokens `r` make (a simple statement or a header).
    std::optional<unsigned> collectivesIn(TokenRange r) {
        bool branches = false;
        for (std::size_t i = r.begin; i < r.end; ++i)
            branches = branches || unit_[i].isPunct("?") || unit_[i].isPunct("&&") || unit_[i].isPunct("||");
        unsigned n = 0;
        for (std::size_t i = r.begin; i < r.end; ++i) {
            const Token& t = unit_[i];
            if (!t.isIdentifier() || unit_.callOpen(i) == kNoToken) continue;
            const std::string& name = t.spelling;
            std::optional<unsigned> made;
            if (graph_.byName.count(name)) {
                made = countOfName(name); // the file's own: judged by this same rule
                if (!made) return refuse("it calls '" + name + "', which is not one either");
            } else if (unit_.role(i) == TokenRole::Member || own_.count(name) || isBarrierName(name) ||
                       isMatrixProductName(name) || isMatrixLaneUser(name) || isTensorOperationName(name) ||
                       name.starts_with("atomic_") || hasOutputParameter(name)) {
                // A member of some object, a functor, or a function with an effect.
                return refuse("it calls '" + name + "'" +
                              (unit_.role(i) == TokenRole::Member || own_.count(name)
                                   ? ", a member function or a functor"
                                   : ", which has an effect"));
            } else {
                made = isBarrierFunction(name) ? 1u : 0u; // a SIMD-group function, or another of Metal's
            }
            if (branches && *made)
                return refuse("a SIMD-group function is in a statement with `?:`, `&&` or `||` (some lanes skip it)");
            n += *made;
        }
        return n;
    }

    // The trips of `for (T i = A; i < B; i op= C)` between integer literals, whose body never
    // writes i; nothing for any other loop.
    std::optional<long long> tripCount(const Statement& s) {
        const TokenRange h = s.header;
        std::vector<std::size_t> semicolons;
        for (std::size_t i = h.begin; i < h.end; ++i)
            if (unit_[i].isPunct(";")) semicolons.push_back(i);
        if (semicolons.size() != 2) return std::nullopt;
        const std::size_t a = semicolons[0], b = semicolons[1];
        // The init: `T... i = A`.
        if (a < h.begin + 3 || !unit_[a - 2].isPunct("=") || !unit_[a - 3].isIdentifier()) return std::nullopt;
        const std::string& var = unit_[a - 3].spelling;
        const std::optional<long long> start = integerLiteral(unit_[a - 1]);
        for (std::size_t i = h.begin; i + 3 < a; ++i)
            if (!unit_[i].isIdentifier()) return std::nullopt; // the type
        // The condition: `i op B`.
        if (b != a + 4 || !unit_[a + 1].isIdentifier(var)) return std::nullopt;
        const std::string& compare = unit_[a + 2].spelling;
        const std::optional<long long> bound = integerLiteral(unit_[a + 3]);
        // The increment: `++i`, `i++`, `--i`, `i--` or `i op= C`.
        long long step = 0;
        char op = 0;
        const std::size_t incEnd = h.end;
        if (incEnd == b + 3 && unit_[b + 1].isPunct("++") && unit_[b + 2].isIdentifier(var)) op = '+', step = 1;
        else if (incEnd == b + 3 && unit_[b + 2].isPunct("++") && unit_[b + 1].isIdentifier(var)) op = '+', step = 1;
        else if (incEnd == b + 3 && unit_[b + 1].isPunct("--") && unit_[b + 2].isIdentifier(var)) op = '+', step = -1;
        else if (incEnd == b + 3 && unit_[b + 2].isPunct("--") && unit_[b + 1].isIdentifier(var)) op = '+', step = -1;
        else if (incEnd == b + 4 && unit_[b + 1].isIdentifier(var)) {
            const std::optional<long long> c = integerLiteral(unit_[b + 3]);
            if (!c) return std::nullopt;
            const std::string& assign = unit_[b + 2].spelling;
            if (assign == "+=") op = '+', step = *c;
            else if (assign == "-=") op = '+', step = -*c;
            else if (assign == "*=") op = '*', step = *c;
        }
        if (!start || !bound || !op) return std::nullopt;
        // The body reads i only.
        for (std::size_t i = h.end; i < s.tokens.end; ++i)
            if (unit_[i].isIdentifier(var) && unit_.isUnqualifiedName(i) &&
                unit_.useOf(i, i, ObjectParts::All).kind != UseKind::Read)
                return std::nullopt;
        const auto holds = [&](long long v) {
            if (compare == "<") return v < *bound;
            if (compare == "<=") return v <= *bound;
            if (compare == ">") return v > *bound;
            if (compare == ">=") return v >= *bound;
            if (compare == "!=") return v != *bound;
            return false;
        };
        if (compare != "<" && compare != "<=" && compare != ">" && compare != ">=" && compare != "!=")
            return std::nullopt;
        long long trips = 0;
        for (long long v = *start; holds(v); v = op == '+' ? v + step : v * step)
            if (++trips > kMaxTrips) return std::nullopt;
        return trips;
    }

    const Unit& unit_;
    const CallGraph& graph_;
    const std::set<std::size_t> values_;
    std::map<std::size_t, std::optional<unsigned>> judged_;
    std::map<std::size_t, std::string> reasons_; // why each refused function is, the first reason found
    std::size_t judging_ = kNoToken;             // the function judge() reads
    std::set<std::string> own_;                  // its parameters and locals
};

} // namespace

bool isBarrierName(std::string_view name) {
    return name == "threadgroup_barrier" || name == "simdgroup_barrier";
}

bool isMatrixProductName(std::string_view name) {
    return name == "simdgroup_multiply" || name == "simdgroup_multiply_accumulate";
}

// The SIMD-group matrix functions that need only the caller's lane (CoroutineKernel::laneUsers).
bool isMatrixLaneUser(std::string_view name) {
    return name == "simdgroup_load" || name == "simdgroup_store" || name == "__metal_simdgroup_matrix_8x8_load" ||
           name == "__metal_simdgroup_matrix_8x8_store" || isMatrixType(name);
}

bool isCollectiveHelper(const Unit& unit, const CallGraph& graph, std::size_t function) {
    const FunctionDecl& f = unit.module().functions[function];
    if (!f.hasBody || f.bodyClose < f.bodyOpen + 6 || f.parametersOpen == kNoToken) return false;
    // Parameters by value: the statement hands in copies of the arguments, which a reference
    // parameter could not bind (nor write back through).
    for (std::size_t k = f.parametersOpen + 1; k < f.parametersClose; ++k)
        if (unit[k].isPunct("&") || unit[k].isPunct("&&")) return false;
    const std::vector<std::size_t>& partner = unit.partner();
    std::size_t i = f.bodyOpen + 1;
    if (!unit[i].isIdentifier("return")) return false;
    ++i;
    // `[::]metal::` before the name, or nothing.
    if (unit[i].isPunct("::")) ++i;
    if (unit[i].isIdentifier("metal") && unit[i + 1].isPunct("::")) i += 2;
    else if (i != f.bodyOpen + 2) return false;
    const std::size_t name = i, open = i + 1;
    const std::string& spelling = unit[name].spelling;
    if (!unit[name].isIdentifier() || isBarrierName(spelling) || !isBarrierFunction(spelling) ||
        isMatrixProductName(spelling) || isMatrixLaneUser(spelling) || graph.byName.count(spelling))
        return false;
    if (unit.role(open) != TokenRole::CallOpen || partner[open] == kNoToken || partner[open] + 2 != f.bodyClose ||
        !unit[f.bodyClose - 1].isPunct(";"))
        return false;
    for (std::size_t k = open + 1; k < partner[open]; ++k) {
        const TokenRole role = unit.role(k);
        if (role == TokenRole::Assignment || role == TokenRole::CompoundAssignment || role == TokenRole::Increment ||
            role == TokenRole::CallOpen || role == TokenRole::LambdaIntroducer || unit.isAssignmentOperator(k))
            return false;
    }
    return true;
}

std::optional<unsigned> stagedCollectiveCount(const Unit& unit, const CallGraph& graph, std::size_t function) {
    StagedHelpers staged(unit, graph);
    return staged.count(function);
}

std::string whyNotCollectiveHelper(const Unit& unit, const CallGraph& graph, std::size_t function) {
    if (isCollectiveHelper(unit, graph, function)) return {};
    StagedHelpers staged(unit, graph);
    const std::optional<unsigned> count = staged.count(function);
    if (count && *count > 0) return {};
    return count ? "it makes no SIMD-group function" : staged.reason(function);
}

std::map<std::string, bool, std::less<>> collectiveHelperNames(const Unit& unit, const CallGraph& graph) {
    std::map<std::string, bool, std::less<>> names;
    const std::set<std::size_t> values(graph.namedAsValue.begin(), graph.namedAsValue.end());
    StagedHelpers staged(unit, graph);
    for (const auto& [name, functions] : graph.byName) {
        if (name == "operator()" || isBarrierName(name) || isTensorOperationName(name)) continue;
        bool all = !functions.empty(), anyStaged = false;
        for (std::size_t f : functions) {
            if (!all) break;
            all = !values.count(f) && !unit.module().functions[f].isKernel;
            if (!all || isCollectiveHelper(unit, graph, f)) continue;
            const std::optional<unsigned> count = staged.count(f);
            all = count && *count > 0;
            anyStaged = true;
        }
        if (all) names.emplace(name, anyStaged);
    }
    return names;
}

} // namespace metalcpu::msl
