#include "compiler/passes/lockstep_points.h"

#include "compiler/call_graph.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
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

/// Whether builtin `b` has one value for every lane of a SIMD-group.
bool uniformInSimdgroup(Builtin b) { return isUniformBuiltin(b) || b == Builtin::SimdgroupIndexInThreadgroup; }

/// Finds, in one kernel body, the lane-dependent `if`s that store to threadgroup memory at
/// statements every lane of the SIMD-group reaches.
class LockstepPlanner {
public:
    LockstepPlanner(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params)
        : unit_(unit), tokens_(unit.tokens()), params_(params) {
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (unit_.role(i) == TokenRole::Declarator) bodyNames_.insert(tokens_[i].spelling);
        for (const ParamInfo& p : params)
            if (p.addressSpace == AddressSpace::Threadgroup && !p.name.empty()) threadgroupNames_.insert(p.name);
        for (std::size_t i = f.parametersOpen; i < f.bodyClose; ++i)
            if (tokens_[i].isIdentifier("threadgroup") && unit_.role(i) != TokenRole::Attribute)
                collectDeclared(i, /*inBody=*/i > f.bodyOpen);
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

    bool storesToThreadgroup(const Statement& s) const { return writesAny(s.tokens, threadgroupNames_); }

    /// The names a declaration whose specifiers hold the `threadgroup` at `at` declares:
    /// `threadgroup float tile[16], *p;`, `threadgroup const T* q = ss + 1;`, a parameter
    /// `threadgroup float* ss [[threadgroup(0)]]` (up to its `,` or the list's `)`).
    void collectDeclared(std::size_t at, bool inBody) {
        const std::vector<std::size_t>& partner = unit_.partner();
        for (std::size_t j = at + 1; j < tokens_.size(); ++j) {
            const Token& t = tokens_[j];
            if (t.isPunct(";") || t.isPunct(")") || t.isPunct("}") || t.isPunct("]") || t.isPunct("{")) return;
            if (t.isPunct(",") && !inBody) return;
            if ((t.isPunct("(") || t.isPunct("[")) && partner[j] != kNoToken) {
                j = partner[j];
                continue;
            }
            if (t.isPunct("=")) { // an initializer: on to the next declarator
                while (j + 1 < tokens_.size() && !tokens_[j + 1].isPunct(",") && !tokens_[j + 1].isPunct(";")) {
                    ++j;
                    if (tokens_[j].isPunct("(") || tokens_[j].isPunct("[") || tokens_[j].isPunct("{"))
                        if (partner[j] != kNoToken) j = partner[j];
                }
                continue;
            }
            if (unit_.role(j) == TokenRole::Declarator) threadgroupNames_.insert(t.spelling);
        }
    }

    const ParamInfo* parameter(const std::string& name) const { return parameterNamed(params_, name); }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<ParamInfo>& params_;
    std::set<std::string> bodyNames_;        ///< every name the body declares
    std::set<std::string> uniformNames_;     ///< the variables of the uniform loops around
    std::set<std::string> threadgroupNames_; ///< variables and parameters declared `threadgroup`
};

} // namespace

void insertLockstepPoints(PassContext& c) {
    const Unit& unit = c.unit;
    const Module& module = unit.module();
    std::set<std::size_t> otherLowerings;
    for (const CoroutineKernel& k : c.findings.coroutineKernels) otherLowerings.insert(k.function);
    for (const WorkItemKernel& k : c.findings.workItemKernels) otherLowerings.insert(k.function);
    const std::vector<bool>& direct = c.findings.graph.usesBarriersDirectly;
    for (const auto& [function, params] : c.findings.parameters) {
        const FunctionDecl& f = module.functions[function];
        // Every instantiation of a body that calls a barrier or a SIMD-group function itself
        // runs on fibers; one that reaches them only through a function-pointer parameter may
        // not, and a plain kernel has no rendezvous to call.
        if (!f.hasBody || otherLowerings.count(function) || function >= direct.size() || !direct[function]) continue;
        const std::vector<Statement>* body = unit.body(function);
        if (!body) continue;
        bool jumps = false; // a label may be entered by some lanes only
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose && !jumps; ++i) jumps = unit[i].isIdentifier("goto");
        if (jumps) continue;
        LockstepPlanner planner(unit, f, params);
        std::vector<std::size_t> points;
        planner.block(*body, points);
        for (std::size_t keyword : points) {
            if (c.edits.isRewritten(keyword)) continue;
            c.edits.insertBefore(keyword, std::string(kLockstepPoint));
            c.findings.lockstepPoints[function].push_back(keyword);
        }
    }
}

} // namespace metalcpu::msl
