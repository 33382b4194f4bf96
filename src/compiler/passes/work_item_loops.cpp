// Work-item loops (work_item_loops.h): the entry points, and the planner's walk over a kernel's
// statements (work_item_planner.h), which decides what each becomes.
#include "compiler/passes/work_item_loops.h"

#include "compiler/call_arguments.h"
#include "compiler/call_graph.h"
#include "compiler/findings.h"
#include "compiler/passes/lockstep_points.h"
#include "compiler/passes/work_item_planner.h"
#include "compiler/signature.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <set>

namespace metalcpu::msl {

// Builtins with one value for the whole group (METALCPU_BUILTINS' `uniform` column): the
// parameter keeps thread 0's value.
bool isUniformBuiltin(Builtin b) {
    switch (b) {
#define METALCPU_BUILTIN_UNIFORM(enumerator, attribute, name, uniform) \
    case Builtin::name:                                                 \
        return (uniform) != 0;
        METALCPU_BUILTINS(METALCPU_BUILTIN_UNIFORM)
#undef METALCPU_BUILTIN_UNIFORM
    case Builtin::None:
        return false;
    }
    return false;
}

// What jumps out of `s`; see work_item_loops.h.
bool jumpsOut(const TokenList& tokens, const Statement& s, bool breakStays, bool continueStays) {
    switch (s.kind) {
    case StatementKind::Break:
        return !breakStays;
    case StatementKind::Continue:
        return !continueStays;
    case StatementKind::Goto:
        return true;
    case StatementKind::Labeled:
        if (!tokens[s.keyword].isIdentifier("case") && !tokens[s.keyword].isIdentifier("default")) return true;
        break;
    case StatementKind::For:
    case StatementKind::While:
    case StatementKind::Do:
        breakStays = continueStays = true;
        break;
    case StatementKind::Switch:
        breakStays = true;
        break;
    default:
        break;
    }
    return std::any_of(s.children.begin(), s.children.end(),
                       [&](const Statement& c) { return jumpsOut(tokens, c, breakStays, continueStays); });
}

namespace work_items {

Planner::Planner(const Unit& unit, const FunctionDecl& f, const CoroutineKernel& coroutine,
                 const std::vector<ThreadgroupDeclaration>& threadgroupVariables, const std::vector<ParamInfo>& params,
                 const std::set<std::string>& namespaceVariables, const std::set<std::string>& fileTypes)
    : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), f_(f), coroutine_(coroutine), params_(params),
      namespaceVariables_(namespaceVariables), fileTypes_(fileTypes),
      localTypes_(declaredTypeNames(tokens_, f.bodyOpen + 1, f.bodyClose)) {
    for (const ThreadgroupDeclaration& d : threadgroupVariables)
        if (contains({f.bodyOpen, f.bodyClose}, d.statement.begin)) threadgroupStatements_.push_back(&d);
}

bool Planner::plan(WorkItemKernel& out) {
    out_ = &out;
    const std::vector<Statement>* body = unit_.body(coroutine_.function);
    if (!body) {
        fail(f_.bodyOpen, "its body could not be read as statements");
        return false;
    }
    if (!checkParameters()) return false;
    if (keepLockstep_ && uniformLoops_.empty()) lockstep_ = findLockstepIfs(unit_, coroutine_.function, params_);
    block(*body, f_.bodyClose);
    if (!ok_) return false;
    // A lane user outside the pieces (a header of a loop that runs once per group) would
    // have no thread to take the lane of.
    for (std::size_t u : coroutine_.laneUsers)
        if (std::none_of(out.regions.begin(), out.regions.end(),
                         [&](const WorkItemRegion& r) { return contains(r.tokens, u); })) {
            fail(u, "a simdgroup_matrix function outside the pieces (in a loop or if header)");
            return false;
        }
    out.returns = coroutine_.returns;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const ParamInfo& p = params_[i];
        if (p.kind == ParamKind::Builtin && !p.name.empty() && !isUniformBuiltin(p.builtin) &&
            std::any_of(out.regions.begin(), out.regions.end(), [&](const WorkItemRegion& r) {
                return std::find(r.builtins.begin(), r.builtins.end(), i) != r.builtins.end();
            })) {
            out.perThreadBuiltins.push_back({i, p.name, p.builtin});
        }
    }
    return true;
}

bool Planner::isBarrierStatement(const Statement& s) const {
    return s.kind == StatementKind::Simple &&
           std::any_of(coroutine_.barriers.begin(), coroutine_.barriers.end(),
                       [&](const TokenRange& b) { return b.begin == s.keyword; });
}

bool Planner::holdsBarrierCall(const Statement& s) const {
    return std::any_of(coroutine_.barriers.begin(), coroutine_.barriers.end(),
                       [&](const TokenRange& b) { return contains(s.tokens, b.begin); });
}

bool Planner::holdsThreadgroupBarrier(const Statement& s) const {
    return std::any_of(coroutine_.barriers.begin(), coroutine_.barriers.end(), [&](const TokenRange& b) {
        if (!contains(s.tokens, b.begin)) return false;
        for (std::size_t i = b.begin; i < b.end; ++i)
            if (tokens_[i].isIdentifier("threadgroup_barrier")) return true;
        return false;
    });
}

bool Planner::holdsBarrier(const Statement& s) const {
    return holdsBarrierCall(s) ||
           std::any_of(uniformLoops_.begin(), uniformLoops_.end(),
                       [&](std::size_t loop) { return contains(s.tokens, loop); }) ||
           std::any_of(coroutine_.collectives.begin(), coroutine_.collectives.end(),
                       [&](const CollectiveStatement& c) { return contains(s.tokens, c.statement.begin); });
}

std::size_t Planner::collectiveAt(const Statement& s) const {
    for (std::size_t c = 0; c < coroutine_.collectives.size(); ++c)
        if (s.kind == StatementKind::Simple && coroutine_.collectives[c].statement.begin == s.tokens.begin &&
            coroutine_.collectives[c].statement.end == s.tokens.end)
            return c;
    return WorkItemRegion::kNoCollective;
}

const ThreadgroupDeclaration* Planner::threadgroupDeclaration(const Statement& s) const {
    for (const ThreadgroupDeclaration* d : threadgroupStatements_)
        if (d->statement.begin == s.keyword) return d;
    return nullptr;
}

LockstepSplit Planner::lockstepAt(const Statement& s, const std::vector<const Statement*>& run) const {
    const TokenRange before = run.empty() ? TokenRange{s.tokens.begin, s.tokens.begin}
                                          : TokenRange{run.front()->tokens.begin, run.back()->tokens.end};
    return lockstepSplit(unit_, lockstep_, s, before);
}

void Planner::noteLockstep(const Statement& s) {
    for (std::size_t keyword : lockstep_.ifs)
        if (contains(s.tokens, keyword) &&
            std::find(out_->lockstepSplits.begin(), out_->lockstepSplits.end(), keyword) == out_->lockstepSplits.end())
            out_->lockstepSplits.push_back(keyword);
}

Planner::Role Planner::role(const Statement& s, LockstepSplit lockstep,
                            const std::vector<std::string>& pieceNames) const {
    // An interleaved kernel's uniform loop body is one piece whatever it declares: its
    // `continue` leaves the piece for the next iteration.
    if (inUniformLoop_) return Role::Piece;
    if (s.kind == StatementKind::Empty) return Role::Skip;
    if (isBarrierStatement(s)) return Role::Barrier;
    if (collectiveAt(s) != WorkItemRegion::kNoCollective) return Role::Collective;
    const bool splits = holdsBarrier(s) || lockstep == LockstepSplit::Inside;
    // An if that holds collectives or simdgroup_barriers but no threadgroup barrier need be
    // uniform only across each SIMD-group (Metal allows it to differ between them, as in
    // `if (simd_group_id == 0)`): its condition runs per thread when it names per-thread state
    // or calls anything (an atomic, a helper reading memory), which one evaluation per group
    // cannot stand for, and each thread takes its own branch.
    if (s.kind == StatementKind::If && splits && !holdsThreadgroupBarrier(s) &&
        (namesThreadState(s.header.begin, s.header.end, pieceNames, true) || callsIn(s.header)))
        return Role::DivergentIf;
    // The same for a loop (per-SIMD-group trip counts: `for (int i = simd_gid; i < n; i += nsg)`).
    if ((s.kind == StatementKind::For || s.kind == StatementKind::While) && splits && !holdsThreadgroupBarrier(s) &&
        !inUniformLoopHeader(s) && namesThreadState(s.header.begin, s.header.end, pieceNames, true))
        return Role::DivergentLoop;
    if (splits) return s.kind == StatementKind::Compound ? Role::Block : Role::GroupStatement;
    if (isGroupDeclaration(s, pieceNames)) return Role::GroupDeclaration;
    return Role::Piece;
}

void Planner::declaredNames(const Statement& s, std::vector<std::string>& names) const {
    if (auto d = parseDeclaration(tokens_, partner_, s))
        for (std::size_t n : d->names) names.push_back(tokens_[n].spelling);
}

void Planner::block(const std::vector<Statement>& statements, std::size_t close) {
    const std::size_t mark = visible_.size();
    std::vector<const Statement*> run;
    std::vector<std::string> runNames; // declared at the top level of `run`
    for (const Statement& s : statements) {
        if (!ok_) return;
        const LockstepSplit lockstep = lockstepAt(s, run);
        const Role r = role(s, lockstep, runNames);
        // (A statement that holds a barrier is split there anyway.)
        if (lockstep == LockstepSplit::Before || (lockstep == LockstepSplit::Inside && !holdsBarrier(s)))
            noteLockstep(s);
        if (r == Role::Piece && lockstep == LockstepSplit::Before) {
            region(run, close);
            if (!ok_) return;
            run.clear();
            runNames.clear();
        }
        if (r == Role::Piece) {
            run.push_back(&s);
            declaredNames(s, runNames);
            continue;
        }
        region(run, close);
        if (!ok_) return; // the cases below would plan on, and a later one could reset ok_
        run.clear();
        runNames.clear();
        switch (r) {
        case Role::Barrier:
            out_->barriers.push_back(s.tokens);
            break;
        case Role::Collective:
            collective(s, close);
            break;
        case Role::GroupDeclaration:
            groupDeclaration(s);
            break;
        case Role::Block:
            block(s.children, partner_[s.keyword]);
            break;
        case Role::GroupStatement:
            groupStatement(s);
            break;
        case Role::DivergentIf:
            divergentIf(s);
            break;
        case Role::DivergentLoop:
            divergentLoop(s);
            break;
        default:
            break;
        }
    }
    region(run, close);
    visible_.resize(mark);
}

bool Planner::jumpsOut(const Statement& s, bool breakStays, bool continueStays) const {
    return msl::jumpsOut(tokens_, s, breakStays, continueStays);
}

} // namespace work_items

namespace {

using work_items::Planner;

// Names of namespace-scope variables (`constant uint TILE = 16;`).
std::set<std::string> namespaceVariableNames(const Unit& unit) {
    std::set<std::string> names;
    for (const VariableDecl& v : unit.module().variables)
        if (v.nameToken != kNoToken && !v.isTemplate && v.enclosingClass.empty())
            names.insert(unit.tokens()[v.nameToken].spelling);
    return names;
}

} // namespace

// Threads an interleaved kernel runs together, unless TranslateOptions::interleaveLanes says:
// eight neighbours, two 64-byte cache lines of float4 columns. Measured on the register-tiled
// matmuls (README, "Interleaved threads"), eight beat four at every size for the 4x4 and 8x4
// kernels and two lost at 1024 and 2048 floats a row; the per-thread state (16 or 32 floats)
// did not decide it: with four lanes GCC splits the 4x4 kernel's lane accumulators into
// scalars and computes their product with scalar instructions, with eight it keeps them as
// float4 rows in the frame and the product in vector instructions.
constexpr unsigned kInterleavedLanes = 8;

bool planInterleavedKernel(const Unit& unit, const CoroutineKernel& kernel, const std::vector<std::size_t>& uniformLoops,
                           const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                           const std::vector<ParamInfo>& parameters, unsigned lanes, WorkItemKernel& out,
                           WorkItemRefusal& refusal) {
    const FunctionDecl& f = unit.module().functions[kernel.function];
    Planner planner(unit, f, kernel, threadgroupVariables, parameters, namespaceVariableNames(unit),
                    declaredTypeNames(unit.tokens(), 0, unit.tokens().size()));
    planner.setUniformLoops(uniformLoops);
    out = WorkItemKernel{};
    out.function = kernel.function;
    out.bodyOpen = f.bodyOpen;
    out.interleaved = true;
    out.lanes = lanes != 0 ? lanes : kInterleavedLanes;
    out.bodyClose = f.bodyClose;
    if (planner.plan(out)) return true;
    refusal = planner.refusal();
    return false;
}

std::vector<WorkItemKernel> findWorkItemKernels(const Unit& unit,
                                                const std::vector<CoroutineKernel>& coroutineKernels,
                                                const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                                                const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                                std::vector<WorkItemRefusal>& refusals) {
    const TokenList& tokens = unit.tokens();
    const Module& module = unit.module();
    std::vector<WorkItemKernel> out;
    static const std::vector<ParamInfo> kNoParameters;
    const auto namesCooperativeTensor = [](const TokenList& t, const FunctionDecl& f) {
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (t[i].isIdentifier() && isCooperativeTensorName(t[i].spelling)) return true;
        return false;
    };
    const std::set<std::string> namespaceVariables = namespaceVariableNames(unit);
    const std::set<std::string> fileTypes = declaredTypeNames(tokens, 0, tokens.size());
    for (const CoroutineKernel& c : coroutineKernels) {
        // Cooperative tensors passed to `run` by reference cannot live in per-piece copies,
        // and their slots follow mc_group::current_thread, which work-item loops keep only
        // when validated.
        if (!c.tensorOperations.empty() || namesCooperativeTensor(tokens, module.functions[c.function])) {
            refusals.push_back({c.function, module.functions[c.function].nameToken, "it uses tensor operations"});
            continue;
        }
        auto params = parameters.find(c.function);
        WorkItemKernel kernel;
        // Split where lockstep needs it (lockstepSplit()) if the planner can; else as the kernel
        // would be without those splits.
        bool planned = false;
        WorkItemRefusal refusal;
        for (bool keepLockstep : {true, false}) {
            Planner planner(unit, module.functions[c.function], c, threadgroupVariables,
                            params == parameters.end() ? kNoParameters : params->second, namespaceVariables, fileTypes);
            planner.keepLockstep(keepLockstep);
            kernel = WorkItemKernel{};
            kernel.function = c.function;
            kernel.bodyOpen = module.functions[c.function].bodyOpen;
            if ((planned = planner.plan(kernel))) break;
            refusal = planner.refusal();
            if (!planner.splitsForLockstep()) break; // the second plan would be the same
        }
        if (planned)
            out.push_back(std::move(kernel));
        else
            refusals.push_back(refusal);
    }
    return out;
}


} // namespace metalcpu::msl
