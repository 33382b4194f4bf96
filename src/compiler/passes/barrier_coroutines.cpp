#include "compiler/passes/barrier_coroutines.h"

#include "compiler/passes/collective_helpers.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/kernels.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace metalcpu::msl {

namespace {

constexpr const char* kTaskType = "::metalcpu_kernel::barrier_task";
constexpr const char* kBarrierPoint = "co_await ::metalcpu_kernel::barrier_point";
// Its own name, so that the barrier-divergence check knows it need not be reached by the whole group.
constexpr const char* kSimdgroupBarrierPoint = "co_await ::metalcpu_kernel::simdgroup_barrier_point";
constexpr const char* kScopeRun = "co_await ::metalcpu_kernel::scope_run";
constexpr const char* kReduceRows = "co_await ::metalcpu_kernel::scope_reduce_rows";
constexpr const char* kReduceColumns = "co_await ::metalcpu_kernel::scope_reduce_columns";

// The statements of a kernel's own body (the unit's statement tree, so not those of its
// lambdas and local classes): where a barrier, a collective or a tensor operation may stand.
class OwnStatements {
public:
    OwnStatements(const Unit& unit, const std::vector<Statement>& body) : unit_(unit) { add(body); }

    /// The simple statement that starts at `first` (after its pragmas and attributes), or nullptr.
    const Statement* simpleAt(std::size_t first) const {
        const auto s = simple_.find(first);
        return s == simple_.end() ? nullptr : s->second;
    }
    /// The simple statement whose value ends with the call whose `(` is at `open`: the call's
    /// `)` is followed by the statement's `;`. nullptr when there is none.
    const Statement* callStatement(std::size_t open) const {
        if (!unit_[open].isPunct("(") || unit_.partner()[open] == kNoToken) return nullptr;
        const auto s = simpleEnding_.find(unit_.partner()[open] + 2);
        return s == simpleEnding_.end() ? nullptr : s->second;
    }
    /// Whether the call whose `(` is at `open` ends the simple statement that starts at `first`.
    bool isCallStatement(std::size_t first, std::size_t open) const {
        const Statement* s = callStatement(open);
        return s && s->keyword == first;
    }
    /// The `return` keywords of the body's return statements, in source order.
    const std::vector<std::size_t>& returns() const { return returns_; }

private:
    void add(const std::vector<Statement>& statements) {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Simple) {
                simple_.emplace(s.keyword, &s);
                simpleEnding_.emplace(s.tokens.end, &s);
            }
            if (s.kind == StatementKind::Return && unit_[s.keyword].isIdentifier("return")) returns_.push_back(s.keyword);
            add(s.children);
        }
    }

    const Unit& unit_;
    std::map<std::size_t, const Statement*> simple_;       ///< by first token
    std::map<std::size_t, const Statement*> simpleEnding_; ///< by end (one past the `;`)
    std::vector<std::size_t> returns_;
};

// For the tokens of function `function`'s body: whether each lies in a lambda or a local class
// written in it (findNestedBodies()). Indexed from the body's `{`.
std::vector<bool> nestedTokens(const Unit& unit, std::size_t function) {
    const FunctionDecl& f = unit.module().functions[function];
    std::vector<bool> nested(f.bodyClose - f.bodyOpen + 1, false);
    for (const NestedBody& b : findNestedBodies(unit, function))
        for (std::size_t k = b.tokens.begin; k < b.tokens.end; ++k) nested[k - f.bodyOpen] = true;
    return nested;
}

// The spellings of tokens [begin, end), joined: a name's qualification as written (`metal::`).
std::string spellings(const TokenList& tokens, std::size_t begin, std::size_t end) {
    std::string out;
    for (std::size_t k = begin; k < end; ++k) out += tokens[k].spelling;
    return out;
}

// The first token of the callee named at `name` when it is written `name`, `metal::name` or
// `::metal::name`; kNoToken for any other qualification (`ns::`, `x.`, `p->`, `::name`).
std::size_t calleeStart(const Unit& unit, std::size_t name) {
    const std::size_t start = unit.qualifiedNameStart(name);
    if (unit.role(start) == TokenRole::Member) return kNoToken; // `x.f`, `x.metal::f`
    const std::string qualification = spellings(unit.tokens(), start, name);
    return qualification.empty() || qualification == "metal::" || qualification == "::metal::" ? start : kNoToken;
}

// The `void` of a declaration written `[specifiers] void [specifiers] name(...)`, where the
// specifiers are `kernel`, `static`, `inline` and attributes; kNoToken for any other shape.
std::size_t voidReturnType(const Unit& unit, const FunctionDecl& f) {
    std::size_t found = kNoToken;
    const std::size_t end = unit.qualifiedNameStart(f.nameToken);
    for (std::size_t k = f.declarationBegin; k < end; ++k) {
        const Token& t = unit[k];
        if (unit.role(k) == TokenRole::Attribute) continue;
        if (t.isIdentifier("void")) {
            if (found != kNoToken) return kNoToken;
            found = k;
        } else if (!(k == f.kernelKeyword || t.isIdentifier("static") || t.isIdentifier("inline") ||
                     t.isIdentifier("__inline") || t.isIdentifier("__inline__"))) {
            return kNoToken;
        }
    }
    return found;
}

// A product called as a statement, `[metal::]simdgroup_multiply(d, a, b);` with `name` at
// the callee and `start` its first token: the statement, or nullopt.
std::optional<CollectiveStatement> productStatement(const Unit& unit, const OwnStatements& statements,
                                                   std::size_t name, std::size_t start) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::size_t open = name + 1, close = partner[open];
    if (!statements.isCallStatement(start, open)) return std::nullopt;
    for (std::size_t i = open + 1; i < close; ++i) {
        if (tokens[i].isPunct(",")) return CollectiveStatement{{start, close + 2}, {start, name + 1}, open, i};
        if (partner[i] != kNoToken && partner[i] > i) i = partner[i];
    }
    return std::nullopt;
}

// The statement `target op= call;` whose call, from `start` (its callee or object) to the `)`
// of `open`, is the whole value, with a target isCollectiveTarget() takes.
std::optional<CollectiveStatement> assignedCall(const Unit& unit, const OwnStatements& statements, std::size_t start,
                                                std::size_t open) {
    const std::size_t assignment = unit.assignmentBefore(start);
    const Statement* statement = statements.callStatement(open);
    if (assignment == kNoToken || !statement || assignment <= statement->keyword ||
        !isCollectiveTarget(unit, statement->keyword, assignment))
        return std::nullopt;
    return CollectiveStatement{{statement->keyword, unit.partner()[open] + 2}, {start, open}, open};
}

// The statement whose whole value is the SIMD-group call with its name at `name`:
// `[T] x op= [metal::]simd_f(args);` at the start of a statement of the body, or a matrix
// product as a statement; nullopt for any other place (an operand, an argument, a
// condition, a lambda's body).
std::optional<CollectiveStatement> collectiveStatement(const Unit& unit, const OwnStatements& statements,
                                                       std::size_t name) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::string& spelling = tokens[name].spelling;
    const bool product = isMatrixProductName(spelling);
    // The product of a SIMD-group matrix's vec<T, 64> storage (metal-flash-attention's
    // `t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, b.t, t, storage_type());`)
    // returns its value as the collectives do: a collective statement when it is the whole value.
    const bool storageProduct = spelling == "__metal_simdgroup_matrix_8x8_multiply_accumulate";
    if (!product && !storageProduct && !spelling.starts_with("simd_") && !spelling.starts_with("quad_"))
        return std::nullopt;
    const std::size_t open = name + 1;
    if (unit.role(open) != TokenRole::CallOpen || partner[open] == kNoToken) return std::nullopt;
    const std::size_t start = calleeStart(unit, name);
    if (start == kNoToken) return std::nullopt;
    if (product) return productStatement(unit, statements, name, start);
    return assignedCall(unit, statements, start, open);
}

// The statement whose whole value is the call of collective helper `name` (`[T] x op=
// name(args);` or `... = obj.name(args);` with `obj` a plain name), or nullopt.
std::optional<CollectiveStatement> helperStatement(const Unit& unit, const OwnStatements& statements,
                                                   std::size_t name) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::size_t open = name + 1;
    if (unit.role(open) != TokenRole::CallOpen || partner[open] == kNoToken) return std::nullopt;
    std::size_t start = name, object = kNoToken;
    if (unit.role(name) == TokenRole::Member) {
        // `obj.name(`: the object a name alone, not itself a member or qualified.
        if (name < 3 || !tokens[name - 1].isPunct(".") || !tokens[name - 2].isIdentifier() ||
            unit.role(name - 2) != TokenRole::Name || unit.qualifiedNameStart(name - 2) != name - 2 ||
            tokens[name - 3].isPunct(".") || tokens[name - 3].isPunct("->"))
            return std::nullopt;
        start = object = name - 2;
    } else if (unit.qualifiedNameStart(name) != name) {
        return std::nullopt;
    }
    auto c = assignedCall(unit, statements, start, open);
    if (c) {
        c->helper = true;
        c->object = object;
    }
    return c;
}

// Finds the body's SIMD-group calls (simd_*, quad_*, matrix products) and the matrix
// functions that need only the caller's lane; false when a call is not a whole statement's
// value, or one of them or another barrier-like function is in a lambda or local class, with
// `refusal` saying which and why.
bool findCollectives(const Unit& unit, const FunctionDecl& f, const OwnStatements& statements,
                     const std::vector<bool>& nested, const std::map<std::string, bool, std::less<>>& helpers,
                     std::vector<CollectiveStatement>& out, std::vector<std::size_t>& laneUsers,
                     WorkItemRefusal& refusal) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const auto inNestedBody = [&](std::size_t i) {
        refusal.token = i;
        refusal.reason = "'" + tokens[i].spelling + "' is called in a lambda or a local class";
        return false;
    };
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        const Token& t = tokens[i];
        if (t.isIdentifier() && isMatrixDeclarationWithArguments(tokens, partner, i, f.bodyClose)) {
            if (nested[i - f.bodyOpen]) return inNestedBody(i);
            laneUsers.push_back(i);
            continue;
        }
        if (t.isIdentifier() && helpers.count(t.spelling) && unit.callOpen(i) != kNoToken) {
            if (nested[i - f.bodyOpen]) return inNestedBody(i);
            auto statement = helperStatement(unit, statements, i);
            if (statement) statement->staged = helpers.find(t.spelling)->second;
            if (!statement) {
                refusal.token = i;
                refusal.reason = "'" + t.spelling + "', whose body is a SIMD-group function, is not the whole value "
                                 "of a statement (`x = " + t.spelling + "(...);`, `x = obj." + t.spelling +
                                 "(...);`): it is an operand, an argument or a condition, or is qualified";
                return false;
            }
            out.push_back(*statement);
            continue;
        }
        if (!t.isIdentifier() || isBarrierName(t.spelling) || !isBarrierFunction(t.spelling) ||
            unit.callOpen(i) == kNoToken)
            continue;
        if (nested[i - f.bodyOpen]) return inNestedBody(i);
        if (isMatrixLaneUser(t.spelling)) {
            laneUsers.push_back(i);
            continue;
        }
        auto statement = collectiveStatement(unit, statements, i);
        if (!statement) {
            refusal.token = i;
            refusal.reason = isMatrixProductName(t.spelling)
                                 ? "SIMD-group matrix product '" + t.spelling + "' is not a call statement of its own"
                                 : "SIMD-group function '" + t.spelling +
                                       "' is not the whole value of a statement (`x = " + t.spelling +
                                       "(...);`): it is an operand, an argument or a condition, or is qualified";
            return false;
        }
        out.push_back(*statement);
    }
    return true;
}

// Whether `start` begins the name of a reduction as MPP spells it: `reduce_rows`,
// `tensor_ops::reduce_rows`, `mpp::tensor_ops::reduce_rows` or `::mpp::tensor_ops::reduce_rows`.
bool isReductionCallee(const TokenList& tokens, std::size_t start, std::size_t name) {
    const std::string qualification = spellings(tokens, start, name);
    return qualification.empty() || qualification == "tensor_ops::" || qualification == "mpp::tensor_ops::" ||
           qualification == "::mpp::tensor_ops::";
}

// Whether `op . [template] member [<...>] ( )` starts at `op`: a call of an argument-less member
// function (the getters of the cooperative tensors), which does not run the operation.
bool isArgumentlessMemberCall(const Unit& unit, std::size_t op) {
    if (!unit[op + 1].isPunct(".")) return false;
    std::size_t member = op + 2;
    if (unit[member].isIdentifier("template")) ++member;
    if (unit[member].spelling == "run") return false;
    const std::size_t open = unit.callOpen(member);
    return open != kNoToken && unit[open + 1].isPunct(")");
}

// Finds the body's tensor operations (TensorOperationStatement); false when one of them, or a
// name the body declares as an operation, is used any other way (findCoroutineKernels()),
// with `at` the token where.
bool findTensorOperations(const Unit& unit, const FunctionDecl& f, const OwnStatements& statements,
                          const std::vector<bool>& nested, bool fileNamesOperations,
                          std::vector<TensorOperationStatement>& out, std::size_t& at) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    // The operations the body declares: `[ns::]matmul2d<...> NAME;` (or `NAME{...};`, `NAME(...);`).
    std::map<std::string, std::size_t> operations; // name -> its declarator
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        const Token& t = tokens[i];
        if (!t.isIdentifier("matmul2d") && !t.isIdentifier("convolution2d")) continue;
        at = i;
        if (nested[i - f.bodyOpen]) return false;
        const std::size_t start = unit.qualifiedNameStart(i);
        std::size_t name = i + 1;
        if (tokens[name].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, name, f.bodyClose);
            if (close == kNoToken) return false;
            name = close + 1;
        }
        // The statement is the declaration of NAME alone, maybe with `{...}` or `(...)` after it.
        const Token& after = tokens[name + 1];
        const std::size_t declarationEnd =
            (after.isPunct("{") || after.isPunct("(")) && partner[name + 1] != kNoToken ? partner[name + 1] + 1
                                                                                         : name + 1;
        const Statement* declaration = statements.simpleAt(start);
        if (!declaration || declaration->tokens.end != declarationEnd + 1 || !tokens[name].isIdentifier() ||
            isCppKeyword(tokens[name].spelling) || operations.count(tokens[name].spelling))
            return false;
        operations.emplace(tokens[name].spelling, name);
    }
    using Kind = TensorOperationStatement::Kind;
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        const Token& t = tokens[i];
        if (!t.isIdentifier()) continue;
        const bool reduction = t.spelling == "reduce_rows" || t.spelling == "reduce_columns";
        const auto operation = operations.find(t.spelling);
        const bool memberRun = fileNamesOperations && t.spelling == "run" && unit.isAccessedMember(i);
        if (!reduction && operation == operations.end() && !memberRun) continue;
        at = i;
        if (nested[i - f.bodyOpen]) return false;
        if (reduction) {
            const std::size_t start = unit.qualifiedNameStart(i);
            if (!isReductionCallee(tokens, start, i) || unit.role(start) == TokenRole::Member ||
                !statements.isCallStatement(start, i + 1))
                return false;
            out.push_back({t.spelling == "reduce_rows" ? Kind::ReduceRows : Kind::ReduceColumns, {start, i + 1}, i + 1});
        } else if (memberRun) {
            // Each `NAME.run(...)` of a declared operation was taken at NAME; any other is not ours.
            if (out.empty() || out.back().kind != Kind::Run || out.back().callee.end != i + 1) return false;
        } else if (operation->second == i) {
            continue; // the declaration
        } else if (unit.role(i) == TokenRole::Member || unit.role(i) == TokenRole::QualifiedPart) {
            return false; // a member named like the operation
        } else if (tokens[i + 1].isPunct(".") && tokens[i + 2].isIdentifier("run") &&
                   statements.isCallStatement(i, i + 3)) {
            out.push_back({Kind::Run, {i, i + 3}, i + 3});
        } else if (!isArgumentlessMemberCall(unit, i)) {
            return false; // an operand, an argument: it may run the operation elsewhere
        }
    }
    return true;
}

} // namespace

bool isCollectiveTarget(const Unit& unit, std::size_t begin, std::size_t assignment) {
    const TokenList& tokens = unit.tokens();
    if (assignment <= begin) return false;
    // An element: the subscripts' `[...]` back from the assignment, then the array's name.
    std::size_t name = assignment;
    while (name > begin && tokens[name - 1].isPunct("]")) {
        const std::size_t bracket = unit.partner()[name - 1];
        if (bracket == kNoToken || bracket < begin || unit.role(bracket) != TokenRole::Subscript) return false;
        name = bracket;
    }
    if (name != assignment) {
        // C++17 evaluates the element after the value, as the second loop does; its subscripts
        // only read (a call could reach a collective or barrier of its own).
        for (std::size_t k = name; k < assignment; ++k)
            if (unit.role(k) == TokenRole::CallOpen || unit.role(k) == TokenRole::Increment ||
                unit.role(k) == TokenRole::LambdaIntroducer || unit.isAssignmentOperator(k))
                return false;
        return name > begin && unit.role(name - 1) == TokenRole::Name && unit.qualifiedNameStart(name - 1) == begin;
    }
    const TokenRole target = unit.role(assignment - 1);
    if (target != TokenRole::Name && target != TokenRole::Declarator && target != TokenRole::QualifiedPart)
        return false;
    for (std::size_t k = begin; k < assignment; ++k)
        if (!tokens[k].isIdentifier() && !tokens[k].isPunct("::")) return false;
    return true;
}

std::vector<std::size_t> reachableFromKernel(const Unit& unit, const CallGraph& graph,
                                             const std::vector<EntryPoint>& entryPoints, std::size_t kernel) {
    std::vector<std::size_t> reached;
    bool instantiated = false;
    for (const EntryPoint& e : entryPoints) {
        if (e.function != kernel || e.templateArgumentTokens.begin == e.templateArgumentTokens.end) continue;
        instantiated = true;
        std::vector<std::size_t> own = reachableFromInstantiation(graph, kernel, unit.tokens(), unit.partner(),
                                                                  e.templateArgumentTokens.begin,
                                                                  e.templateArgumentTokens.end);
        std::vector<std::size_t> both;
        std::set_union(reached.begin(), reached.end(), own.begin(), own.end(), std::back_inserter(both));
        reached = std::move(both);
    }
    return instantiated ? reached : reachableFunctions(graph, kernel);
}

namespace {

// What a barrier-like name is, for a refusal's words. A function of the file spelt like a
// SIMD-group function (MLX's `simd_scan` members, its `simd_shuffle_down` overloads) is named
// as that.
std::string barrierKind(const CallGraph& graph, const std::string& name) {
    if (graph.byName.count(name)) return "'" + name + "' (a SIMD-group function, or the file's function of that name)";
    if (isBarrierName(name)) return "barrier '" + name + "'";
    if (isMatrixProductName(name) || isMatrixLaneUser(name)) return "SIMD-group matrix function '" + name + "'";
    if (isBarrierFunction(name)) return "SIMD-group function '" + name + "'";
    return "tensor operation '" + name + "'";
}

// The first barrier, collective or tensor operation written in function `function`'s body,
// or kNoToken (a body that uses one only through an alias of an operation's type).
std::size_t firstBarrierLike(const Unit& unit, const FunctionDecl& f) {
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        const Token& t = unit[i];
        if (!t.isIdentifier()) continue;
        if ((isBarrierFunction(t.spelling) && unit.callOpen(i) != kNoToken) || isTensorOperationName(t.spelling) ||
            isCooperativeTensorName(t.spelling))
            return i;
    }
    return kNoToken;
}

// The first call in function `caller`'s body of a function named `name` (`name(`, `name<...>(`,
// `x.name(`), or kNoToken.
std::size_t firstCallOf(const Unit& unit, const FunctionDecl& caller, const std::string& name) {
    const std::string plain = name == "operator()" ? std::string() : name;
    for (std::size_t i = caller.bodyOpen + 1; i < caller.bodyClose; ++i)
        if (unit[i].isIdentifier() && unit[i].spelling == plain && unit.callOpen(i) != kNoToken) return i;
    return kNoToken;
}

// What keeps the function the kernel calls (`step`), on the way to the barrier-like
// `construct` (kNoToken: a tensor operation), from being a collective helper
// (collective_helpers.h), after ", and at its calls of collective helpers".
std::string helperRefusalDetail(const Unit& unit, const CallGraph& graph, std::size_t construct, std::size_t step) {
    const std::string kinds = " (functions whose only effect is their value and whose lanes make the same "
                              "SIMD-group functions in the same order: one `return simd_f(...);`, or staged, "
                              "several in a row, as MLX's `CumMax::simd_scan`)";
    if (construct == kNoToken) return kinds + "; a tensor operation is in none";
    if (isBarrierName(unit[construct].spelling)) return kinds + "; a barrier is in none";
    const FunctionDecl& f = unit.module().functions[step];
    const std::string& name = f.name;
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
        if (unit[i].isIdentifier() && isBarrierName(unit[i].spelling) && unit.callOpen(i) != kNoToken)
            return kinds + ", which '" + name + "' is not: it calls barrier '" + unit[i].spelling + "', which is in none";
    const std::string why = whyNotCollectiveHelper(unit, graph, step);
    if (why.empty())
        return kinds + "; '" + name + "' is one, but another function of that name is not, or one is named as a value";
    return kinds + ", which '" + name + "' is not: " + why;
}

// Why kernel `kernel` keeps the fibers although its body may be fine: a function it reaches
// (`reached`) other than itself uses a barrier, collective or tensor operation, other than a
// collective helper the kernel's body calls itself (`helpers`, whose calls findCollectives()
// judges). Names the kernel's call that leads there (the first step of a shortest path over
// the call graph) and the construct in the function; kNoToken as the call when only a call
// through a function pointer or functor leads there. nullopt when nothing does.
std::optional<WorkItemRefusal> helperRefusal(const Unit& unit, const CallGraph& graph, std::size_t kernel,
                                             const std::vector<std::size_t>& reached,
                                             const std::map<std::string, bool, std::less<>>& helpers) {
    const Module& module = unit.module();
    const auto isHelper = [&](std::size_t f) { return helpers.count(module.functions[f].name) != 0; };
    const std::set<std::size_t> reachable(reached.begin(), reached.end());
    std::map<std::size_t, std::size_t> firstStep; // function -> the kernel's callee that leads to it
    std::vector<std::size_t> queue;
    std::size_t target = kNoToken;
    for (std::size_t c : graph.callees[kernel]) {
        if (c == kernel || !reachable.count(c) || !firstStep.emplace(c, c).second) continue;
        // Of the functions a call may be (by name), name one that is not a collective helper
        // when there is one: that is what keeps its name from being split at.
        if (graph.usesBarriersDirectly[c] && !isHelper(c) &&
            (target == kNoToken || (isCollectiveHelper(unit, graph, target) && !isCollectiveHelper(unit, graph, c))))
            target = c;
        // What a helper the kernel calls reaches is the helper's (collective_helpers.h judges it).
        if (!isHelper(c)) queue.push_back(c);
    }
    std::set<std::size_t> insideHelpers;
    for (std::size_t c : graph.callees[kernel])
        if (isHelper(c)) insideHelpers.insert(c);
    for (std::vector<std::size_t> work(insideHelpers.begin(), insideHelpers.end()); !work.empty();) {
        const std::size_t f = work.back();
        work.pop_back();
        for (std::size_t c : graph.callees[f])
            if (insideHelpers.insert(c).second) work.push_back(c);
    }
    // Beyond the kernel's own calls, any barrier-like function blocks, a helper too (its call
    // is not a statement of the kernel's body).
    for (std::size_t q = 0; q < queue.size() && target == kNoToken; ++q) {
        const std::size_t f = queue[q];
        for (std::size_t c : graph.callees[f]) {
            if (c == kernel || !reachable.count(c)) continue;
            if (graph.usesBarriersDirectly[c]) {
                firstStep[c] = firstStep[f];
                target = c;
                break;
            }
            if (firstStep.emplace(c, firstStep[f]).second) queue.push_back(c);
        }
    }
    WorkItemRefusal refusal;
    refusal.function = kernel;
    if (target == kNoToken) {
        // Only an opaque call reaches it: name one such function.
        const std::vector<std::size_t>& own = graph.callees[kernel];
        for (std::size_t r : reached)
            if (r != kernel && graph.usesBarriersDirectly[r] &&
                !(isHelper(r) && std::find(own.begin(), own.end(), r) != own.end()) &&
                !(insideHelpers.count(r) && !firstStep.count(r)))
                target = r;
        if (target == kNoToken) return std::nullopt;
        refusal.token = module.functions[kernel].nameToken;
        refusal.reason = "a call through a function pointer or functor may reach '" + module.functions[target].name +
                         "', which uses ";
    } else {
        const FunctionDecl& step = module.functions[firstStep[target]];
        refusal.token = firstCallOf(unit, module.functions[kernel], step.name);
        if (refusal.token == kNoToken) refusal.token = module.functions[kernel].nameToken;
        refusal.reason = "it calls '" + step.name + "'";
        if (firstStep[target] != target) refusal.reason += ", which reaches '" + module.functions[target].name + "'";
        refusal.reason += ", which uses ";
    }
    const FunctionDecl& helper = module.functions[target];
    const std::size_t construct = firstBarrierLike(unit, helper);
    refusal.related = construct == kNoToken ? helper.nameToken : construct;
    refusal.reason += construct == kNoToken ? std::string("a tensor operation") : barrierKind(graph, unit[construct].spelling);
    refusal.afterRelated = ": the front end splits a kernel only at the barriers and SIMD-group functions its own "
                           "body calls, and at its calls of collective helpers" +
                           helperRefusalDetail(unit, graph, construct,
                                               firstStep.count(target) ? firstStep[target] : target);
    return refusal;
}

} // namespace

std::vector<CoroutineKernel> findCoroutineKernels(const Unit& unit, const CallGraph& graph,
                                                  const std::vector<EntryPoint>& entryPoints,
                                                  std::vector<WorkItemRefusal>& refusals) {
    const TokenList& tokens = unit.tokens();
    const Module& module = unit.module();
    std::vector<CoroutineKernel> out;
    std::size_t ownBarrier = kNoToken; // a function of the file named like Metal's barriers
    for (const FunctionDecl& f : module.functions)
        if (f.hasBody && isBarrierName(f.name) && ownBarrier == kNoToken) ownBarrier = f.nameToken;
    const bool fileNamesOperations = namesOperationTypes(tokens);
    const std::map<std::string, bool, std::less<>> helpers = collectiveHelperNames(unit, graph);

    for (std::size_t fi = 0; fi < module.functions.size(); ++fi) {
        const FunctionDecl& f = module.functions[fi];
        if (!f.isKernel || !f.hasBody || !f.enclosingClass.empty()) continue;
        const auto refuse = [&](std::size_t token, std::string reason) {
            refusals.push_back({fi, token == kNoToken ? f.nameToken : token, std::move(reason)});
        };
        const std::vector<std::size_t> reached = reachableFromKernel(unit, graph, entryPoints, fi);
        bool reachesOthers = false;
        for (std::size_t r : reached)
            if (r != fi && graph.usesBarriersDirectly[r]) reachesOthers = true;
        if (!graph.usesBarriersDirectly[fi] && !reachesOthers) continue; // no barrier at all
        if (ownBarrier != kNoToken) {
            refuse(ownBarrier, "the file defines a function named '" + tokens[ownBarrier].spelling +
                                   "', so its calls may not be Metal's barriers");
            continue;
        }
        if (reachesOthers) {
            if (auto refusal = helperRefusal(unit, graph, fi, reached, helpers)) {
                refusals.push_back(std::move(*refusal));
                continue;
            }
        }

        // A body the statement parser could not delimit (Unit::lexicalBodies()) has no
        // statements to suspend at: the kernel keeps the fibers.
        const std::vector<Statement>* body = unit.body(fi);
        if (!body) {
            refuse(f.bodyOpen, "its body could not be parsed into statements");
            continue;
        }
        const OwnStatements statements(unit, *body);
        CoroutineKernel kernel;
        const std::vector<bool> nested = nestedTokens(unit, fi);
        WorkItemRefusal collectiveRefusal{fi, kNoToken, ""};
        if (!findCollectives(unit, f, statements, nested, helpers, kernel.collectives, kernel.laneUsers,
                             collectiveRefusal)) {
            refusals.push_back(std::move(collectiveRefusal));
            continue;
        }
        std::size_t operationAt = kNoToken;
        if (!findTensorOperations(unit, f, statements, nested, fileNamesOperations, kernel.tensorOperations,
                                  operationAt)) {
            refuse(operationAt, "'" + (operationAt == kNoToken ? f.name : tokens[operationAt].spelling) +
                                    "' is used other than as a tensor-operation statement of the body "
                                    "(`op.run(...);`, `reduce_rows(...);`)");
            continue;
        }
        kernel.function = fi;
        std::size_t returnType = voidReturnType(unit, f);
        if (returnType == kNoToken) {
            refuse(f.nameToken, "its declaration is not `void` with only `kernel`, `static`, `inline` and "
                                "attributes before the name");
            continue;
        }
        kernel.returnTypes.push_back(returnType);
        bool eligible = true;
        for (std::size_t di = 0; di < module.functions.size() && eligible; ++di) {
            const FunctionDecl& d = module.functions[di];
            if (di == fi || !d.isKernel || d.name != f.name || d.namespaces != f.namespaces ||
                !d.enclosingClass.empty())
                continue;
            std::size_t other = d.hasBody ? kNoToken : voidReturnType(unit, d);
            if (other == kNoToken) {
                eligible = false; // an overload, or a prototype of another shape
                refuse(d.nameToken, "another declaration of the kernel is an overload or a prototype that is not "
                                    "`void` with only `kernel`, `static`, `inline` and attributes before the name");
            }
            kernel.returnTypes.push_back(other);
        }
        if (!eligible) continue;

        kernel.returns = statements.returns();
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose && eligible; ++i) {
            if (!tokens[i].isIdentifier() || !isBarrierName(tokens[i].spelling)) continue;
            // Only `[metal::]threadgroup_barrier(args);` as a statement of this body.
            const std::size_t start = nested[i - f.bodyOpen] ? kNoToken : calleeStart(unit, i);
            eligible = start != kNoToken && statements.isCallStatement(start, i + 1);
            if (eligible)
                kernel.barriers.push_back({start, i + 1});
            else if (nested[i - f.bodyOpen])
                refuse(i, "'" + tokens[i].spelling + "' is called in a lambda or a local class");
            else
                refuse(i, "'" + tokens[i].spelling + "' is not called as a statement of the body itself (`" +
                              tokens[i].spelling + "(...);`): it is an operand or a for-loop increment, is taken by "
                              "address or is qualified other than `metal::`");
        }
        // Nothing to suspend at (a kernel that only makes cooperative tensors): a coroutine
        // would have no co_await, so it stays on fibers, which keep the thread index too.
        if (eligible && kernel.barriers.empty() && kernel.collectives.empty() && kernel.laneUsers.empty() &&
            kernel.tensorOperations.empty()) {
            refuse(firstBarrierLike(unit, f), "it makes cooperative tensors but has no barrier or tensor operation to "
                                              "suspend at");
            continue;
        }
        if (!eligible) continue;
        out.push_back(std::move(kernel));
    }
    return out;
}

void rewriteKernelReturn(EditList& edits, const Unit& unit, std::size_t keyword, const std::string& leave) {
    const TokenList& tokens = unit.tokens();
    if (tokens[keyword + 1].isPunct(";")) {
        edits.replace(keyword, leave);
        return;
    }
    // The `;` that ends the statement: the first outside the brackets of the operand (a
    // lambda's body in it has its own).
    std::size_t end = keyword + 1;
    while (end < tokens.size() && !tokens[end].isPunct(";")) {
        const std::size_t partner = unit.partner()[end];
        end = partner != kNoToken && partner > end ? partner + 1 : end + 1;
    }
    if (end >= tokens.size()) return edits.replace(keyword, leave); // unreachable: the statement was parsed
    edits.replace(keyword, "{");
    edits.insertAfter(end, " " + leave + "; }");
}

void rewriteCoroutineKernels(PassContext& context) {
    const TokenList& tokens = context.unit.tokens();
    EditList& edits = context.edits;
    for (const CoroutineKernel& kernel : context.findings.coroutineKernels) {
        for (std::size_t v : kernel.returnTypes) {
            // Start in the blank the erased `kernel` / [[kernel]] left before `void`, if any.
            std::size_t start = v;
            while (start > 0) {
                const Token& p = tokens[start - 1];
                if (!p.erased || !p.prefix.empty() || !p.suffix.empty() || p.kind == TokenKind::Pragma ||
                    p.location.file != tokens[v].location.file || p.location.line != tokens[v].location.line)
                    break;
                --start;
            }
            if (start == v) {
                edits.replace(v, kTaskType);
            } else {
                edits.erase(v);
                edits.insertBefore(start, std::string(kTaskType) + " ");
            }
        }
        for (TokenRange callee : kernel.barriers) {
            const bool simdgroup = tokens[callee.end - 1].spelling == "simdgroup_barrier";
            if (!context.options.validation) {
                edits.replace(callee, simdgroup ? kSimdgroupBarrierPoint : kBarrierPoint);
                continue;
            }
            // The validated flavour names the barrier's site, for the barrier-divergence check:
            // `co_await barrier_at<1>{{file, line, column}}(flags)`.
            const Token& at = tokens[callee.begin];
            edits.replace(callee, std::string("co_await ::metalcpu_kernel::barrier_at<") + (simdgroup ? "2" : "1") +
                                      ">{{__FILE__, " + std::to_string(at.location.line) + ", " +
                                      std::to_string(at.location.column) + ", nullptr}}");
        }
        for (const TensorOperationStatement& op : kernel.tensorOperations) {
            if (op.kind != TensorOperationStatement::Kind::Run) {
                edits.replace(op.callee, op.kind == TensorOperationStatement::Kind::ReduceRows ? kReduceRows
                                                                                                : kReduceColumns);
                continue;
            }
            // `op.run(a, b, c)` -> `co_await ::metalcpu_kernel::scope_run(op, a, b, c)`.
            edits.insertBefore(op.callee.begin, std::string(kScopeRun) + "(");
            const TokenRange memberAndParenthesis{op.callee.begin + 1, op.open + 1};
            if (tokens[op.open + 1].isPunct(")"))
                edits.erase(memberAndParenthesis);
            else
                edits.replace(memberAndParenthesis, ", ");
        }
        for (std::size_t r : kernel.returns) rewriteKernelReturn(edits, context.unit, r, "co_return");
    }
}

} // namespace metalcpu::msl
