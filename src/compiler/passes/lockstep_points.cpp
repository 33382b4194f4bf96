#include "compiler/passes/lockstep_points.h"

#include "compiler/call_arguments.h"
#include "compiler/call_graph.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

namespace {

/// A rendezvous without a value: the fiber scheduler releases the lanes in lane order
/// (exec/fiber_scheduler.h). Qualified, so that a file's own `simdgroup_barrier` is not called.
constexpr std::string_view kLockstepPoint = "::metal::simdgroup_barrier(::metal::mem_flags::mem_none); ";
/// The same in the instrumented flavour, of its own kind: the race check does not count it as a
/// SIMD-group synchronisation (the kernel's source has none there).
constexpr std::string_view kValidatedLockstepPoint = "::metalcpu_kernel::lockstep_point(); ";

/// Whether builtin `b` has one value for every lane of a SIMD-group.
bool uniformInSimdgroup(Builtin b) { return isUniformBuiltin(b) || b == Builtin::SimdgroupIndexInThreadgroup; }

/// Finds, in one kernel body, the lane-dependent `if`s that store to threadgroup memory at
/// statements every lane of the SIMD-group reaches.
class LockstepPlanner {
public:
    LockstepPlanner(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params, LockstepIfs& out)
        : unit_(unit), tokens_(unit.tokens()), f_(f), params_(params), out_(out),
          threadgroupNames_(out.threadgroupNames) {
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (unit_.role(i) == TokenRole::Declarator) bodyNames_.insert(tokens_[i].spelling);
        for (const ParamInfo& p : params)
            if (p.addressSpace == AddressSpace::Threadgroup && !p.name.empty()) threadgroupNames_.insert(p.name);
        // Until no more are found: `auto q = p;` after `threadgroup float* p = ss;`.
        for (bool more = true; more;) {
            more = false;
            for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
                if (unit_.role(i) == TokenRole::Declarator && !threadgroupNames_.count(tokens_[i].spelling) &&
                    declaresThreadgroupName(i))
                    more = threadgroupNames_.insert(tokens_[i].spelling).second || more;
        }
    }

    /// The `if`s of `statements` (a `{}` block every lane reaches) and of what they hold.
    void block(const std::vector<Statement>& statements, std::vector<std::size_t>& out) {
        for (const Statement& s : statements) visit(s, /*inBlock=*/true, out);
    }

private:
    void visit(const Statement& s, bool inBlock, std::vector<std::size_t>& out) {
        switch (s.kind) {
        case StatementKind::Compound:
            block(s.children, out);
            return;
        case StatementKind::If:
            if (uniformHeader(s.header, {})) {
                for (const Statement& c : s.children) visit(c, /*inBlock=*/false, out);
            } else if (inBlock && s.tokens.begin == s.keyword && storesToThreadgroup(s)) {
                out.push_back(s.keyword);
            }
            return;
        case StatementKind::For:
        case StatementKind::While:
        case StatementKind::Do: {
            if (s.children.empty()) return;
            const Statement& loopBody = s.children.front();
            // A `break` or `continue` of the loop lets lanes leave its body at different places.
            if (jumpsOut(tokens_, loopBody, false, false)) return;
            std::set<std::string> own; // the variables its init-statement declares
            for (std::size_t i = s.header.begin; i < s.header.end; ++i)
                if (unit_.role(i) == TokenRole::Declarator) own.insert(tokens_[i].spelling);
            if (!uniformHeader(s.header, own) || writesAny(loopBody.tokens, own)) return;
            std::vector<std::string> added;
            for (const std::string& name : own)
                if (uniformNames_.insert(name).second) added.push_back(name);
            visit(loopBody, /*inBlock=*/false, out);
            for (const std::string& name : added) uniformNames_.erase(name);
            return;
        }
        default:
            return; // a switch, a label, a simple statement: nothing inside is looked at
        }
    }

    /// Whether every lane of a SIMD-group evaluates `header` alike. `own`: variables it declares.
    bool uniformHeader(TokenRange header, const std::set<std::string>& own) const {
        for (std::size_t i = header.begin; i < header.end; ++i) {
            const TokenRole r = unit_.role(i);
            if (r == TokenRole::CallOpen || r == TokenRole::Subscript || r == TokenRole::Dereference ||
                tokens_[i].isPunct("->"))
                return false;
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const std::string& name = tokens_[i].spelling;
            if (own.count(name) || uniformNames_.count(name)) continue;
            if (const ParamInfo* p = parameter(name)) {
                if (p->kind == ParamKind::Builtin && !uniformInSimdgroup(p->builtin)) return false;
                if (p->isReference && (p->addressSpace == AddressSpace::Device || p->addressSpace == AddressSpace::Threadgroup))
                    return false;
                continue;
            }
            if (bodyNames_.count(name)) return false;
        }
        return true;
    }

    /// Whether `range` assigns to or increments one of `names`.
    bool writesAny(TokenRange range, const std::set<std::string>& names) const {
        for (std::size_t i = range.begin; i < range.end; ++i)
            if (unit_.isUnqualifiedName(i) && names.count(tokens_[i].spelling) && written(i)) return true;
        return false;
    }

    /// Whether the object named at `i` (or what it points to) is assigned, compound-assigned or
    /// incremented there: `x = 1`, `x[i] += 2`, `x->m = 3`, `*x = 4`, `++x.y`.
    bool written(std::size_t i) const {
        if (unit_.role(i) == TokenRole::Declarator) return false; // `= init` declares
        const auto writes = [](const ExpressionUse& use) {
            return use.kind == UseKind::Assigned || use.kind == UseKind::CompoundAssigned ||
                   use.kind == UseKind::Incremented;
        };
        if (writes(unit_.useOf(i, i, ObjectParts::All))) return true;
        return i > 0 && unit_.role(i - 1) == TokenRole::Dereference && writes(unit_.useOf(i - 1, i, ObjectParts::All));
    }

    bool storesToThreadgroup(const Statement& s) const {
        if (writesAny(s.tokens, threadgroupNames_)) return true;
        for (std::size_t i = s.tokens.begin; i < s.tokens.end; ++i)
            if (unit_.role(i) == TokenRole::CallOpen && callMayStore(i)) return true;
        return false;
    }

    /// The statement start before token `i` of the body: after the `;`, `{` or `}` before it,
    /// or after the `(` of a `for` header; brackets between are skipped.
    std::size_t statementStart(std::size_t i) const {
        const std::vector<std::size_t>& partner = unit_.partner();
        std::size_t k = i;
        while (k > f_.bodyOpen + 1) {
            const Token& t = tokens_[k - 1];
            if ((t.isPunct(")") || t.isPunct("]")) && partner[k - 1] != kNoToken && partner[k - 1] < k - 1) {
                k = partner[k - 1];
                continue;
            }
            if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(")) break;
            --k;
        }
        return k;
    }

    /// The initializer of the declarator at `name` (after its `=`, up to the next `,`, `;` or
    /// `)` outside brackets), or an empty range.
    TokenRange initializerOf(std::size_t name) const {
        const std::vector<std::size_t>& partner = unit_.partner();
        if (name + 1 >= f_.bodyClose || !tokens_[name + 1].isPunct("=")) return {name + 1, name + 1};
        std::size_t j = name + 2;
        for (; j < f_.bodyClose; ++j) {
            const Token& t = tokens_[j];
            if (t.isPunct(",") || t.isPunct(";") || t.isPunct(")")) break;
            if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[j] != kNoToken) j = partner[j];
        }
        return {name + 2, j};
    }

    /// Whether the declarator at `name` declares a name that holds or points into threadgroup
    /// memory (LockstepIfs::threadgroupNames); its initializer, for a pointer or reference, is
    /// an address initializer.
    bool declaresThreadgroupName(std::size_t name) {
        bool threadgroup = false, indirect = false, deduced = false;
        for (std::size_t k = statementStart(name); k < name; ++k) {
            const Token& t = tokens_[k];
            if (t.isIdentifier("threadgroup") && unit_.role(k) != TokenRole::Attribute) threadgroup = true;
            if (t.isPunct("*") || t.isPunct("&") || t.isPunct("&&")) indirect = true;
            if (t.isIdentifier("auto")) deduced = true;
        }
        const TokenRange init = initializerOf(name);
        if (threadgroup) {
            if (indirect && !init.empty()) out_.addressInitializers.push_back(init);
            return true;
        }
        if (!indirect && !deduced) return false;
        for (std::size_t i = init.begin; i < init.end; ++i) {
            if (!unit_.isUnqualifiedName(i) || !threadgroupNames_.count(tokens_[i].spelling)) continue;
            // A value read from it (`auto x = ss[0];`) is no pointer; `auto& r = ss[0];`,
            // `auto p = &ss[1];` and `auto p = ss + 1;` are.
            const Token& after = tokens_[i + 1];
            const bool element = after.isPunct("[") || after.isPunct(".") || after.isPunct("->") ||
                                 unit_.role(i - 1) == TokenRole::Dereference;
            if (indirect || !element || addressTakenAround(init, i)) {
                out_.addressInitializers.push_back(init);
                return true;
            }
        }
        return false;
    }

    /// Whether a unary `&` in `init` comes before the name at `i`.
    bool addressTakenAround(TokenRange init, std::size_t i) const {
        for (std::size_t k = init.begin; k < i; ++k)
            if (unit_.role(k) == TokenRole::AddressOf) return true;
        return false;
    }

    /// Whether the call whose `(` is at `open` may store to threadgroup memory: a lambda of the
    /// body that writes a threadgroup name or makes such a call, or a function of the file
    /// handed one of them where its parameter is a pointer or reference to non-const (or of a
    /// template type).
    bool callMayStore(std::size_t open) const {
        if (open == 0 || unit_.role(open - 1) != TokenRole::Callee) return false;
        const std::string& callee = tokens_[open - 1].spelling;
        if (bodyNames_.count(callee)) {
            for (std::size_t k = f_.bodyOpen + 1; k < f_.bodyClose; ++k) {
                if (unit_.role(k) != TokenRole::Declarator || tokens_[k].spelling != callee) continue;
                const TokenRange lambda = initializerOf(k);
                if (writesAny(lambda, threadgroupNames_)) return true;
                for (std::size_t i = lambda.begin; i < lambda.end; ++i)
                    if (unit_.role(i) == TokenRole::CallOpen && i != open && callMayStore(i)) return true;
            }
            return false;
        }
        const std::vector<std::size_t>& partner = unit_.partner();
        if (partner[open] == kNoToken) return false;
        const std::vector<TokenRange> arguments = splitParameters(tokens_, partner, open, partner[open]);
        for (std::size_t a = 0; a < arguments.size(); ++a) {
            bool handed = false; // a threadgroup name, as a pointer or an object a reference may bind
            for (std::size_t i = arguments[a].begin; i < arguments[a].end && !handed; ++i)
                handed = unit_.isUnqualifiedName(i) && threadgroupNames_.count(tokens_[i].spelling) &&
                         callArgumentAt(unit_, i).open == open;
            if (handed && mayWriteParameter(callee, a)) return true;
        }
        return false;
    }

    /// Whether some function of the file named `callee` may write through its parameter
    /// `index` (the last one, when it is a pack): a pointer or reference without `const` (or
    /// `constant`) before its last `*` or `&`, or a parameter by value of one of its template
    /// types.
    bool mayWriteParameter(const std::string& callee, std::size_t index) const {
        const std::vector<std::size_t>& partner = unit_.partner();
        for (const FunctionDecl& g : unit_.module().functions) {
            if (g.name != callee || g.parametersOpen == kNoToken) continue;
            const std::vector<TokenRange> ps = splitParameters(tokens_, partner, g.parametersOpen, g.parametersClose);
            if (ps.empty()) continue;
            const TokenRange p = index < ps.size() ? ps[index] : ps.back();
            // `const` since the last `*` or `&`, and before the last one: what it points to.
            bool constant = false, pointeeConstant = false, indirect = false, pack = false, templated = false;
            for (std::size_t k = p.begin; k < parameterDefault(tokens_, partner, p); ++k) {
                const Token& t = tokens_[k];
                if (t.isPunct("...")) pack = true;
                if (t.isIdentifier("const") || t.isIdentifier("constant")) constant = true;
                if (t.isPunct("*") || t.isPunct("&") || t.isPunct("&&")) {
                    indirect = true;
                    pointeeConstant = constant;
                    constant = false;
                }
                if (t.isIdentifier("auto") ||
                    (t.isIdentifier() && std::find(g.templateTypeParameters.begin(), g.templateTypeParameters.end(),
                                                   t.spelling) != g.templateTypeParameters.end()))
                    templated = true;
            }
            if (index >= ps.size() && !pack) continue;
            // By value, a parameter of a template type may be a pointer (`P p`, `auto p`).
            if (indirect ? !pointeeConstant : templated) return true;
        }
        return false;
    }

    const ParamInfo* parameter(const std::string& name) const { return parameterNamed(params_, name); }

    const Unit& unit_;
    const TokenList& tokens_;
    const FunctionDecl& f_;
    const std::vector<ParamInfo>& params_;
    LockstepIfs& out_;
    std::set<std::string> bodyNames_;     ///< every name the body declares
    std::set<std::string> uniformNames_;  ///< the variables of the uniform loops around
    std::set<std::string>& threadgroupNames_; ///< LockstepIfs::threadgroupNames
};

} // namespace

LockstepIfs findLockstepIfs(const Unit& unit, std::size_t function, const std::vector<ParamInfo>& params) {
    LockstepIfs out;
    const FunctionDecl& f = unit.module().functions[function];
    const std::vector<Statement>* body = f.hasBody ? unit.body(function) : nullptr;
    if (!body) return out;
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
        if (unit[i].isIdentifier("goto")) return out; // a label may be entered by some lanes only
    LockstepPlanner planner(unit, f, params, out);
    planner.block(*body, out.ifs);
    return out;
}

bool mayReadThreadgroup(const Unit& unit, const LockstepIfs& found, TokenRange range) {
    for (std::size_t i = range.begin; i < range.end; ++i) {
        if (!unit.isUnqualifiedName(i) || !found.threadgroupNames.count(unit[i].spelling)) continue;
        if (std::any_of(found.addressInitializers.begin(), found.addressInitializers.end(),
                        [&](const TokenRange& r) { return i >= r.begin && i < r.end; }))
            continue;
        if (unit.role(i) == TokenRole::Declarator) continue;
        if (unit.useOf(i, i, ObjectParts::All).kind == UseKind::Assigned) continue; // a store only
        return true;
    }
    return false;
}

namespace {

bool isLoop(const Statement& s) {
    return s.kind == StatementKind::For || s.kind == StatementKind::While || s.kind == StatementKind::Do;
}

// Whether a loop in `s` (or `s`) holds token `at` and reads threadgroup memory.
bool loopAroundReads(const Unit& unit, const LockstepIfs& found, const Statement& s, std::size_t at) {
    if (at < s.tokens.begin || at >= s.tokens.end) return false;
    if (isLoop(s) && mayReadThreadgroup(unit, found, s.tokens)) return true;
    return std::any_of(s.children.begin(), s.children.end(),
                       [&](const Statement& c) { return loopAroundReads(unit, found, c, at); });
}

} // namespace

LockstepSplit lockstepSplit(const Unit& unit, const LockstepIfs& found, const Statement& s, TokenRange before) {
    const bool readBefore = !found.ifs.empty() && mayReadThreadgroup(unit, found, before);
    for (std::size_t keyword : found.ifs) {
        if (keyword == s.keyword) return readBefore ? LockstepSplit::Before : LockstepSplit::None;
        if (keyword < s.tokens.begin || keyword >= s.tokens.end) continue;
        if (readBefore || mayReadThreadgroup(unit, found, {s.tokens.begin, keyword}) ||
            loopAroundReads(unit, found, s, keyword))
            return LockstepSplit::Inside;
    }
    return LockstepSplit::None;
}

void insertLockstepPoints(PassContext& c) {
    const Unit& unit = c.unit;
    const Module& module = unit.module();
    std::set<std::size_t> otherLowerings;
    for (const CoroutineKernel& k : c.findings.coroutineKernels) otherLowerings.insert(k.function);
    for (const WorkItemKernel& k : c.findings.workItemKernels) {
        otherLowerings.insert(k.function);
        if (!k.lockstepSplits.empty()) { // listed as the fibers' points are
            std::vector<std::size_t>& listed = c.findings.lockstepPoints[k.function];
            listed = k.lockstepSplits;
            std::sort(listed.begin(), listed.end());
        }
    }
    const std::vector<bool>& direct = c.findings.graph.usesBarriersDirectly;
    for (const auto& [function, params] : c.findings.parameters) {
        const FunctionDecl& f = module.functions[function];
        // Every instantiation of a body that calls a barrier or a SIMD-group function itself
        // runs on fibers; one that reaches them only through a function-pointer parameter may
        // not, and a plain kernel has no rendezvous to call.
        if (!f.hasBody || otherLowerings.count(function) || function >= direct.size() || !direct[function]) continue;
        for (std::size_t keyword : findLockstepIfs(unit, function, params).ifs) {
            if (c.edits.isRewritten(keyword)) continue;
            c.edits.insertBefore(keyword, std::string(c.options.validation ? kValidatedLockstepPoint : kLockstepPoint));
            c.findings.lockstepPoints[function].push_back(keyword);
        }
    }
}

} // namespace metalcpu::msl
