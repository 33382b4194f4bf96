#include "compiler/passes/work_item_loops.h"

#include "compiler/call_arguments.h"
#include "compiler/call_graph.h"
#include "compiler/findings.h"
#include "compiler/passes/lockstep_points.h"
#include "compiler/passes/written_parameters.h"
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

namespace {

bool contains(const TokenRange& r, std::size_t i) { return i >= r.begin && i < r.end; }

// Plans the restructuring of one kernel; `ok` turns false at the first thing it cannot do.
class Planner {
public:
    Planner(const Unit& unit, const FunctionDecl& f, const CoroutineKernel& coroutine,
            const std::vector<ThreadgroupDeclaration>& threadgroupVariables, const std::vector<ParamInfo>& params,
            const std::set<std::string>& namespaceVariables, const std::set<std::string>& fileTypes)
        : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), f_(f), coroutine_(coroutine), params_(params),
          namespaceVariables_(namespaceVariables), fileTypes_(fileTypes),
          localTypes_(declaredTypeNames(tokens_, f.bodyOpen + 1, f.bodyClose)) {
        for (const ThreadgroupDeclaration& d : threadgroupVariables)
            if (contains({f.bodyOpen, f.bodyClose}, d.statement.begin)) threadgroupStatements_.push_back(&d);
    }

    /// Why the kernel cannot be split, and where: the first reason found.
    const WorkItemRefusal& refusal() const { return refusal_; }

    /// For a barrier-free kernel whose threads are interleaved: the keywords of its uniform
    /// loops, which are split points as a loop holding a barrier is (planInterleavedKernel()).
    void setUniformLoops(const std::vector<std::size_t>& loops) { uniformLoops_ = {loops.begin(), loops.end()}; }

    /// Whether to split pieces where a SIMD-group's lanes must be in lockstep (lockstepAt()).
    void keepLockstep(bool keep) { keepLockstep_ = keep; }

    /// After plan(): whether the kernel has places where it would split for lockstep.
    bool splitsForLockstep() const { return !lockstep_.ifs.empty(); }

    bool plan(WorkItemKernel& out) {
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

private:
    // What a name written in the body refers to, innermost scope last.
    struct Visible {
        std::string name;
        enum class Kind { Group, LoopVariable, PerThread } kind;
        std::size_t variable = 0; ///< WorkItemKernel::variables, for PerThread
    };

    const Visible* lookUp(const std::string& name) const {
        for (auto it = visible_.rbegin(); it != visible_.rend(); ++it)
            if (it->name == name) return &*it;
        return nullptr;
    }

    const ParamInfo* parameter(const std::string& name, std::size_t* index = nullptr) const {
        for (std::size_t i = 0; i < params_.size(); ++i)
            if (params_[i].name == name) {
                if (index) *index = i;
                return &params_[i];
            }
        return nullptr;
    }

    // The group's threads share the kernel function's parameters: one the body writes itself
    // (assigned, incremented, its address taken, passed where a non-const reference may bind
    // it, bound to a reference) gets a slot per thread, as a variable declared at the top of
    // the body would (passes/written_parameters.h). A pointer's elements and a reference's
    // object are memory, which the threads share on a GPU too.
    bool checkParameters() {
        std::vector<std::size_t> written; // parameter indices, in order of their first write
        for (std::size_t i = f_.bodyOpen + 1; i < f_.bodyClose; ++i) {
            if (!unit_.isUnqualifiedName(i)) continue;
            std::size_t index = 0;
            const ParamInfo* p = parameter(tokens_[i].spelling, &index);
            if (!p || std::find(written.begin(), written.end(), index) != written.end()) continue;
            const ParameterWrite write = parameterWrite(*p);
            // A texture or sampler handed to a helper is not judged as written (a handle is
            // passed by value); assigned or incremented, it cannot have slots.
            if (write == ParameterWrite::Refused && modified(i, ObjectParts::None)) {
                fail(i, "parameter " + quoted(i) + " is written (the group's threads share one copy, and only "
                        "pointers and builtins get one per thread)");
                return false;
            }
            if (write == ParameterWrite::PerThread && writesParameter(i, *p)) written.push_back(index);
        }
        for (std::size_t index : written) {
            const ParamInfo& p = params_[index];
            WorkItemVariable v;
            v.name = p.name;
            v.inPlace = addressTaken(p.name, f_.bodyOpen + 1); // an address stays the same across barriers
            v.parameter = index;
            if (p.kind == ParamKind::Builtin && !isUniformBuiltin(p.builtin)) v.perThreadBuiltin = p.builtin;
            visible_.push_back({p.name, Visible::Kind::PerThread, out_->variables.size()});
            out_->variables.push_back(std::move(v));
        }
        return true;
    }

    // Whether parameter `p`, named at `i`, is written there itself: a builtin through its
    // lanes too (`lid.x = 0`), a pointer not through its elements (`in[k] = 0` writes memory).
    bool writesParameter(std::size_t i, const ParamInfo& p) const {
        if (modified(i, p.kind == ParamKind::Builtin ? ObjectParts::All : ObjectParts::None)) return true;
        const Token& after = tokens_[i + 1];
        return !after.isPunct(".") && !after.isPunct("[") && !after.isPunct("->") && mayWrite(i);
    }

    bool isBarrierStatement(const Statement& s) const {
        return s.kind == StatementKind::Simple &&
               std::any_of(coroutine_.barriers.begin(), coroutine_.barriers.end(),
                           [&](const TokenRange& b) { return b.begin == s.keyword; });
    }

    bool holdsBarrierCall(const Statement& s) const {
        return std::any_of(coroutine_.barriers.begin(), coroutine_.barriers.end(),
                           [&](const TokenRange& b) { return contains(s.tokens, b.begin); });
    }

    // A barrier or a SIMD-group function statement, or an interleaved kernel's uniform loop:
    // a split point.
    bool holdsBarrier(const Statement& s) const {
        return holdsBarrierCall(s) ||
               std::any_of(uniformLoops_.begin(), uniformLoops_.end(),
                           [&](std::size_t loop) { return contains(s.tokens, loop); }) ||
               std::any_of(coroutine_.collectives.begin(), coroutine_.collectives.end(),
                           [&](const CollectiveStatement& c) { return contains(s.tokens, c.statement.begin); });
    }

    // The SIMD-group function statement `s` is, or kNoCollective.
    std::size_t collectiveAt(const Statement& s) const {
        for (std::size_t c = 0; c < coroutine_.collectives.size(); ++c)
            if (s.kind == StatementKind::Simple && coroutine_.collectives[c].statement.begin == s.tokens.begin &&
                coroutine_.collectives[c].statement.end == s.tokens.end)
                return c;
        return WorkItemRegion::kNoCollective;
    }

    const ThreadgroupDeclaration* threadgroupDeclaration(const Statement& s) const {
        for (const ThreadgroupDeclaration* d : threadgroupStatements_)
            if (d->statement.begin == s.keyword) return d;
        return nullptr;
    }

    // What a statement of a block that holds barriers becomes.
    enum class Role {
        Piece,            ///< runs per thread, in the piece with its neighbours
        Skip,             ///< an empty statement
        Barrier,          ///< erased: the pieces around it are the synchronisation
        Collective,       ///< a SIMD-group function as a whole statement: a region of its own
        GroupDeclaration, ///< a declaration that is the same for every thread: runs once
        Block,            ///< a `{}` block holding barriers: its statements, block by block
        GroupStatement,   ///< a loop or an if holding barriers: runs once per group
        DivergentIf,      ///< an if on a per-thread condition holding only collectives: guarded pieces
    };

    // Whether an identifier in a declaration that would run once per group refers to
    // something that differs per thread (a parameter, a per-thread variable, a name the
    // current piece declares).
    // With `uniformParameters`, parameters other than per-thread builtins (buffers, uniform
    // builtins) do not count: what a condition names.
    bool namesThreadState(std::size_t begin, std::size_t end, const std::vector<std::string>& pieceNames,
                          bool uniformParameters = false) const {
        for (std::size_t i = begin; i < end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const std::string& name = tokens_[i].spelling;
            if (const Visible* v = lookUp(name)) {
                if (v->kind == Visible::Kind::PerThread) return true;
                continue;
            }
            const ParamInfo* p = parameter(name);
            if (p && (!uniformParameters || (p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin))))
                return true;
            if (std::find(pieceNames.begin(), pieceNames.end(), name) != pieceNames.end())
                return true;
        }
        return false;
    }

    // Declarations the same for every thread: threadgroup variables, constexpr variables,
    // types, static_assert, and const variables initialised from nothing thread-specific
    // (`const uint kTile = 16;`), which later declarations may need as constants.
    bool isGroupDeclaration(const Statement& s, const std::vector<std::string>& pieceNames) const {
        if (s.kind != StatementKind::Simple) return false;
        if (threadgroupDeclaration(s)) return true;
        const Token& k = tokens_[s.keyword];
        if (k.isIdentifier("typedef") || k.isIdentifier("using") || k.isIdentifier("static_assert")) return true;
        auto d = parseDeclaration(tokens_, partner_, s);
        if (!d) return false;
        bool isConst = false;
        for (std::size_t i = d->type.begin; i < d->type.end; ++i) {
            if (tokens_[i].isIdentifier("constexpr")) return true;
            if (tokens_[i].isIdentifier("const")) isConst = true;
            if (tokens_[i].isPunct("*") || tokens_[i].isPunct("&") || tokens_[i].isPunct("&&")) return false;
        }
        if (!isConst || namesThreadState(s.keyword, s.tokens.end, pieceNames)) return false;
        // Every declarator's initializer (`const uint a = f(), b = 2;` runs f per thread).
        for (std::size_t k = 0; k < d->names.size(); ++k) {
            const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, s.tokens.end - 1);
            const TokenRange initializer{parts.bounds.begin, parts.initializer.end};
            // Under a divergent if, what runs once per group runs even when no thread takes the
            // branch: an initializer that can fault there (a division, an index) runs per thread.
            if (parts.initializer.empty() || !isConstantInitializer(initializer.begin, initializer.end) ||
                (!guards_.empty() && mayFault(initializer)))
                return false;
        }
        return true;
    }

    // Whether evaluating tokens `range` can fault or act (a division or remainder, an index, a
    // dereference, `->`, a call): what must not run once per group for a branch that no thread
    // may take. (`*p` and `p->m` read memory exactly as `p[0]` does.)
    bool mayFault(TokenRange range) const {
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const Token& t = tokens_[i];
            const TokenRole r = unit_.role(i);
            if (t.isPunct("/") || t.isPunct("%") || t.isPunct("->") || r == TokenRole::Subscript ||
                r == TokenRole::Dereference || r == TokenRole::CallOpen)
                return true;
        }
        return false;
    }

    // Whether tokens [begin, end) can only be a constant: literals, operators and names of
    // constants the group already has or the file declares at namespace scope; no call, no
    // `&`, no assignment or increment. (A const initialised by a call, an atomic say, must
    // run in every thread.)
    bool isConstantInitializer(std::size_t begin, std::size_t end) const {
        if (begin < end && tokens_[begin].isPunct("=")) ++begin;
        for (std::size_t i = begin; i < end; ++i) {
            const Token& t = tokens_[i];
            if (t.kind == TokenKind::Number || t.kind == TokenKind::Character) continue;
            if (t.isIdentifier()) {
                if (isCppKeyword(t.spelling)) continue;
                const Visible* v = lookUp(t.spelling);
                if (!(v ? v->kind == Visible::Kind::Group : namespaceVariables_.count(t.spelling) != 0)) return false;
                continue;
            }
            if (unit_.role(i) == TokenRole::CallOpen) return false; // a call or a functional cast
            if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment || t.isPunct("&") ||
                t.isPunct(",") || t.kind == TokenKind::String)
                return false;
        }
        return true;
    }

    bool callsIn(TokenRange range) const {
        for (std::size_t i = range.begin; i < range.end; ++i)
            if (unit_.role(i) == TokenRole::CallOpen) return true;
        return false;
    }

    // Where the lanes of a SIMD-group must be in lockstep: the pieces run thread after thread
    // (lockstepSplit(), passes/lockstep_points.h). `run`: the piece's statements before `s`.
    LockstepSplit lockstepAt(const Statement& s, const std::vector<const Statement*>& run) const {
        const TokenRange before = run.empty() ? TokenRange{s.tokens.begin, s.tokens.begin}
                                              : TokenRange{run.front()->tokens.begin, run.back()->tokens.end};
        return lockstepSplit(unit_, lockstep_, s, before);
    }

    // The lockstep `if`s at or in `s`, which split: WorkItemKernel::lockstepSplits.
    void noteLockstep(const Statement& s) {
        for (std::size_t keyword : lockstep_.ifs)
            if (contains(s.tokens, keyword) &&
                std::find(out_->lockstepSplits.begin(), out_->lockstepSplits.end(), keyword) == out_->lockstepSplits.end())
                out_->lockstepSplits.push_back(keyword);
    }

    Role role(const Statement& s, LockstepSplit lockstep, const std::vector<std::string>& pieceNames) const {
        // An interleaved kernel's uniform loop body is one piece whatever it declares: its
        // `continue` leaves the piece for the next iteration.
        if (inUniformLoop_) return Role::Piece;
        if (s.kind == StatementKind::Empty) return Role::Skip;
        if (isBarrierStatement(s)) return Role::Barrier;
        if (collectiveAt(s) != WorkItemRegion::kNoCollective) return Role::Collective;
        const bool splits = holdsBarrier(s) || lockstep == LockstepSplit::Inside;
        // An if that holds collectives but no barrier may diverge (Metal allows it): its
        // condition runs per thread when it names per-thread state or calls anything (an
        // atomic, a helper reading memory), which one evaluation per group cannot stand for.
        if (s.kind == StatementKind::If && splits && !holdsBarrierCall(s) &&
            (namesThreadState(s.header.begin, s.header.end, pieceNames, true) || callsIn(s.header)))
            return Role::DivergentIf;
        if (splits) return s.kind == StatementKind::Compound ? Role::Block : Role::GroupStatement;
        if (isGroupDeclaration(s, pieceNames)) return Role::GroupDeclaration;
        return Role::Piece;
    }

    // The names a piece's top-level statement declares.
    void declaredNames(const Statement& s, std::vector<std::string>& names) const {
        if (auto d = parseDeclaration(tokens_, partner_, s))
            for (std::size_t n : d->names) names.push_back(tokens_[n].spelling);
    }

    void groupDeclaration(const Statement& s) {
        if (namesThreadState(s.keyword, s.tokens.end, {})) {
            fail(s.keyword, "a declaration that runs once per group names per-thread state");
            return;
        }
        if (const ThreadgroupDeclaration* d = threadgroupDeclaration(s)) {
            for (const ThreadgroupDeclarator& v : d->declarators) visible_.push_back({v.name, Visible::Kind::Group});
        } else if (auto d = parseDeclaration(tokens_, partner_, s)) {
            for (std::size_t n : d->names) visible_.push_back({tokens_[n].spelling, Visible::Kind::Group});
        }
    }

    void block(const std::vector<Statement>& statements, std::size_t close) {
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
            default:
                break;
            }
        }
        region(run, close);
        visible_.resize(mark);
    }

    // The header of a loop or if that runs once per group may read per-thread variables in
    // its condition (the first live thread's value: the condition is uniform, as Metal
    // requires), but not set up its own variables from them, and may not name builtins that
    // differ per thread (`for (uint i = lid; ...)`: every thread has its own `i`).
    bool checkHeaderPart(std::size_t begin, std::size_t end, bool readsAllowed) {
        for (std::size_t i = begin; i < end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const Visible* v = lookUp(tokens_[i].spelling);
            if (v && v->kind == Visible::Kind::PerThread) {
                if (out_->variables[v->variable].perThreadBuiltin != Builtin::None) { // written, with slots
                    fail(i, "a loop or if header that runs once per group names per-thread builtin " + quoted(i));
                    return false;
                }
                // Under a divergent if, the first live thread need not take the branch, and
                // without a barrier nothing makes the condition uniform.
                if (!readsAllowed || !guards_.empty() || mayWrite(i)) {
                    fail(i, !readsAllowed      ? "a loop that runs once per group sets up its variables from per-thread "
                                                 "variable " + quoted(i)
                            : !guards_.empty() ? "under an if whose condition differs per thread, a loop or if header "
                                                 "reads per-thread variable " + quoted(i)
                                               : "a loop or if header may write per-thread variable " + quoted(i));
                    return false;
                }
                out_->headerUses.emplace_back(i, v->variable);
            } else if (!v) {
                const ParamInfo* p = parameter(tokens_[i].spelling);
                if (p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin)) {
                    fail(i, "a loop or if header that runs once per group names per-thread builtin " + quoted(i));
                    return false;
                }
            }
        }
        return true;
    }

    // A loop that holds SIMD-group functions but no barrier need only be uniform across each
    // SIMD-group, as Metal requires of them, not across the group: a condition that reads a
    // per-thread variable (llama.cpp's `first_row + row < args.ne0`, per SIMD-group) cannot run
    // once per group on the first thread's value. Fails and says so when `header` reads one.
    bool readsPerThreadVariable(TokenRange header) {
        for (std::size_t i = header.begin; i < header.end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const Visible* v = lookUp(tokens_[i].spelling);
            if (v && v->kind == Visible::Kind::PerThread && !uniformConstant(v->variable, 0)) {
                fail(i, "a loop with SIMD-group functions but no barrier reads per-thread variable " + quoted(i) +
                            " in its header (it need be uniform only across a SIMD-group)");
                return true;
            }
        }
        return false;
    }
    // Whether variable `variable` is a const whose initializer names nothing that differs per
    // thread (`const int n_t = args.n_seq_tokens;`): its value is the group's.
    bool uniformConstant(std::size_t variable, int depth) const {
        const WorkItemVariable& w = out_->variables[variable];
        if (!w.isConst || w.parameter != WorkItemVariable::kNotParameter || w.initializer.empty() || depth > 8)
            return false;
        for (std::size_t i = w.initializer.begin; i < w.initializer.end; ++i) {
            if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            if (const Visible* v = lookUp(tokens_[i].spelling)) {
                if (v->kind == Visible::Kind::PerThread && !uniformConstant(v->variable, depth + 1)) return false;
            } else if (const ParamInfo* p = parameter(tokens_[i].spelling);
                       p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin)) {
                return false;
            }
        }
        return true;
    }
    // An interleaved kernel's uniform loops (passes/interleaved_threads.h) are uniform by
    // their own analysis.
    bool inUniformLoopHeader(const Statement& s) const { return uniformLoops_.count(s.keyword) != 0; }

    // The top-level `;` of a header between `begin` and `end`, or `end`.
    std::size_t headerSemicolon(std::size_t begin, std::size_t end) const {
        for (std::size_t i = begin; i < end; ++i) {
            if (tokens_[i].isPunct(";")) return i;
            if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i];
        }
        return end;
    }

    // Whether header tokens [begin, end) declare a variable (`uint n = c`).
    bool declaresVariable(std::size_t begin, std::size_t end) const {
        return parseDeclaration(tokens_, partner_, begin, end).has_value();
    }

    // A loop or an `if` holding barriers: it runs once per group, its blocks block by block.
    void groupStatement(const Statement& s) {
        const bool loop =
            s.kind == StatementKind::For || s.kind == StatementKind::While || s.kind == StatementKind::Do;
        if ((!loop && s.kind != StatementKind::If) || s.children.empty()) {
            fail(s.keyword, "a barrier or SIMD-group function in a " + quoted(s.keyword) + " statement");
            return;
        }
        const std::size_t mark = visible_.size();
        const TokenRange h = s.header;
        // Under a divergent if the header runs once per group even when no thread takes the
        // branch, so it must be harmless there.
        if (!guards_.empty() && mayFault(h)) {
            fail(s.keyword, "under an if whose condition differs per thread, a loop or if header that may fault "
                            "(a division, an index, a dereference, a call) would run when no thread takes the branch");
            return;
        }
        if (loop && !holdsBarrierCall(s) && !inUniformLoopHeader(s) && readsPerThreadVariable(h)) return;
        if (s.kind == StatementKind::For) {
            // for (init; condition; increment): the init-statement's variables belong to the group.
            const std::size_t first = headerSemicolon(h.begin, h.end);
            const std::size_t second = first < h.end ? headerSemicolon(first + 1, h.end) : h.end;
            if (first == h.end || second == h.end || !checkHeaderPart(h.begin, first, false)) {
                fail(s.keyword, "this loop's header");
                return;
            }
            if (first > h.begin)
                if (auto d = parseDeclaration(tokens_, partner_, h.begin, first))
                    for (std::size_t n : d->names)
                        visible_.push_back({tokens_[n].spelling, Visible::Kind::LoopVariable});
            if (!checkHeaderPart(first + 1, second, true) || !checkHeaderPart(second + 1, h.end, false))
                fail(s.keyword, "this loop's header");
        } else {
            // if/while/do-while: a condition, without an init-statement or a declaration.
            if (headerSemicolon(h.begin, h.end) != h.end || declaresVariable(h.begin, h.end))
                fail(s.keyword, "an " + quoted(s.keyword) + " that runs once per group declares a variable in its header");
            else if (!checkHeaderPart(h.begin, h.end, true))
                fail(s.keyword, "this header");
        }
        if (!ok_) return;
        inUniformLoop_ = uniformLoops_.count(s.keyword) != 0;
        for (const Statement& body : s.children) {
            if (body.kind == StatementKind::Compound) {
                if (loop) out_->loopBodies.push_back(body.keyword);
                block(body.children, partner_[body.keyword]);
            } else {
                // `for (...) for (...) simdgroup_multiply_accumulate(...);`: the statement gets
                // braces, as the pieces it becomes may be several statements.
                out_->unbracedBodies.push_back({body.tokens, loop});
                block({body}, body.tokens.end);
            }
        }
        inUniformLoop_ = false;
        visible_.resize(mark);
    }

    // An `if` whose condition differs per thread, with `{}` branches holding SIMD-group
    // function statements and no barrier: a region evaluates the condition once per thread
    // into the guard's slot, and every piece of the branches runs for the threads that take
    // them. The condition may neither declare nor write anything: it runs once, before the
    // branch's pieces.
    void divergentIf(const Statement& s) {
        const TokenRange h = s.header;
        if (s.keyword != s.tokens.begin || s.children.empty() || // attributes or pragmas before the `if`
            std::any_of(s.children.begin(), s.children.end(),
                        [](const Statement& c) { return c.kind != StatementKind::Compound; }) ||
            headerSemicolon(h.begin, h.end) != h.end || declaresVariable(h.begin, h.end)) {
            fail(s.keyword, "an if whose condition differs per thread, around SIMD-group functions, needs {} branches, "
                            "no attributes, no init-statement and no declaration");
            return;
        }
        for (std::size_t i = h.begin; i < h.end; ++i) {
            if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment) {
                fail(i, "the condition of an if that differs per thread assigns or increments");
                return;
            }
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const Visible* v = lookUp(tokens_[i].spelling);
            if (v && v->kind != Visible::Kind::Group && mayWrite(i)) {
                fail(i, "the condition of an if that differs per thread may write " + quoted(i));
                return;
            }
        }
        const std::size_t guard = out_->divergentIfs.size();
        DivergentIf d;
        d.keyword = s.keyword;
        if (s.children.size() > 1) {
            d.elseKeyword = s.children[0].tokens.end;
            if (!tokens_[d.elseKeyword].isIdentifier("else")) {
                fail(s.keyword, "an if whose condition differs per thread, around SIMD-group functions, needs {} branches");
                return;
            }
        }
        out_->divergentIfs.push_back(d);
        WorkItemRegion condition;
        condition.tokens = h;
        condition.setsGuard = guard;
        if (!scanNames(condition)) return;
        out_->regions.push_back(std::move(condition));
        for (std::size_t branch = 0; branch < s.children.size() && ok_; ++branch) {
            guards_.push_back({guard, branch == 0});
            block(s.children[branch].children, partner_[s.children[branch].keyword]);
            guards_.pop_back();
        }
    }

    bool jumpsOut(const Statement& s, bool breakStays, bool continueStays) const {
        return msl::jumpsOut(tokens_, s, breakStays, continueStays);
    }

    // Whether an address into `name` is taken anywhere after `from` in the body: a unary `&`
    // before it (`&name`, `&name[i]`, `&name.f()`) or before parentheses around it.
    bool addressTaken(const std::string& name, std::size_t from) const {
        for (std::size_t i = from; i < f_.bodyClose; ++i)
            if (tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i) &&
                (unit_.role(i - 1) == TokenRole::AddressOf ||
                 unit_.useOf(i, i, ObjectParts::All).kind == UseKind::AddressTaken))
                return true;
        return false;
    }

    // Whether the name at `i` is assigned, incremented or decremented, or its address taken
    // there, or with ObjectParts::All one of its parts (`v.x = 0`, `&a[1]`).
    bool modified(std::size_t i, ObjectParts parts) const { return unit_.useOf(i, i, parts).kind != UseKind::Read; }

    // Whether the variable named at `i` may be written there or later through what it is
    // bound to: an assignment or an increment, its address, a call argument the callee may
    // bind to a non-const reference, a member function, or the initializer of a reference.
    bool mayWrite(std::size_t i) const {
        if (modified(i, ObjectParts::All)) return true;
        const Token& before = tokens_[i - 1];
        const Token& after = tokens_[i + 1];
        const bool argumentStart =
            before.isPunct(",") || before.isPunct("{") ||
            (before.isPunct("(") && !(tokens_[i - 2].isIdentifier() && isCppKeyword(tokens_[i - 2].spelling)));
        if (argumentStart && (after.isPunct(")") || after.isPunct(",") || after.isPunct("}")))
            return mayBindWritableReference(i);
        if (after.isPunct(".") || after.isPunct("[")) return true;
        if (before.isPunct("=") || before.isPunct(":")) {
            // `T& r = name;`, `for (T& r : name)`: look back to the statement's start for a `&`.
            for (std::size_t k = i - 1; k > f_.bodyOpen; --k) {
                const Token& t = tokens_[k];
                if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
                if (t.isPunct("&") || t.isPunct("&&")) return true;
            }
        }
        return false;
    }

    // Whether the argument at `i` (a name by itself) may be bound to a reference the callee
    // writes through. A callable or type the body declares (a lambda, say) decides nothing
    // by its name: yes.
    bool mayBindWritableReference(std::size_t i) const {
        const CallArgument call = callArgumentAt(unit_, i);
        if (call.callee != kNoToken && unit_.role(call.callee) == TokenRole::Callee) {
            const std::string& name = tokens_[call.callee].spelling;
            if (parameter(name) || localTypes_.count(name)) return true;
            for (std::size_t k = f_.bodyOpen + 1; k < f_.bodyClose; ++k)
                if (unit_.role(k) == TokenRole::Declarator && tokens_[k].spelling == name) return true;
        }
        return msl::mayBindWritableReference(unit_, call, fileTypes_);
    }

    // A statement that may declare something parseDeclaration() does not read: its names
    // could not be followed across barriers.
    bool mayDeclareUnknown(const Statement& s) const {
        if (s.kind != StatementKind::Simple) return false;
        // A local type (`struct S { ... };` parses as a variable named S).
        for (std::string_view word : {"struct", "class", "union", "enum"})
            if (tokens_[s.keyword].isIdentifier(word)) return true;
        if (parseDeclaration(tokens_, partner_, s)) return false;
        static constexpr std::string_view kStarts[] = {
            "decltype", "alignas", "__attribute__", "__attribute", "typeof", "__typeof__", "__typeof",
            "static", "extern", "thread_local", "register", "const", "volatile"};
        for (std::string_view word : kStarts)
            if (tokens_[s.keyword].isIdentifier(word)) return true;
        // Structured bindings: `auto [a, b] = ...`.
        for (std::size_t i = s.keyword; i + 1 < s.tokens.end; ++i) {
            if (tokens_[i].isPunct("=")) break;
            if (tokens_[i].isIdentifier("auto")) return true;
        }
        return false;
    }

    bool namedIn(const std::string& name, std::size_t begin, std::size_t end) const {
        for (std::size_t i = begin; i < end; ++i)
            if (tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i)) return true;
        return false;
    }

    // A per-thread variable: a written type that can have slots, and an initializer that can
    // be read as one (`T x()` declares a function). The slots are made at the top of the body,
    // so the type may not name anything the body declares (a local type, a constexpr bound);
    // with `bodyLevel` (the declaration is a statement of the body's own block) it may name a
    // constant the group declared before, and `late` says the slots are made just before the
    // declaring piece instead.
    bool canHaveSlots(const DeclaratorParts& parts, bool bodyLevel, bool& late) const {
        late = false;
        if (parts.initializer.size() == 2 && tokens_[parts.initializer.begin].isPunct("(")) return false;
        bool pointer = false, threadSpace = false;
        for (TokenRange range : {parts.specifiers, parts.pointer, parts.bounds}) {
            for (std::size_t i = range.begin; i < range.end; ++i) {
                const Token& t = tokens_[i];
                if (const Visible* v = t.isIdentifier() ? lookUp(t.spelling) : nullptr;
                    v && v->kind == Visible::Kind::Group && bodyLevel) {
                    late = true;
                    continue;
                }
                if (t.isPunct("&") || t.isPunct("&&") || t.isIdentifier("auto") || t.isIdentifier("static") ||
                    t.isIdentifier("extern") || t.isIdentifier("thread_local") || t.isIdentifier("register") ||
                    t.isIdentifier("decltype") ||
                    (t.isIdentifier() && (localTypes_.count(t.spelling) || lookUp(t.spelling))))
                    return false;
                if (t.isPunct("*")) pointer = true;
                if (t.isIdentifier("thread")) threadSpace = true;
            }
        }
        // `float v[] = {...}` takes its bound from its initializer: the slot's type needs it
        // counted (only the first bound may be left out).
        for (std::size_t i = parts.bounds.begin; i < parts.bounds.end; ++i)
            if (tokens_[i].isPunct("[") && tokens_[i + 1].isPunct("]") &&
                (i != parts.bounds.begin || initializerElements(parts) == 0))
                return false;
        // A pointer into thread memory would point into the region that declared the memory.
        return !(pointer && threadSpace);
    }

    // How many elements the braced initializer of an array declarator lists (`= {a, b, c}` or
    // `{a, b, c}`: 3), or 0 when that is not plain to count: designators, or for an array of
    // arrays an element whose braces are elided.
    std::size_t initializerElements(const DeclaratorParts& parts) const {
        std::size_t open = parts.initializer.begin;
        if (open < parts.initializer.end && tokens_[open].isPunct("=")) ++open;
        if (open >= parts.initializer.end || !tokens_[open].isPunct("{") || partner_[open] == kNoToken) return 0;
        const std::size_t close = partner_[open];
        const bool ofArrays = parts.bounds.size() > 2 && partner_[parts.bounds.begin] + 1 < parts.bounds.end;
        std::vector<TokenRange> elements = splitParameters(tokens_, partner_, open, close);
        if (!elements.empty() && elements.back().empty()) elements.pop_back(); // a trailing comma
        std::size_t count = 0;
        for (const TokenRange& e : elements) {
            if (e.empty()) return 0;
            const Token& first = tokens_[e.begin];
            if (first.isPunct("[") || first.isPunct(".") || (ofArrays && !first.isPunct("{"))) return 0;
            ++count;
        }
        return count;
    }

    // A const after the last `*`, or anywhere when there is none.
    bool isTopLevelConst(const DeclaratorParts& parts) const {
        bool topConst = false;
        for (TokenRange range : {parts.specifiers, parts.pointer}) {
            for (std::size_t i = range.begin; i < range.end; ++i) {
                if (tokens_[i].isPunct("*")) {
                    topConst = false;
                } else if (tokens_[i].isIdentifier("const")) {
                    topConst = true;
                }
            }
        }
        return topConst;
    }

    // A SIMD-group function statement: a region of its own whose arguments are evaluated in a
    // first loop over the threads. Arguments that write anything (`simd_sum(x++)`) are not
    // split: the second loop does not evaluate them again.
    void collective(const Statement& s, std::size_t close) {
        const std::size_t index = collectiveAt(s);
        const CollectiveStatement& c = coroutine_.collectives[index];
        for (std::size_t i = c.open + 1; i < partner_[c.open]; ++i) {
            if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment) {
                fail(i, "the arguments of a SIMD-group function statement assign or increment");
                return;
            }
        }
        // A product's result (its first argument) is written, which scanNames must see.
        collectiveArguments_ = {c.resultComma != kNoToken ? c.resultComma + 1 : c.open + 1, partner_[c.open]};
        region({&s}, close);
        collectiveArguments_ = {};
        if (ok_) {
            out_->regions.back().collective = out_->collectives.size();
            out_->collectives.push_back(c);
        }
    }

    // The per-thread variables (loads) and builtins a region names, and its guards; false
    // (and ok_ false) when it may write a loop variable of a loop that runs once per group.
    bool scanNames(WorkItemRegion& r) {
        r.guards = guards_;
        r.learnsLanes = std::any_of(coroutine_.laneUsers.begin(), coroutine_.laneUsers.end(),
                                    [&](std::size_t u) { return contains(r.tokens, u); });
        for (std::size_t i = r.tokens.begin; i < r.tokens.end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const std::string& name = tokens_[i].spelling;
            if (const Visible* v = lookUp(name)) {
                if (v->kind == Visible::Kind::PerThread) {
                    if (std::find(r.loads.begin(), r.loads.end(), v->variable) == r.loads.end())
                        r.loads.push_back(v->variable);
                } else if (v->kind == Visible::Kind::LoopVariable &&
                           (contains(collectiveArguments_, i) ? modified(i, ObjectParts::All)
                                                              : mayWrite(i))) {
                    // A SIMD-group function takes its arguments by value.
                    fail(i, "writes " + quoted(i) + ", a variable of a loop that runs once per group (assigned, "
                            "incremented, passed where a non-const reference may bind it, bound to a reference, or "
                            "a member function called)");
                    return false;
                }
                continue;
            }
            std::size_t index = 0;
            const ParamInfo* p = parameter(name, &index);
            if (p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin) &&
                std::find(r.builtins.begin(), r.builtins.end(), index) == r.builtins.end())
                r.builtins.push_back(index);
        }
        return true;
    }

    void region(const std::vector<const Statement*>& run, std::size_t close) {
        if (run.empty() || !ok_) return;
        WorkItemRegion r;
        r.tokens = {run.front()->tokens.begin, run.back()->tokens.end};
        for (const Statement* s : run) {
            if (jumpsOut(*s, false, inUniformLoop_)) {
                fail(s->keyword, inUniformLoop_ ? "a break, goto or label in a loop whose threads would be interleaved"
                                                : "a break, continue, goto or label leaves the code between barriers");
                return;
            }
            // A `continue` of the uniform loop leaves the piece's `do { } while (false)`.
            if (inUniformLoop_ && jumpsOut(*s, false, false)) r.continues = true;
            if (mayDeclareUnknown(*s)) {
                fail(s->keyword, "a declaration the pass cannot follow across barriers (decltype, alignas, a "
                                 "structured binding, a local type, a storage class)");
                return;
            }
        }
        if (!scanNames(r)) return;
        // Its declarations that are used after it.
        std::vector<Visible> declared;
        for (const Statement* s : run) {
            auto d = parseDeclaration(tokens_, partner_, *s);
            if (!d) continue;
            for (std::size_t k = 0; k < d->names.size(); ++k) {
                const std::size_t n = d->names[k];
                const std::string& name = tokens_[n].spelling;
                if (!namedIn(name, r.tokens.end, close)) continue;
                const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, s->tokens.end - 1);
                bool late = false;
                if (!canHaveSlots(parts, close == f_.bodyClose, late)) {
                    fail(n, quoted(n) + " lives across a barrier but cannot have a slot per thread (auto, a "
                            "reference, static, a thread pointer, an array whose bound its initializer does not "
                            "plainly give, or a type or bound declared in a nested block or a local type)");
                    return;
                }
                const std::size_t id = out_->variables.size();
                out_->variables.push_back({name, parts.specifiers, parts.pointer, parts.bounds, isTopLevelConst(parts),
                                           !parts.bounds.empty() || addressTaken(name, n), n, parts.initializer,
                                           late ? r.tokens.begin : kNoToken});
                if (!parts.bounds.empty() && tokens_[parts.bounds.begin + 1].isPunct("]"))
                    out_->variables.back().countedBound = initializerElements(parts);
                r.stores.push_back(id);
                declared.push_back({name, Visible::Kind::PerThread, id});
            }
        }
        for (Visible& v : declared) visible_.push_back(std::move(v));
        out_->regions.push_back(std::move(r));
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const FunctionDecl& f_;
    const CoroutineKernel& coroutine_;
    const std::vector<ParamInfo>& params_;
    std::vector<const ThreadgroupDeclaration*> threadgroupStatements_;
    const std::set<std::string>& namespaceVariables_;
    const std::set<std::string>& fileTypes_; ///< types declared anywhere in the file
    // Types declared in the body: a per-thread variable of such a type cannot get its slots
    // before the type exists.
    std::set<std::string> localTypes_;
    std::vector<Visible> visible_;
    TokenRange collectiveArguments_; ///< while planning a SIMD-group function statement
    std::vector<WorkItemGuard> guards_; ///< of the divergent ifs around the statements planned
    std::set<std::size_t> uniformLoops_; ///< setUniformLoops()
    bool keepLockstep_ = true;           ///< keepLockstep()
    LockstepIfs lockstep_;               ///< found by plan() unless interleaved
    bool inUniformLoop_ = false;         ///< planning the body of one of them
    WorkItemKernel* out_ = nullptr;
    bool ok_ = true;
    WorkItemRefusal refusal_;

    // Planning stops at the first thing it cannot do; that one is the reason given.
    void fail(std::size_t at, std::string reason) {
        if (ok_) refusal_ = {coroutine_.function, at, std::move(reason)};
        ok_ = false;
    }
    std::string quoted(std::size_t i) const { return "'" + tokens_[i].spelling + "'"; }
};

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
